/**
 * createClient({ logger }): one entry per attempt, token requests and retries
 * included, with method, route template, status, duration, attempt and error
 * code; response bodies only at debug, scrubbed; a logger that throws does
 * not fail the call.
 */
import {
  ConfigurationError,
  createMemoryTokenStore,
  type Client,
  type Logger,
  type TokenStore,
} from "../../runtime/index.js";
import { arrayLogger } from "./support/array-logger.js";
import { clientFor } from "./support/clients.js";
import {
  createdSession,
  json,
  slowTokenAndFlows,
  startFakeService,
  subjectIdOfJson,
  type FakeService,
} from "./support/fake-service.js";
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

function client<E extends "staging" | "live" = "staging">(
  logger: Logger,
  environment: E = "staging" as E,
  tokenStore?: TokenStore,
): Client<E> {
  const made = clientFor<E>(service, {
    logger,
    environment,
    retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 },
    ...(tokenStore ? { tokenStore } : {}),
  });
  clients.push(made);
  return made;
}

test("one entry per attempt: the token request, a retried 503, a 401 resent with a new token, and the answer", async () => {
  let calls = 0;
  service.onApi((_req, res) => {
    calls++;
    if (calls === 1) json(res, 503, { status: 503 });
    else if (calls === 2) json(res, 401, { status: 401 });
    else json(res, 200, { sessionStatus: "RUNNING", metadata: { subjectId: "x" } });
  });
  const logger = arrayLogger();
  await client(logger).getSession("s-1");
  const route = "/gw/api/v1/{environment}/sessions/{sessionId}";
  expect(
    logger.entries.map(({ level, fields }) => ({ level, ...fields, durationMs: typeof fields.durationMs })),
  ).toEqual([
    {
      level: "info",
      kind: "token",
      method: "POST",
      route: "/oidc/token",
      attempt: 1,
      status: 200,
      durationMs: "number",
    },
    {
      level: "error",
      kind: "api",
      method: "GET",
      route,
      attempt: 1,
      status: 503,
      errorCode: "SERVER_ERROR",
      durationMs: "number",
    },
    {
      level: "warn",
      kind: "api",
      method: "GET",
      route,
      attempt: 2,
      status: 401,
      errorCode: "UNAUTHORIZED",
      durationMs: "number",
    },
    {
      level: "info",
      kind: "token",
      method: "POST",
      route: "/oidc/token",
      attempt: 1,
      status: 200,
      durationMs: "number",
    },
    { level: "info", kind: "api", method: "GET", route, attempt: 3, status: 200, durationMs: "number" },
  ]);
  expect(logger.entries[4]?.message).toMatch(
    /^flowsmith GET \/gw\/api\/v1\/\{environment\}\/sessions\/\{sessionId\} 200 \(attempt 3, [\d.]+ ms\)$/,
  );
});

test("clients sharing a token store: the one token request is logged once, by the client that made it; each call's attempt by its own", async () => {
  slowTokenAndFlows(service, "fleet-token-value");
  const tokenStore = createMemoryTokenStore();
  const loggers = [arrayLogger(), arrayLogger(), arrayLogger()];
  await Promise.all(loggers.map((logger) => client(logger, "staging", tokenStore).listFlows()));
  expect(service.authRequests).toHaveLength(1);
  const tokenEntries = loggers.flatMap((logger) => logger.entries.filter((entry) => entry.fields.kind === "token"));
  expect(tokenEntries.map(({ level, fields }) => ({ level, ...fields, durationMs: typeof fields.durationMs }))).toEqual(
    [
      {
        level: "info",
        kind: "token",
        method: "POST",
        route: "/oidc/token",
        attempt: 1,
        status: 200,
        durationMs: "number",
      },
    ],
  );
  for (const logger of loggers) {
    expect(logger.entries.filter((entry) => entry.fields.kind === "api").map((entry) => entry.fields.status)).toEqual([
      200,
    ]);
    expect(JSON.stringify(logger.entries)).not.toContain("fleet-token-value");
  }
});

test("an attempt without an answer is logged with its error code; the token request's refusal as AUTH_FAILED", async () => {
  service.onToken((_req, res) => {
    json(res, 401, { error: "invalid_client" });
  });
  const logger = arrayLogger();
  await expect(client(logger).listFlows()).rejects.toMatchObject({ code: "AUTH_FAILED" });
  expect(logger.entries).toEqual([
    expect.objectContaining({
      level: "warn",
      fields: expect.objectContaining({ kind: "token", status: 401, errorCode: "AUTH_FAILED" }) as unknown,
    }),
  ]);

  service.onToken((_req, res) => {
    json(res, 200, { access_token: "t-1", expires_in: 3600 });
  });
  service.onApi(() => {
    // Never answered.
  });
  const second = arrayLogger();
  await expect(client(second).listFlows({ timeoutMs: 50 })).rejects.toMatchObject({ code: "TIMEOUT" });
  expect(second.entries.at(-1)).toMatchObject({
    level: "error",
    fields: { kind: "api", attempt: 1, errorCode: "TIMEOUT" },
  });
  expect(second.entries.at(-1)?.fields.status).toBeUndefined();
});

test("response bodies only at debug: metadata, the player URL's token, and what the request sent are scrubbed; nothing of the token response", async () => {
  service.onApi((_req, res, recorded) => {
    const created = createdSession(recorded.url, subjectIdOfJson(recorded.body));
    json(res, 201, { ...created, echo: JSON.parse(recorded.body.toString("utf8")) as unknown });
  });
  const request = {
    input: { basicIdentity: { givenName: "Marker-Given-Name", familyName: "Marker-Family" } },
    metadata: { subjectId: "marker-subject-id" },
  };

  const quiet = arrayLogger();
  await createSessionFor(client(quiet, "live"), AML_SPEC, acceptAll, request);
  expect(quiet.entries.filter((entry) => entry.level === "debug")).toEqual([]);

  const verbose = arrayLogger({ debug: true });
  await createSessionFor(client(verbose, "live"), AML_SPEC, acceptAll, request);
  const debug = verbose.entries.filter((entry) => entry.level === "debug");
  expect(debug).toHaveLength(1);
  const body = String(debug[0]?.fields.body);
  expect(body).toContain('"flowId":"aml-flow"');
  expect(body).toContain('"metadata":{"subjectId":"[redacted]"}');
  expect(body).toContain('"playerUrl":"https://player.example.test/start?[redacted]"');
  for (const secret of ["Marker-Given-Name", "Marker-Family", "marker-subject-id", "player-s-1"])
    expect(body).not.toContain(secret);
  expect(JSON.stringify(verbose.entries)).not.toMatch(/token-\d+/);
});

test("a logger that throws does not fail the call", async () => {
  service.onApi((_req, res) => {
    json(res, 200, [{ id: "f" }]);
  });
  const throwing: Logger = {
    debug: () => undefined,
    info: () => {
      throw new Error("log sink down");
    },
    warn: () => undefined,
    error: () => undefined,
  };
  await expect(client(throwing).listFlows()).resolves.toEqual([{ id: "f" }]);
});

test("console fits as a logger; an object without the four methods is refused by name", () => {
  expect(() => client(console)).not.toThrow();
  expect(() => clientFor(service, { logger: { info: () => undefined } as unknown as Logger })).toThrow(
    ConfigurationError,
  );
  expect(() => clientFor(service, { logger: { info: () => undefined } as unknown as Logger })).toThrow(
    "missing: debug, warn, error",
  );
});
