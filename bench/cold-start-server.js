"use strict";
/**
 * Benchmark 15's server: a small node:http server on loopback, in the benchmark's own process
 * (the measured clients are processes of their own), with the service's two hosts: the token
 * endpoint, and POST .../sessions answered with a fixed 201; and the Stainless SDK's own call
 * (POST /checkouts). Every other request is a 404 the client would fail on.
 */
const http = require("node:http");

const TOKEN = JSON.stringify({ access_token: "bench-token", expires_in: 86400, token_type: "Bearer" });
const SESSIONS_PATH = /^\/api\/v1\/flows\/([^/]+)\/(staging|live)\/sessions$/;
const CHECKOUT = JSON.stringify({ session_id: "cks_bench", checkout_url: "https://checkout.example.test/cks_bench" });

async function startColdStartServer() {
  const counts = { token: 0, session: 0, checkout: 0, refused: 0 };
  const auth = await listen((request, response) => {
    if (request.method === "POST" && request.url === "/oidc/token")
      return answer(request, response, 200, TOKEN, () => (counts.token += 1));
    answer(request, response, 404, "{}", () => (counts.refused += 1));
  });
  const api = await listen((request, response) => {
    const session = SESSIONS_PATH.exec(request.url);
    const bearer = request.headers.authorization === "Bearer bench-token";
    if (bearer && request.method === "POST" && session)
      return answer(request, response, 201, sessionBody(session[1], session[2]), () => (counts.session += 1));
    if (bearer && request.method === "POST" && request.url === "/checkouts")
      return answer(request, response, 200, CHECKOUT, () => (counts.checkout += 1));
    answer(request, response, 404, "{}", () => (counts.refused += 1));
  });
  return {
    authUrl: auth.url,
    baseUrl: api.url,
    counts: () => ({ ...counts }),
    close: () => Promise.all([auth.close(), api.close()]),
  };
}

/** What the runtime checks in a 201 (docs/service.md 2.3); the subjectId is the one bench/run.js sends. */
function sessionBody(flowId, environment) {
  return JSON.stringify({
    flowId,
    environment,
    flowVersion: 1,
    playerUrl: "https://player.example.test/start?token=bench",
    sessionContext: { sessionId: "00000000-0000-4000-8000-000000000000", sessionStatus: "CREATED" },
    metadata: { subjectId: "bench-subject" },
  });
}

function answer(request, response, status, body, count) {
  request.resume();
  request.on("end", () => {
    count();
    response
      .writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
      .end(body);
  });
}

function listen(handler) {
  const server = http.createServer(handler);
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((done) => server.close(done).closeAllConnections()),
      }),
    );
  });
}

module.exports = { startColdStartServer };
