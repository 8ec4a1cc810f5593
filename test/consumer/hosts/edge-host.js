"use strict";
/**
 * Runs an edge bundle in Vercel's Edge Runtime (the `edge-runtime` package: the Web APIs
 * only, in a V8 context of its own, what `next dev` and `vercel dev` run edge code in), as
 * an HTTP server on a loopback port until it is stopped. The bundle is an IIFE that leaves
 * its module on `globalThis.edgeModule` (esbuild's globalName); each request is given to its
 * default export with a context whose waitUntil is the fetch event's, as Vercel does. As on
 * Vercel, `process.env` holds the environment given and nothing else of `process`.
 * Usage: FLOWSMITH_HOST_OPTIONS='<json: edgeRuntime, bundle, env, port>' node edge-host.js; prints "ready <port>".
 */
const fs = require("node:fs");

const options = JSON.parse(process.env.FLOWSMITH_HOST_OPTIONS);
const { EdgeRuntime, runServer } = require(options.edgeRuntime);

const dispatch = `
addEventListener("fetch", (event) => {
  const handler = globalThis.edgeModule.default;
  event.respondWith(handler(event.request, { waitUntil: (promise) => event.waitUntil(promise) }));
});`;

async function main() {
  const runtime = new EdgeRuntime({
    initialCode: `${fs.readFileSync(options.bundle, "utf8")}\n${dispatch}`,
    extend: (context) => Object.assign(context, { process: { env: { ...options.env } } }),
  });
  const server = await runServer({ runtime, host: "127.0.0.1", port: options.port });
  process.stdout.write(`ready ${new URL(server.url).port}\n`);
  process.once("SIGTERM", () => {
    server.close().finally(() => process.exit(0));
  });
}

main().catch((error) => {
  process.stderr.write(`edge-host: ${error.stack ?? error}\n`);
  process.exit(1);
});
