/**
 * Runs a Worker bundle that wrangler wrote (`wrangler deploy --dry-run --outdir`) in workerd
 * through Miniflare, on a loopback port, until it is stopped (SIGTERM). Its console goes to
 * this process's stdout. Run by Node 22 (Miniflare's minimum), from edge-tools.js's folder.
 * Usage: FLOWSMITH_HOST_OPTIONS='<json: miniflare, scriptPath, compatibilityDate,
 * compatibilityFlags, bindings, port>' node workerd-host.mjs; prints "ready <port>" once it answers.
 */
import { createRequire } from "node:module";
import path from "node:path";

const options = JSON.parse(process.env.FLOWSMITH_HOST_OPTIONS);
const { Miniflare, Log, LogLevel, convertV4MiniflareOptions } = createRequire(import.meta.url)(options.miniflare);

// Miniflare 4's options (one Worker); Miniflare 5, which wrangler 4 now depends on, converts them.
const v4Options = {
  host: "127.0.0.1",
  port: options.port,
  log: new Log(LogLevel.WARN),
  modules: true,
  // Module names are paths below this folder: the bundle's own.
  modulesRoot: path.dirname(options.scriptPath),
  scriptPath: options.scriptPath,
  // No request for Cloudflare's `request.cf` data: loopback only.
  cf: false,
  compatibilityDate: options.compatibilityDate,
  compatibilityFlags: options.compatibilityFlags,
  bindings: options.bindings,
};
const miniflare = new Miniflare(convertV4MiniflareOptions ? convertV4MiniflareOptions(v4Options) : v4Options);
const url = await miniflare.ready;
process.stdout.write(`ready ${url.port}\n`);
process.once("SIGTERM", () => {
  miniflare.dispose().finally(() => process.exit(0));
});
