/**
 * Runs a Worker bundle that wrangler wrote (`wrangler deploy --dry-run --outdir`) in workerd
 * through Miniflare, on a loopback port, until it is stopped (SIGTERM). Its console goes to
 * this process's stdout. Run by Node 22 (Miniflare's minimum), from edge-tools.js's folder.
 * Usage: FLOWSMITH_HOST_OPTIONS='<json: miniflare, modulesRoot, scriptPath, compatibilityDate,
 * compatibilityFlags, bindings, port>' node workerd-host.mjs; prints "ready <port>" once it answers.
 */
import { createRequire } from "node:module";

const options = JSON.parse(process.env.FLOWSMITH_HOST_OPTIONS);
const { Miniflare, Log, LogLevel } = createRequire(import.meta.url)(options.miniflare);

const miniflare = new Miniflare({
  modules: true,
  modulesRoot: options.modulesRoot,
  scriptPath: options.scriptPath,
  // wrangler's bundle is ES modules, with `.js` chunks of its own beside the entry.
  modulesRules: [{ type: "ESModule", include: ["**/*.js", "**/*.mjs"] }],
  compatibilityDate: options.compatibilityDate,
  compatibilityFlags: options.compatibilityFlags,
  bindings: options.bindings,
  host: "127.0.0.1",
  port: options.port,
  log: new Log(LogLevel.WARN),
});
const url = await miniflare.ready;
process.stdout.write(`ready ${url.port}\n`);
process.once("SIGTERM", () => {
  miniflare.dispose().finally(() => process.exit(0));
});
