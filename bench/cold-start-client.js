"use strict";
/**
 * Benchmark 15, one measured process: a fresh Node that makes one token request and one
 * createSession, as a serverless function does on its first request, with one tool, then
 * prints its whole CPU time so far (process.cpuUsage: user + system of every thread since the
 * process started, Node's own start-up included) and exits. Nothing else is loaded first.
 * flowsmith is loaded by its package name, so the package's own conditions choose its build.
 * Usage: node bench/cold-start-client.js '<json: tool, authUrl, baseUrl, request, sessionsPath,
 * modulePath, stainlessPath>'
 */
const settings = JSON.parse(process.argv[2]);
const USER_AGENT = "flowsmith-bench/1.0";

const CALLS = {
  async flowsmith({ authUrl, baseUrl, request, modulePath }) {
    const { createClient } = require("@flowsmith/runtime");
    const { createSession } = require(modulePath);
    const client = createClient({
      baseUrl,
      authUrl,
      environment: "staging",
      clientId: "bench-client",
      clientSecret: "bench-secret",
      userAgent: USER_AGENT,
    });
    await createSession(client, request);
    await client.close();
  },
  async "openapi-fetch"({ authUrl, baseUrl, request, sessionsPath }) {
    const { default: createClient } = await import("openapi-fetch");
    const token = await handWrittenToken(authUrl);
    const client = createClient({ baseUrl });
    const { error, response } = await client.POST(sessionsPath, {
      body: request,
      headers: { authorization: `Bearer ${token}`, "user-agent": USER_AGENT },
    });
    if (error || response.status !== 201) throw new Error(`openapi-fetch: status ${response.status}`);
  },
  async dodopayments({ authUrl, baseUrl, stainlessPath }) {
    const { default: DodoPayments } = require(stainlessPath);
    const token = await handWrittenToken(authUrl);
    const client = new DodoPayments({
      bearerToken: token,
      baseURL: baseUrl,
      defaultHeaders: { "user-agent": USER_AGENT },
    });
    await client.checkoutSessions.create({ product_cart: [{ product_id: "pdt_bench", quantity: 1 }] });
  },
};

/** The token as openapi-fetch's and the Stainless SDK's users fetch it: by hand, with fetch. */
async function handWrittenToken(authUrl) {
  const response = await fetch(`${authUrl}/oidc/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": USER_AGENT },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: "bench-client",
      client_secret: "bench-secret",
    }),
  });
  if (response.status !== 200) throw new Error(`token request: status ${response.status}`);
  return (await response.json()).access_token;
}

CALLS[settings.tool](settings).then(
  () => {
    const { user, system } = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ cpuMs: (user + system) / 1000, wallMs: process.uptime() * 1000 })}\n`);
    process.exit(0);
  },
  (error) => {
    process.stderr.write(`cold-start-client (${settings.tool}): ${error.stack ?? error}\n`);
    process.exit(1);
  },
);
