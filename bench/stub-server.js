"use strict";
/**
 * The benchmarks' server, run in its own process (forked with IPC) so that it
 * never shares a CPU with the client being measured. It does as little as a
 * server can: a token endpoint, and POST .../sessions answered with a fixed
 * 201 after draining the body. It counts requests and bytes and reports its
 * own CPU time, so the report can show it was not the bottleneck.
 *
 * Also GET session (ended, ACCEPTED) and GET datablocks, what a webhook's
 * processing reads (benchmark 13).
 *
 * Two listeners, because the service's auth and API hosts are different.
 * IPC messages in: "stats", "reset". Out: { ready }, { stats }.
 */
const http = require("node:http");

const TOKEN_DELAY_MS = Number(process.env.BENCH_TOKEN_DELAY_MS ?? 0);
const SESSION_PATH = /^\/api\/v1\/flows\/([^/]+)\/(staging|live)\/sessions$/;
const SESSION_READ_PATH = /^\/api\/v1\/(?:staging|live)\/sessions\/[^/]+(\/datablocks)?$/;
const ENDED_SESSION = JSON.stringify({
  sessionStatus: "COMPLETED",
  outcome: { decision: "ACCEPTED" },
  metadata: { subjectId: "bench-subject" },
});
const DATA_BLOCKS = JSON.stringify({ dataBlocks: { UserReference: { subjectId: "bench-subject" } } });

const counters = { tokenRequests: 0, sessionRequests: 0, readRequests: 0, bodyBytes: 0, rejected: 0 };
let cpuBaseline = process.cpuUsage();
let wallBaseline = process.hrtime.bigint();
const responses = new Map();

main();

async function main() {
  const auth = await listen(handleAuth);
  const api = await listen(handleApi);
  process.on("message", onMessage);
  process.on("disconnect", () => process.exit(0));
  process.send({ ready: { authUrl: auth, baseUrl: api } });
}

function listen(handler) {
  const server = http.createServer(handler);
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${server.address().port}`));
  });
}

function handleAuth(request, response) {
  if (!hasUserAgent(request, response)) return;
  if (request.method !== "POST" || request.url !== "/oidc/token") return reject(response, 404);
  drain(request, () => {
    counters.tokenRequests += 1;
    // A slow token endpoint makes concurrent first calls overlap: the single-flight case.
    setTimeout(() => {
      sendJson(response, 200, '{"access_token":"bench-token","expires_in":86400,"token_type":"Bearer"}');
    }, TOKEN_DELAY_MS);
  });
}

function handleApi(request, response) {
  if (!hasUserAgent(request, response)) return;
  if (request.headers.authorization !== "Bearer bench-token") return reject(response, 401);
  const read = request.method === "GET" && SESSION_READ_PATH.exec(request.url);
  if (read) {
    counters.readRequests += 1;
    return sendJson(response, 200, read[1] ? DATA_BLOCKS : ENDED_SESSION);
  }
  const match = SESSION_PATH.exec(request.url);
  if (request.method !== "POST" || !match) return reject(response, 404);
  drain(request, () => {
    counters.sessionRequests += 1;
    sendJson(response, 201, sessionResponse(match[1], match[2]));
  });
}

function hasUserAgent(request, response) {
  if (request.headers["user-agent"]) return true;
  reject(response, 403);
  return false;
}

function drain(request, done) {
  request.on("data", (chunk) => {
    counters.bodyBytes += chunk.length;
  });
  request.on("end", done);
}

/**
 * Built once per path: the server should cost next to nothing per request, so
 * it does not parse the body. The subjectId is the one every benchmark
 * request carries (the runtime checks that the 201 echoes it).
 */
function sessionResponse(flowId, environment) {
  const key = `${flowId}/${environment}`;
  let body = responses.get(key);
  if (body === undefined) {
    body = JSON.stringify({
      flowId,
      environment,
      flowVersion: 1,
      playerUrl: "https://player.example.test/start?token=bench",
      sessionContext: { sessionId: "00000000-0000-4000-8000-000000000000", sessionStatus: "CREATED" },
      metadata: { subjectId: "bench-subject" },
    });
    responses.set(key, body);
  }
  return body;
}

function sendJson(response, status, body) {
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  response.end(body);
}

function reject(response, status) {
  counters.rejected += 1;
  sendJson(response, status, JSON.stringify({ status, code: "BENCH_REJECTED" }));
}

function onMessage(message) {
  if (message === "reset") {
    Object.keys(counters).forEach((key) => (counters[key] = 0));
    cpuBaseline = process.cpuUsage();
    wallBaseline = process.hrtime.bigint();
    process.send({ stats: snapshot() });
  } else if (message === "stats") {
    process.send({ stats: snapshot() });
  }
}

function snapshot() {
  const cpu = process.cpuUsage(cpuBaseline);
  const wallMs = Number(process.hrtime.bigint() - wallBaseline) / 1e6;
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return { ...counters, cpuMs, wallMs, cpuShare: wallMs > 0 ? cpuMs / wallMs : 0 };
}
