"use strict";
/**
 * The throwaway projects of the consumer test, and the consumer they compile
 * and run: what a user's backend would write against the generated clients.
 * Each tsconfig is type-checked; `emitWith` is the one whose output runs.
 */

const PROJECTS = [
  {
    name: "esm-nodenext",
    packageJson: { type: "module" },
    emitWith: "tsconfig.json",
    tsconfigs: {
      "tsconfig.json": { module: "nodenext", moduleResolution: "nodenext" },
      "tsconfig.bundler.json": { module: "esnext", moduleResolution: "bundler" },
    },
  },
  {
    name: "cjs-commonjs",
    packageJson: { type: "commonjs" },
    emitWith: "tsconfig.json",
    tsconfigs: {
      // "module": "commonjs" resolves with node10 rules, which ignore package.json "exports".
      "tsconfig.json": { module: "commonjs", esModuleInterop: true },
      "tsconfig.node16.json": { module: "node16", moduleResolution: "node16" },
    },
  },
];

/**
 * No top-level await: the same source compiles to CommonJS and to ES modules.
 * The client keeps its token in Redis (@flowsmith/redis), and the session's
 * webhook comes back through the Redis queue: its handler listens on
 * WEBHOOK_PORT, where the emulator sends it, signed with WEBHOOK_SECRET.
 */
function consumerSource() {
  return `import { createServer } from "node:http";
import { createClient, createWebhookHandler, ApiError, NetworkError, type Client, type SessionEnded } from "@flowsmith/runtime";
import { createRedisTokenStore, createWebhookQueue } from "@flowsmith/redis";
import { amlScreening, signing } from "./generated/index.js";

interface EmulatorInfo {
  baseUrl: string;
  authUrl: string;
  clients: { staging: { clientId: string; clientSecret: string } };
}

async function main(): Promise<void> {
  const emulator = JSON.parse(process.env["EMULATOR"] ?? "") as EmulatorInfo;
  const redisUrl = process.env["REDIS_URL"] ?? "";
  const tokenStore = createRedisTokenStore({ redis: redisUrl });
  const client: Client<"staging"> = createClient({
    baseUrl: emulator.baseUrl,
    authUrl: emulator.authUrl,
    environment: "staging",
    ...emulator.clients.staging,
    userAgent: "flowsmith-consumer-test/1.0",
    tokenStore,
  });
  let webhookArrived!: (ended: SessionEnded) => void;
  const webhook = new Promise<SessionEnded>((resolve) => (webhookArrived = resolve));
  const queue = createWebhookQueue({ connection: redisUrl, client, onSessionEnded: (ended) => webhookArrived(ended) });
  const secret = process.env["WEBHOOK_SECRET"];
  if (!secret) throw new Error("WEBHOOK_SECRET is not set");
  const handler = createWebhookHandler({ client, secret, queue });
  const server = createServer((req, res) => {
    void handler(req, res);
  });
  try {
    await queue.startWorker();
    await new Promise<void>((resolve) => server.listen(Number(process.env["WEBHOOK_PORT"]), "127.0.0.1", resolve));
    const aml = await amlScreening.createSession(client, {
      input: { basicIdentity: { givenName: "Ada", familyName: "Lovelace", birthDate: "1815-12-10" } },
      metadata: { subjectId: "consumer-json" },
    });
    console.log("json session", aml.sessionContext.sessionId);

    const session = await signing.createSession(client, {
      input: {
        basicIdentity: { givenName: "Ada", familyName: "Lovelace" },
        documentsToSign: {
          documents: [{ templateId: "tpl-1", source: { data: new TextEncoder().encode("%PDF-1.7 consumer"), filename: "c.pdf", contentType: "application/pdf" } }],
        },
      },
      metadata: { subjectId: "consumer-multipart", locale: "en" },
    });
    const sessionId = session.sessionContext.sessionId;
    console.log("multipart session", sessionId);

    let step = await client.waitForStep(sessionId, { intervalMs: 20, timeoutMs: 30_000 });
    for (let attempt = 0; step.stepType !== "END" && attempt < 5; attempt += 1) {
      if (step.ticketId === null) throw new Error("waitForStep returned a step without a ticket");
      await client.submitAction(sessionId, step.ticketId, { type: "VALIDATE_OTP", code: "123456" });
      step = await client.waitForStep(sessionId, { intervalMs: 20, timeoutMs: 30_000 });
    }
    const record = await client.getSession(sessionId);
    // The reference does not show the outcome's shape; the emulator sends { decision, decidedAt }.
    console.log("decision", (record.outcome as { decision?: string } | undefined)?.decision);

    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      webhook,
      new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error("no webhook within 30 s")), 30_000))),
    ]);
    clearTimeout(timer);
    console.log("webhook through the Redis queue", ended.sessionId === sessionId ? "for this session" : ended.sessionId, "decision", ended.decision);

    // A scenario chosen by subjectId: rejected with no action.
    const rejected = await amlScreening.createSession(client, {
      input: { basicIdentity: { givenName: "Ada", familyName: "Lovelace", birthDate: "1815-12-10" } },
      metadata: { subjectId: "test_rejected_consumer" },
    });
    const outcome = await client.waitForOutcome(rejected.sessionContext.sessionId, { intervalMs: 20, timeoutMs: 30_000 });
    console.log("scenario", (outcome.outcome as { decision?: string } | undefined)?.decision);

    // A fault from the control API: the session is created, the answer never comes.
    const fault = await fetch(\`\${emulator.baseUrl}/__emulator/faults\`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "POST", path: amlScreening.flow.path, reset: "after" }),
    });
    if (fault.status !== 201) throw new Error(\`POST /__emulator/faults answered \${String(fault.status)}\`);
    const lost = await amlScreening
      .createSession(client, { input: { basicIdentity: { givenName: "A", familyName: "L", birthDate: "1815-12-10" } }, metadata: { subjectId: "consumer-lost" } })
      .then(() => undefined, (error: unknown) => error);
    if (!(lost instanceof NetworkError) || !lost.message.includes("the session may exist")) throw new Error(\`expected a NetworkError saying the session may exist, got \${String(lost)}\`);
    const journal = (await (await fetch(\`\${emulator.baseUrl}/__emulator/requests\`)).json()) as { requests: { method: string; path: string; status: number | null; dropped: boolean }[] };
    const dropped = journal.requests.filter((entry) => entry.method === "POST" && entry.path === amlScreening.flow.path && entry.dropped);
    console.log("fault", lost.name, dropped.map((entry) => entry.status).join(","));
  } catch (error) {
    if (error instanceof ApiError) console.error("api error", error.status, error.code);
    throw error;
  } finally {
    server.close();
    await queue.close();
    await client.close();
    await tokenStore.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;
}

/**
 * What the runtimes test (on-runtimes.js) runs beside the consumer, as plain
 * JavaScript in the ES module project: a webhook receiver on the runtime's own
 * Fetch-API server (Bun.serve, Deno.serve) with handler.fetch, fed by the
 * emulator's real, signed deliveries, while a session is followed to its end
 * with the generated client; the node:http front's refusals on the runtime's
 * node:http; and on Bun, a dispatcher refused, with the reason (the runtime sends
 * through Bun's fetch there). Prints "webhook <decision> on <runtime>".
 */
function webhookCheckSource() {
  return `import { createClient, createWebhookHandler } from "@flowsmith/runtime";
import { signing } from "./out/generated/index.js";

const emulator = JSON.parse(process.env.EMULATOR ?? "");
const port = Number(process.env.WEBHOOK_PORT);
const runtime = typeof globalThis.Bun !== "undefined" ? "bun" : typeof globalThis.Deno !== "undefined" ? "deno" : "node";
const client = createClient({
  baseUrl: emulator.baseUrl,
  authUrl: emulator.authUrl,
  environment: "staging",
  ...emulator.clients.staging,
  userAgent: "flowsmith-consumer-test/1.0",
});
let announce;
const ended = new Promise((resolve) => (announce = resolve));
const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error("WEBHOOK_SECRET is not set");
const handler = createWebhookHandler({ client, secret, outcomePollIntervalMs: 20, onSessionEnded: (event) => announce(event), onError: () => undefined });
const server =
  runtime === "bun"
    ? globalThis.Bun.serve({ port, hostname: "127.0.0.1", fetch: handler.fetch })
    : globalThis.Deno.serve({ port, hostname: "127.0.0.1", onListen: () => undefined }, handler.fetch);
try {
  if (runtime === "bun") {
    // A dispatcher is undici's, which only the runtime on Node sends through: on Bun (whose \`undici\` is a
    // stand-in anyway) the runtime uses Bun's fetch, and createClient says why it refuses one.
    const shim = await import("undici");
    let refused;
    try {
      createClient({ baseUrl: emulator.baseUrl, authUrl: emulator.authUrl, environment: "staging", ...emulator.clients.staging, userAgent: "x", dispatcher: new shim.Agent() });
    } catch (error) {
      refused = error;
    }
    if (refused?.code !== "INVALID_OPTIONS" || !/only the runtime on Node uses/.test(refused.message)) throw new Error(\`a dispatcher on Bun was not refused with the reason: \${refused}\`);
  }
  const unsigned = await fetch(\`http://127.0.0.1:\${port}/webhooks\`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  if (unsigned.status !== 401) throw new Error(\`an unsigned delivery was answered \${unsigned.status}, not 401\`);
  // The node:http front too, on the runtime's node:http: refusals answered as on Node.
  const { createServer } = await import("node:http");
  const nodeServer = createServer(handler);
  await new Promise((resolve) => nodeServer.listen(0, "127.0.0.1", resolve));
  const nodeUrl = \`http://127.0.0.1:\${nodeServer.address().port}/webhooks\`;
  const answers = [
    await fetch(nodeUrl, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }),
    await fetch(nodeUrl, { method: "GET" }),
  ].map((answer) => answer.status);
  await new Promise((resolve) => nodeServer.close(resolve));
  if (answers.join() !== "401,405") throw new Error(\`the node:http front answered \${answers.join()}, not 401,405\`);
  const session = await signing.createSession(client, {
    input: {
      basicIdentity: { givenName: "Ada", familyName: "Lovelace" },
      documentsToSign: { documents: [{ templateId: "tpl-1", source: { data: new TextEncoder().encode("%PDF-1.7"), filename: "c.pdf", contentType: "application/pdf" } }] },
    },
    metadata: { subjectId: "consumer-webhook" },
  });
  const sessionId = session.sessionContext.sessionId;
  let step = await client.waitForStep(sessionId, { intervalMs: 20, timeoutMs: 30000 });
  for (let attempt = 0; step.stepType !== "END" && attempt < 5; attempt += 1) {
    await client.submitAction(sessionId, step.ticketId, { type: "VALIDATE_OTP", code: "123456" });
    step = await client.waitForStep(sessionId, { intervalMs: 20, timeoutMs: 30000 });
  }
  const timeout = new Promise((_resolve, reject) => setTimeout(() => reject(new Error("no session-ended delivery within 30 s")), 30000).unref?.());
  const event = await Promise.race([ended, timeout]);
  if (event.sessionId !== sessionId) throw new Error(\`the delivery named session \${event.sessionId}, not \${sessionId}\`);
  console.log(\`webhook \${event.decision} on \${runtime}\`);
} finally {
  await handler.drain();
  await client.close();
  await (runtime === "bun" ? server.stop(true) : server.shutdown());
}
`;
}

module.exports = { PROJECTS, consumerSource, webhookCheckSource };
