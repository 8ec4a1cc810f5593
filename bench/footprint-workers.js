"use strict";
/**
 * Benchmark 14's three Workers, each written as a user of that tool would write it: a Worker
 * that creates a session of the JSON sample flow (POST /sign-up) and handles its webhook
 * (POST /webhooks: the Standard Webhooks signature checked, then the session read back).
 * - flowsmith: the generated createSession, createWebhookHandler(...).fetch;
 * - openapi-fetch over openapi-typescript's types, with the token fetched by hand and the
 *   signature checked with Web Crypto by hand (what the tool leaves to its user);
 * - dodopayments, a Stainless-generated SDK (its checkout sessions and webhooks.unwrap,
 *   Standard Webhooks through the standardwebhooks package), with the same hand-written token.
 * TypeScript: wrangler bundles it as it bundles a user's Worker.
 */

/** `flowModule`: the generated aml module, as an import path from the Worker's folder. */
function flowsmithWorker(flowModule) {
  return `import { createClient, createWebhookHandler, type Client, type WebhookHandler } from "@flowsmith/runtime";
import { createSession } from ${JSON.stringify(flowModule)};

interface Env { BASE_URL: string; AUTH_URL: string; CLIENT_ID: string; CLIENT_SECRET: string; WEBHOOK_SECRET: string }
interface Context { waitUntil(promise: Promise<unknown>): void }

let app: { client: Client<"staging">; webhooks: WebhookHandler } | undefined;

export default {
  async fetch(request: Request, env: Env, ctx: Context): Promise<Response> {
    if (!app) {
      const client = createClient({ baseUrl: env.BASE_URL, authUrl: env.AUTH_URL, environment: "staging", clientId: env.CLIENT_ID, clientSecret: env.CLIENT_SECRET, userAgent: "footprint/1.0" });
      app = { client, webhooks: createWebhookHandler({ client, secret: env.WEBHOOK_SECRET, onSessionEnded: ({ sessionId, decision }) => console.log(sessionId, decision) }) };
    }
    if (new URL(request.url).pathname === "/webhooks") {
      const answer = await app.webhooks.fetch(request);
      ctx.waitUntil(app.webhooks.drain());
      return answer;
    }
    const session = await createSession(app.client, (await request.json()) as Parameters<typeof createSession>[1]);
    return Response.json({ playerUrl: session.playerUrl });
  },
};
`;
}

/** A client-credentials token fetched and kept by hand, as openapi-fetch and the Stainless SDKs leave it to their users. */
const HAND_WRITTEN_TOKEN = `let token: { value: string; expiresAt: number } | undefined;

async function accessToken(env: Env): Promise<string> {
  if (token && token.expiresAt > Date.now() + 60_000) return token.value;
  const response = await fetch(\`\${env.AUTH_URL}/oidc/token\`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": "footprint/1.0" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: env.CLIENT_ID, client_secret: env.CLIENT_SECRET }),
  });
  if (!response.ok) throw new Error(\`token request failed: \${response.status}\`);
  const body = (await response.json()) as { access_token: string; expires_in?: number };
  token = { value: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 86_400) * 1000 };
  return token.value;
}
`;

/** `typesModule`: openapi-typescript's output for the same flow; `sessionsPath`: its one path. */
function openapiFetchWorker(typesModule, sessionsPath) {
  return `import createClient from "openapi-fetch";
import type { paths } from ${JSON.stringify(typesModule)};

interface Env { BASE_URL: string; AUTH_URL: string; CLIENT_ID: string; CLIENT_SECRET: string; WEBHOOK_SECRET: string }

${HAND_WRITTEN_TOKEN}
/** Standard Webhooks by hand: HMAC-SHA256 over "id.timestamp.body", any v1 signature, a 5-minute window. */
async function verified(request: Request, secret: string): Promise<string | undefined> {
  const id = request.headers.get("webhook-id");
  const timestamp = request.headers.get("webhook-timestamp");
  const signatures = request.headers.get("webhook-signature");
  if (!id || !timestamp || !signatures || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return undefined;
  const body = await request.text();
  const keyBytes = Uint8Array.from(atob(secret.replace(/^whsec_/, "")), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  for (const signature of signatures.split(" ")) {
    const [version, value] = signature.split(",");
    if (version !== "v1" || !value) continue;
    const mac = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
    if (await crypto.subtle.verify("HMAC", key, mac, new TextEncoder().encode(\`\${id}.\${timestamp}.\${body}\`))) return body;
  }
  return undefined;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const client = createClient<paths>({ baseUrl: env.BASE_URL });
    const headers = { authorization: \`Bearer \${await accessToken(env)}\`, "user-agent": "footprint/1.0" };
    if (new URL(request.url).pathname === "/webhooks") {
      const body = await verified(request, env.WEBHOOK_SECRET);
      if (body === undefined) return new Response(null, { status: 401 });
      const { data } = JSON.parse(body) as { data: { sessionId: string } };
      const session = await fetch(\`\${env.BASE_URL}/api/v1/staging/sessions/\${encodeURIComponent(data.sessionId)}\`, { headers });
      console.log(data.sessionId, ((await session.json()) as { outcome?: unknown }).outcome);
      return new Response(null, { status: 204 });
    }
    const { data, error } = await client.POST(${JSON.stringify(sessionsPath)}, { body: await request.json(), headers });
    if (error) return Response.json(error, { status: 502 });
    return Response.json({ playerUrl: (data as { playerUrl: string }).playerUrl });
  },
};
`;
}

function stainlessWorker() {
  return `import DodoPayments from "dodopayments";

interface Env { BASE_URL: string; AUTH_URL: string; CLIENT_ID: string; CLIENT_SECRET: string; WEBHOOK_SECRET: string }

${HAND_WRITTEN_TOKEN}
export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const client = new DodoPayments({ bearerToken: await accessToken(env), baseURL: env.BASE_URL, webhookKey: env.WEBHOOK_SECRET });
    if (new URL(request.url).pathname === "/webhooks") {
      const event = client.webhooks.unwrap(await request.text(), { headers: Object.fromEntries(request.headers) }) as unknown as { data: { payment_id: string } };
      const payment = await client.payments.retrieve(event.data.payment_id);
      console.log(payment.payment_id, payment.status);
      return new Response(null, { status: 204 });
    }
    const session = await client.checkoutSessions.create({ product_cart: [{ product_id: "pdt_1", quantity: 1 }] });
    return Response.json({ checkoutUrl: session.checkout_url });
  },
};
`;
}

module.exports = { flowsmithWorker, openapiFetchWorker, stainlessWorker };
