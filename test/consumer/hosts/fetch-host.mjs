/**
 * Serves the default export of a compiled module on a loopback port with @hono/node-server,
 * as Bun and `deno serve` serve it on theirs: a fetch handler `(request) => Response`, or an
 * object with one (`{ fetch }`). So Node runs the platform consumer's server module, and the
 * route handlers of docs/vercel.md as Next.js hands them a Request on its Node.js runtime.
 * Runs until stopped.
 * Usage: FLOWSMITH_HOST_OPTIONS='<json: module, port>' node fetch-host.mjs; prints "ready <port>".
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const options = JSON.parse(process.env.FLOWSMITH_HOST_OPTIONS);
const { serve } = createRequire(import.meta.url)("@hono/node-server");
const { default: exported } = await import(pathToFileURL(options.module).href);
const handler = typeof exported === "function" ? exported : (request) => exported.fetch(request);
// The runtime under test sees Node's own Request and Response, not the server's lighter stand-ins.
const server = serve(
  { fetch: handler, port: options.port, hostname: "127.0.0.1", overrideGlobalObjects: false },
  (info) => {
    process.stdout.write(`ready ${info.port}\n`);
  },
);
process.once("SIGTERM", () => server.close(() => process.exit(0)));
