/**
 * Middleware and per-call headers on the one exchange path: every attempt
 * (retries, the resend after a 401, the token request) passes each
 * middleware; a middleware can add headers, measure, or answer without the
 * network; a call's own headers are sent, and the runtime's own are refused
 * by name before anything is sent.
 */
import {
  ConfigurationError,
  FlowsmithError,
  type Client,
  type ExchangeRequest,
  type Middleware,
} from "../../runtime/index.js";
import { clientFor } from "./support/clients.js";
import { createdSession, json, startFakeService, subjectIdOfJson, type FakeService } from "./support/fake-service.js";
import { acceptAll, AML_SPEC, createSessionFor } from "./support/specs.js";

let service: FakeService;
const clients: Client[] = [];

beforeEach(async () => {
  service = await startFakeService("/gw");
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await service.close();
});

function client(middleware: Middleware[], retries = 2): Client<"staging"> {
  const made = clientFor(service, { middleware, retry: { maxRetries: retries, baseDelayMs: 1, maxDelayMs: 5 } });
  clients.push(made);
  return made;
}

const AML_REQUEST = {
  input: { basicIdentity: { givenName: "Ada", familyName: "Lovelace" } },
  metadata: { subjectId: "subject-1" },
};

test("a middleware sees every attempt, token request and retries included, and its header reaches the server each time", async () => {
  let calls = 0;
  service.onApi((_req, res) => {
    calls++;
    if (calls === 1) json(res, 503, { status: 503 });
    else if (calls === 2) json(res, 401, { status: 401 });
    else json(res, 200, { sessionStatus: "RUNNING", metadata: { subjectId: "x" } });
  });
  const seen: Pick<ExchangeRequest, "kind" | "method" | "route" | "attempt">[] = [];
  let id = 0;
  const requestId: Middleware = (request, next) => {
    seen.push({ kind: request.kind, method: request.method, route: request.route, attempt: request.attempt });
    request.headers["x-request-id"] = `r-${String(++id)}`;
    return next(request);
  };
  await expect(client([requestId]).getSession("s-1")).resolves.toMatchObject({ sessionStatus: "RUNNING" });
  const route = "/gw/api/v1/{environment}/sessions/{sessionId}";
  expect(seen).toEqual([
    { kind: "token", method: "POST", route: "/oidc/token", attempt: 1 },
    { kind: "api", method: "GET", route, attempt: 1 },
    // The 503 is retried; the 401 is resent after a new token.
    { kind: "api", method: "GET", route, attempt: 2 },
    { kind: "token", method: "POST", route: "/oidc/token", attempt: 1 },
    { kind: "api", method: "GET", route, attempt: 3 },
  ]);
  const sent = [...service.authRequests, ...service.apiRequests].map((request) => request.headers["x-request-id"]);
  expect(new Set(sent)).toEqual(new Set(["r-1", "r-2", "r-3", "r-4", "r-5"]));
});

test("middleware run in the order given, the first outermost, and can measure the answer", async () => {
  service.onApi((_req, res) => {
    json(res, 200, [{ id: "f" }]);
  });
  const order: string[] = [];
  const layer =
    (name: string): Middleware =>
    async (request, next) => {
      order.push(`${name} in`);
      const response = await next(request);
      order.push(`${name} out ${String(response.status)}`);
      return response;
    };
  await client([layer("a"), layer("b")]).listFlows();
  expect(order).toEqual(["a in", "b in", "b out 200", "a out 200", "a in", "b in", "b out 200", "a out 200"]);
});

test("a middleware answers without the network: nothing is sent, and the answer is checked as any other", async () => {
  const offline: Middleware = (request) =>
    Promise.resolve(
      request.kind === "token"
        ? {
            status: 200,
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ access_token: "offline-token", expires_in: 3600 }),
          }
        : {
            status: 200,
            headers: { "Content-Type": "application/json" },
            body: Buffer.from(JSON.stringify([{ id: "offline-flow" }])),
          },
    );
  await expect(client([offline]).listFlows()).resolves.toEqual([{ id: "offline-flow" }]);
  expect(service.authRequests).toHaveLength(0);
  expect(service.apiRequests).toHaveLength(0);
});

/** A Web ReadableStream of the text's bytes, as a middleware may answer with. */
function streamOf(text: string): ReadableStream<Uint8Array> {
  return new Response(text).body as ReadableStream<Uint8Array>;
}

test("a middleware's answer may be a stream, for a JSON call and for getFile; its error status is the call's ApiError", async () => {
  let getFileStatus = 200;
  const offline: Middleware = (request) => {
    if (request.kind === "token")
      return Promise.resolve({ status: 200, headers: {}, body: '{"access_token":"t-offline","expires_in":60}' });
    if (request.route.endsWith("{vaultEntryId}"))
      return Promise.resolve({ status: getFileStatus, headers: { "content-length": "5" }, body: streamOf("bytes") });
    return Promise.resolve({
      status: 404,
      headers: { "content-type": "application/json" },
      body: streamOf('{"code":"SESSION_NOT_FOUND"}'),
    });
  };
  const offlineClient = client([offline], 0);
  const file = await offlineClient.getFile("v-1");
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(Buffer.from(chunk));
  expect(Buffer.concat(chunks).toString()).toBe("bytes");
  expect(file.contentLength).toBe(5);
  await expect(offlineClient.getSession("s-1")).rejects.toMatchObject({
    code: "NOT_FOUND",
    status: 404,
    bodyCode: "SESSION_NOT_FOUND",
  });
  getFileStatus = 500;
  await expect(offlineClient.getFile("v-1")).rejects.toMatchObject({ code: "SERVER_ERROR", status: 500 });
});

test.each([
  ["undefined", undefined],
  ["a status out of range", { status: 99, headers: {}, body: "" }],
  ["no status", { headers: {}, body: "" }],
  ["a body of another kind", { status: 200, headers: {}, body: { json: true } }],
])(
  "a middleware that answers %s fails the call with INVALID_MIDDLEWARE_RESPONSE, not a TypeError",
  async (_name, answer) => {
    const broken = ((request: ExchangeRequest, next: (request: ExchangeRequest) => Promise<unknown>) =>
      request.kind === "token" ? next(request) : Promise.resolve(answer)) as unknown as Middleware;
    const error = await client([broken])
      .listFlows()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FlowsmithError);
    expect(error).toMatchObject({ code: "INVALID_MIDDLEWARE_RESPONSE" });
  },
);

test("what a middleware throws is what the call rejects with", async () => {
  const failing: Middleware = (request, next) =>
    request.kind === "token" ? next(request) : Promise.reject(new Error("blocked by policy"));
  await expect(client([failing]).listFlows()).rejects.toThrow("blocked by policy");
});

test.each([
  ["not an array", "nope", "middleware must be an array"],
  ["an array with a non-function", [() => undefined, 42], "middleware[1] must be a function"],
])("createClient refuses middleware that is %s", (_name, middleware, message) => {
  expect(() => clientFor(service, { middleware: middleware as unknown as Middleware[] })).toThrow(message);
});

describe("per-call headers", () => {
  test("are sent with the call, on every attempt, beside the runtime's own", async () => {
    let calls = 0;
    service.onApi((req, res, recorded) => {
      calls++;
      if (req.method === "POST") json(res, 201, createdSession(recorded.url, subjectIdOfJson(recorded.body)));
      else if (calls === 1) json(res, 503, {});
      else json(res, 200, [{ id: "f" }]);
    });
    const live = clientFor<"live">(service, {
      environment: "live",
      retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 },
    });
    clients.push(live);
    await live.listFlows({ headers: { "X-Request-Id": "req-42" } });
    await createSessionFor(live, AML_SPEC, acceptAll, AML_REQUEST, { headers: { "x-tenant": "acme" } });
    const [first, retried, created] = service.apiRequests;
    expect(first?.headers["x-request-id"]).toBe("req-42");
    expect(retried?.headers["x-request-id"]).toBe("req-42");
    expect(created?.headers["x-tenant"]).toBe("acme");
    expect(created?.headers["content-type"]).toBe("application/json");
    expect(created?.headers.authorization).toMatch(/^Bearer /);
  });

  test("submitAction keeps its x-ticket-id beside the caller's headers", async () => {
    service.onApi((req, res) => {
      if (req.method === "GET")
        json(res, 200, {
          stepType: "OTP",
          ticketId: "ticket-1",
          actions: [{ type: "RESEND_OTP", schema: { type: "object" } }],
        });
      else json(res, 200, {});
    });
    const staging = client([]);
    await staging.getStep("s-1");
    await staging.submitAction("s-1", "ticket-1", { type: "RESEND_OTP" }, { headers: { "x-request-id": "r-9" } });
    const action = service.apiRequests.at(-1);
    expect(action?.headers).toMatchObject({ "x-ticket-id": "ticket-1", "x-request-id": "r-9" });
  });

  test.each([
    ["authorization", { Authorization: "Bearer mine" }, '"authorization" cannot be set per call'],
    ["user-agent", { "User-Agent": "other" }, '"user-agent" cannot be set per call'],
    ["content-type", { "content-type": "text/plain" }, '"content-type" cannot be set per call'],
    ["content-length", { "Content-Length": "3" }, '"content-length" cannot be set per call'],
    ["host", { host: "evil.example" }, '"host" cannot be set per call'],
    ["x-ticket-id", { "X-Ticket-Id": "t" }, '"x-ticket-id" cannot be set per call'],
    ["a bad name", { "x bad": "1" }, '"x bad" is not a header name'],
    ["a value with a newline", { "x-id": "a\r\nx-evil: 1" }, 'the value of "x-id" contains U+000D'],
    ["a value that is not a string", { "x-id": 7 }, 'the value of "x-id" must be a string'],
  ])("%s is refused with a ConfigurationError naming it, and nothing is sent", async (_name, headers, message) => {
    const staging = client([]);
    const error = await staging
      .listFlows({ headers: headers as unknown as Record<string, string> })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain(message);
    expect(service.authRequests).toHaveLength(0);
    expect(service.apiRequests).toHaveLength(0);
  });
});

test("a middleware that fails the token request: an AuthError that says so, its error the cause", async () => {
  const failing: Middleware = (request, next) =>
    request.kind === "token" ? Promise.reject(new Error("vault unreachable")) : next(request);
  const error = await client([failing])
    .listFlows()
    .catch((e: unknown) => e);
  expect(error).toMatchObject({ name: "AuthError", code: "AUTH_FAILED" });
  expect((error as Error).message).toContain("a middleware failed");
  expect(((error as Error).cause as Error).message).toBe("vault unreachable");
});
