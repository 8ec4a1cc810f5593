/**
 * Benchmark 4b, one measuring process: JSON session creation at concurrency
 * 16 through the runtime as the package's conditions choose it. Run plainly,
 * Node gets its own build and its transport, undici's dispatcher; run with
 * `--conditions=edge-light`, the same Node gets the Web platform's build and
 * its transport, the platform's fetch (what Workers, Vercel Edge, Deno and
 * Bun use). Everything else is the same code. Prints one JSON line: the rate
 * and this process's CPU time per request.
 * Usage: node [--conditions=edge-light] bench/transport-client.mjs '<json settings>'
 */
import { createRequire } from "node:module";
import { createClient } from "@flowsmith/runtime";
import { createFlowSession } from "@flowsmith/runtime/flow-module";

const require = createRequire(import.meta.url);
const { measure } = require("./concurrent-load.js");

const settings = JSON.parse(process.argv[2]);
const client = createClient({
  baseUrl: settings.baseUrl,
  authUrl: settings.authUrl,
  environment: settings.spec.environment,
  clientId: "bench-client",
  clientSecret: "bench-secret",
  userAgent: "flowsmith-bench/1.0",
});
const call = () => createFlowSession(client, settings.spec, settings.body);
await measure(call, settings.warmupMs, settings.concurrency);
const result = await measure(call, settings.durationMs, settings.concurrency);
await client.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
