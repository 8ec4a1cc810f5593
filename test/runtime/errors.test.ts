import {
  AbortError,
  ApiError,
  BadRequestError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  UnprocessableEntityError,
  type Client,
} from "../../runtime/index.js";
import { clientFor } from "./support/clients.js";
import { json, startFakeService, type FakeService } from "./support/fake-service.js";
import { VirtualClock } from "./support/virtual-clock.js";
import { AML_SPEC, amlValidator, createSession, SIGNING_SPEC, createSessionFor } from "./support/specs.js";

let service: FakeService;
let client: Client<"staging">;

beforeEach(async () => {
  service = await startFakeService("/verification");
  client = clientFor(service, { retry: { maxRetries: 0 } });
});
afterEach(async () => {
  await client.close();
  await service.close();
});

const SESSION_PATH = "/verification/api/v1/staging/sessions/s%2F1";

describe("each service status becomes its error class and code", () => {
  test.each<[number, new (...args: never[]) => ApiError, string, unknown]>([
    [
      400,
      BadRequestError,
      "BAD_REQUEST",
      { status: 400, code: "BAD_METADATA", message: "metadata.email is not allowed" },
    ],
    [401, UnauthorizedError, "UNAUTHORIZED", { status: 401, code: "INVALID_TOKEN" }],
    [403, ForbiddenError, "FORBIDDEN", { status: 403, code: "FORBIDDEN" }],
    [404, NotFoundError, "NOT_FOUND", { status: 404, code: "SESSION_NOT_FOUND" }],
    [413, PayloadTooLargeError, "PAYLOAD_TOO_LARGE", "Request Entity Too Large"],
    [422, UnprocessableEntityError, "UNPROCESSABLE_ENTITY", { status: 422, code: "FILE_TOO_LARGE" }],
    [429, RateLimitError, "RATE_LIMITED", undefined],
    [500, ServerError, "SERVER_ERROR", { status: 500, code: "INTERNAL" }],
    [503, ServerError, "SERVER_ERROR", "<html>down</html>"],
    [418, ApiError, "HTTP_ERROR", { code: "TEAPOT" }],
  ])("%i", async (status, errorClass, code, body) => {
    service.onApi((_req, res) => {
      if (body === undefined) return void res.writeHead(status).end();
      if (typeof body === "string") return void res.writeHead(status, { "content-type": "text/html" }).end(body);
      json(res, status, body);
    });
    const error = await client.getSession("s/1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errorClass);
    const apiError = error as ApiError;
    expect(apiError).toMatchObject({ code, status, method: "GET", path: SESSION_PATH });
    expect(apiError.name).toBe(errorClass.name);
    expect(apiError.body).toEqual(body);
    expect(apiError.message).toContain(`GET ${SESSION_PATH} failed with status ${String(status)}`);
    if (typeof body === "object" && body !== null && "code" in body) {
      expect(apiError.bodyCode).toBe(body.code);
      expect(apiError.message).toContain(String(body.code));
    }
    const token = service.apiRequests[0]?.headers.authorization?.replace("Bearer ", "") ?? "none";
    expect(apiError.message + JSON.stringify(apiError)).not.toContain(token);
    expect(apiError.message).not.toContain("127.0.0.1");
  });

  test("403 names credentials of another environment as the likely cause, not a User-Agent the runtime always sends", async () => {
    service.onApi((_req, res) => {
      json(res, 403, {});
    });
    const error = await client.listFlows().catch((e: unknown) => e);
    expect(service.apiRequests[0]?.headers["user-agent"]).toBeTruthy();
    expect((error as Error).message).toMatch(
      /likely cause is credentials of another environment: The path's environment \(staging\) must equal/,
    );
    expect((error as Error).message).not.toMatch(/usual cause is a request without a User-Agent/);
  });

  test("422 FILE_TOO_LARGE on session creation names POST, the flow path and the body code", async () => {
    service.onApi((_req, res) => {
      json(res, 422, {
        status: 422,
        code: "FILE_TOO_LARGE",
        message: "input[documentsToSign][documents][][source] is too large",
      });
    });
    const error = await createSession(client, SIGNING_SPEC, {
      input: { documentsToSign: { documents: [{ templateId: "t", source: Buffer.from("x") }] } },
      metadata: { subjectId: "s" },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error).toMatchObject({
      bodyCode: "FILE_TOO_LARGE",
      method: "POST",
      path: `/verification${SIGNING_SPEC.path}`,
    });
  });
});

describe("retries", () => {
  test("GETs retry on 5xx and network errors, then succeed", async () => {
    client = clientFor(service, { retry: { maxRetries: 3, baseDelayMs: 5 } });
    let calls = 0;
    service.onApi((req, res) => {
      calls++;
      if (calls === 1) return void req.socket.destroy();
      if (calls === 2) {
        json(res, 502, { code: "BAD_GATEWAY" });
        return;
      }
      json(res, 200, { sessionStatus: "RUNNING", metadata: { subjectId: "x" } });
    });
    await expect(client.getSession("s")).resolves.toMatchObject({ sessionStatus: "RUNNING" });
    expect(service.apiRequests).toHaveLength(3);
  });

  test("a 429 waits as long as Retry-After asks, in seconds or as an HTTP date, on the client's clock", async () => {
    const clock = new VirtualClock();
    client = clientFor(service, { clock, retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 60_000 } });
    let calls = 0;
    service.onApi((_req, res) => {
      calls++;
      if (calls === 1) {
        json(res, 429, { code: "RATE_LIMITED" }, { "retry-after": "1" });
        return;
      }
      if (calls === 2) {
        json(res, 429, {}, { "retry-after": new Date(clock.now() + 30_000).toUTCString() });
        return;
      }
      json(res, 200, [{ id: "f" }]);
    });
    await expect(client.listFlows()).resolves.toEqual([{ id: "f" }]);
    // The HTTP date has whole seconds: the wait is 30 s less the milliseconds the date drops.
    expect(clock.sleeps[0]).toBe(1000);
    expect(clock.sleeps[1]).toBeGreaterThan(29_000);
    expect(clock.sleeps[1]).toBeLessThanOrEqual(30_000);
    expect(service.apiRequests).toHaveLength(3);
  });

  test("backoff without Retry-After: full jitter below baseDelayMs * 2^n, capped by maxDelayMs", async () => {
    const clock = new VirtualClock();
    client = clientFor(service, { clock, retry: { maxRetries: 4, baseDelayMs: 100, maxDelayMs: 300 } });
    service.onApi((_req, res) => {
      json(res, 503, {});
    });
    await expect(client.listFlows()).rejects.toBeInstanceOf(ServerError);
    expect(clock.sleeps).toHaveLength(4);
    clock.sleeps.forEach((ms, n) => {
      expect(ms).toBeGreaterThanOrEqual(0);
      expect(ms).toBeLessThanOrEqual(Math.min(300, 100 * 2 ** n));
    });
  });

  test("retries are bounded: maxRetries + 1 attempts, then the last error", async () => {
    client = clientFor(service, { retry: { maxRetries: 2, baseDelayMs: 1 } });
    service.onApi((_req, res) => {
      json(res, 503, { code: "UNAVAILABLE" });
    });
    const error = await client.getDataBlocks("s").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(service.apiRequests).toHaveLength(3);
  });

  test("a Retry-After longer than maxDelayMs is not waited for", async () => {
    client = clientFor(service, { retry: { maxRetries: 3, maxDelayMs: 1000 } });
    service.onApi((_req, res) => {
      json(res, 429, {}, { "retry-after": "120" });
    });
    const error = await client.listFlows().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(120_000);
    expect(service.apiRequests).toHaveLength(1);
  });

  test.each([
    [
      "503",
      (_req: unknown, res: Parameters<typeof json>[0]) => {
        json(res, 503, {});
      },
      ServerError,
    ],
    [
      "a dropped connection",
      (req: { socket: { destroy(): void } }) => {
        req.socket.destroy();
      },
      NetworkError,
    ],
  ] as const)("session creation is never retried (%s)", async (_name, handler, errorClass) => {
    client = clientFor(service, { retry: { maxRetries: 3, baseDelayMs: 1 } });
    service.onApi(handler);
    const live = clientFor<"live">(service, { environment: "live", retry: { maxRetries: 3, baseDelayMs: 1 } });
    const error = await createSessionFor(live, AML_SPEC, amlValidator, {
      input: { basicIdentity: { givenName: "a", familyName: "b" } },
      metadata: { subjectId: "s" },
    }).catch((e: unknown) => e);
    await live.close();
    expect(error).toBeInstanceOf(errorClass);
    expect(service.apiRequests).toHaveLength(1);
  });
});

describe("transport failures", () => {
  test("a server that never answers is a TimeoutError naming method, path and limit", async () => {
    service.onApi(() => undefined); // holds the request; closed with the service
    const error = await client.listFlows({ timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({
      code: "TIMEOUT",
      method: "GET",
      path: "/verification/api/v1/flows/staging",
      timeoutMs: 50,
    });
  });

  test("the caller's signal aborts a call with an AbortError carrying the signal's reason", async () => {
    const controller = new AbortController();
    const reason = new Error("user went away");
    // Aborted once the request has reached the server: no timer decides the order.
    service.onApi(() => {
      controller.abort(reason);
    });
    const error = await client.listFlows({ signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(error).toMatchObject({ code: "ABORTED", method: "GET", cause: reason });
    expect(service.apiRequests).toHaveLength(1);
  });

  test("an unreachable API host is a NetworkError", async () => {
    const gone = await startFakeService();
    const baseUrl = gone.baseUrl;
    await gone.close();
    client = clientFor(service, { baseUrl, retry: { maxRetries: 1, baseDelayMs: 1 } });
    const error = await client.listFlows().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: "NETWORK_ERROR", method: "GET", path: "/api/v1/flows/staging" });
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });
});
