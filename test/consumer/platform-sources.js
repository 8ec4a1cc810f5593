"use strict";
/**
 * The platform consumer (platforms.js runs it): one source file, src/platform/consumer.ts,
 * with the quick start's calls and a webhook receiver, used unchanged on every runtime
 * through a thin entry per platform: a Worker's fetch handler (worker.ts, bundled by
 * wrangler, run by workerd), an edge handler (edge.ts, bundled with the `edge-light`
 * conditions, run by Vercel's Edge Runtime), and a server module for Node, Bun and Deno
 * (server.ts: `export default { fetch }`).
 * TypeScript compiled and type-checked with the rest of the ES module project.
 *
 * The consumer answers three requests: POST /run (the calls, answered with what they
 * returned, or 500 with the error's name, code and message), POST /webhooks (the
 * emulator's signed deliveries, through createWebhookHandler(...).fetch; onSessionEnded
 * prints `session-ended <sessionId> <decision>` on the platform's console), and
 * GET /refusals (what the platform says to a proxy and to a file path as upload source).
 */

const CONSUMER = `import { createClient, createWebhookHandler, fileFromPath, type Client } from "@flowsmith/runtime";
import { amlScreening, signing } from "../generated/index.js";

/** What each entry reads from its platform's configuration: Worker bindings, process.env. */
export interface Settings {
  baseUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
}

export type WaitUntil = (promise: Promise<unknown>) => void;
export type Consumer = (request: Request, waitUntil?: WaitUntil) => Promise<Response>;

export function settingsFrom(env: Readonly<Record<string, unknown>>): Settings {
  const read = (name: string): string => {
    const value = env[name];
    if (typeof value !== "string" || value === "") throw new Error(\`\${name} is not set\`);
    return value;
  };
  return {
    baseUrl: read("FLOWSMITH_BASE_URL"),
    authUrl: read("FLOWSMITH_AUTH_URL"),
    clientId: read("FLOWSMITH_CLIENT_ID"),
    clientSecret: read("FLOWSMITH_CLIENT_SECRET"),
    webhookSecret: read("FLOWSMITH_WEBHOOK_SECRET"),
  };
}

export function createConsumer(settings: Settings): Consumer {
  const client = createClient(clientOptions(settings));
  const webhooks = createWebhookHandler({
    client,
    secret: settings.webhookSecret,
    outcomePollIntervalMs: 20,
    onSessionEnded: ({ sessionId, decision }) => {
      console.log(\`session-ended \${sessionId} \${String(decision)}\`);
    },
    onError: (error, { status }) => {
      console.log(\`webhook-refused \${String(status)} \${JSON.stringify(described(error))}\`);
    },
  });
  return async (request, waitUntil) => {
    const { pathname } = new URL(request.url);
    try {
      if (request.method === "POST" && pathname === "/run") return Response.json(await run(client));
      if (request.method === "POST" && pathname === "/webhooks") {
        const response = await webhooks.fetch(request);
        // The outcome is read after the answer: the platform must not stop the work with it.
        const processed = webhooks.drain();
        if (waitUntil) waitUntil(processed);
        else await processed;
        return response;
      }
      if (request.method === "GET" && pathname === "/refusals") return Response.json(await refusals(settings));
      return new Response("not found", { status: 404 });
    } catch (error) {
      return Response.json({ error: described(error) }, { status: 500 });
    }
  };
}

function clientOptions(settings: Settings) {
  return {
    baseUrl: settings.baseUrl,
    authUrl: settings.authUrl,
    environment: "staging" as const,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    userAgent: "flowsmith-platform-consumer/1.0",
  };
}

/** The quick start's calls: a token, a JSON and a multipart session, the OTP step to its end, the session read back. */
async function run(client: Client<"staging">) {
  const json = await amlScreening.createSession(client, {
    input: { basicIdentity: { givenName: "Ada", familyName: "Lovelace", birthDate: "1815-12-10" } },
    metadata: { subjectId: "platform-json" },
  });
  const session = await signing.createSession(client, {
    input: {
      basicIdentity: { givenName: "Ada", familyName: "Lovelace" },
      documentsToSign: {
        documents: [{ templateId: "tpl-1", source: { data: new TextEncoder().encode("%PDF-1.7 platform"), filename: "c.pdf", contentType: "application/pdf" } }],
      },
    },
    metadata: { subjectId: "platform-multipart", locale: "en" },
  });
  const sessionId = session.sessionContext.sessionId;
  const steps: string[] = [];
  let step = await client.waitForStep(sessionId, { intervalMs: 20, timeoutMs: 30_000 });
  steps.push(step.stepType);
  for (let attempt = 0; step.stepType !== "END" && attempt < 5; attempt += 1) {
    if (step.ticketId === null) throw new Error(\`step \${step.stepType} has no ticket\`);
    await client.submitAction(sessionId, step.ticketId, { type: "VALIDATE_OTP", code: "123456" });
    step = await client.waitForStep(sessionId, { intervalMs: 20, timeoutMs: 30_000 });
    steps.push(step.stepType);
  }
  const record = await client.getSession(sessionId);
  // The reference does not show the outcome's shape; the emulator sends { decision, decidedAt }.
  const decision = (record.outcome as { decision?: string } | null | undefined)?.decision;
  return { jsonSessionId: json.sessionContext.sessionId, sessionId, playerUrl: session.playerUrl, steps, sessionStatus: record.sessionStatus, decision };
}

/** What the platform says to what it may not be able to do: each an outcome, never a crash. */
async function refusals(settings: Settings) {
  return {
    proxy: await outcomeOf(async () => {
      await createClient({ ...clientOptions(settings), proxy: "http://127.0.0.1:9" }).close();
    }),
    filePath: await outcomeOf(() => fileFromPath("contract.pdf")),
  };
}

async function outcomeOf(attempt: () => Promise<unknown>): Promise<{ refused: false } | ({ refused: true } & ReturnType<typeof described>)> {
  try {
    await attempt();
    return { refused: false };
  } catch (error) {
    return { refused: true, ...described(error) };
  }
}

function described(error: unknown): { name: string; code: string | undefined; message: string; stack: string | undefined } {
  if (!(error instanceof Error)) return { name: typeof error, code: undefined, message: String(error), stack: undefined };
  const code = (error as { code?: unknown }).code;
  return { name: error.name, code: typeof code === "string" ? code : undefined, message: error.message, stack: error.stack };
}
`;

/** A Worker's module: its bindings are the settings; waitUntil keeps it alive for the webhook's work. */
const WORKER_ENTRY = `import { createConsumer, settingsFrom, type Consumer } from "./consumer.js";

let consumer: Consumer | undefined;

export default {
  fetch(request: Request, env: Readonly<Record<string, unknown>>, ctx: { waitUntil(promise: Promise<unknown>): void }): Promise<Response> {
    consumer ??= createConsumer(settingsFrom(env));
    return consumer(request, (promise) => {
      ctx.waitUntil(promise);
    });
  },
};
`;

/** A Vercel Edge function: process.env holds the settings; the request context's waitUntil. */
const EDGE_ENTRY = `import { createConsumer, settingsFrom, type Consumer } from "./consumer.js";

export const config = { runtime: "edge" };

let consumer: Consumer | undefined;

export default function handler(request: Request, context: { waitUntil(promise: Promise<unknown>): void }): Promise<Response> {
  consumer ??= createConsumer(settingsFrom(process.env));
  return consumer(request, (promise) => {
    context.waitUntil(promise);
  });
}
`;

/**
 * The main of Node, Bun and Deno: a default export with fetch, which \`bun server.js\` and
 * \`deno serve\` serve as it is, and Node through hosts/fetch-host.mjs (@hono/node-server).
 */
const SERVER_ENTRY = `import { createConsumer, settingsFrom } from "./consumer.js";

const consumer = createConsumer(settingsFrom(process.env));

export default {
  port: Number(process.env["PLATFORM_PORT"]),
  hostname: "127.0.0.1",
  fetch: (request: Request): Promise<Response> => consumer(request),
};
`;

/** The files under src/platform/ of the ES module project, by name. */
const PLATFORM_SOURCES = {
  "consumer.ts": CONSUMER,
  "worker.ts": WORKER_ENTRY,
  "edge.ts": EDGE_ENTRY,
  "server.ts": SERVER_ENTRY,
};

module.exports = { PLATFORM_SOURCES };
