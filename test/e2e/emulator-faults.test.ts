/**
 * Each fault of the emulator's control API driven through the runtime and a
 * generated client, as a team's integration tests would: the runtime must do
 * the right thing with what the service can do to it. The runtime's clock is
 * virtual (retry waits cost no real time) and the emulator's is moved by
 * hand where a fault holds a request.
 */
import path from "node:path";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "@jest/globals";
import { randomBytes } from "node:crypto";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import * as amlScreening from "../../generated/aml-screening/index.js";
import {
  AuthError,
  createClient,
  createWebhookHandler,
  NetworkError,
  TimeoutError,
  type Client,
  type ClientOptions,
  type SessionEnded,
} from "../../runtime/index.js";
import { bearer, call, tokenFor } from "../emulator/fixtures.js";
import { ManualClock } from "../emulator/manual-clock.js";
import { settledWebhook } from "../emulator/webhook-receiver.js";
import { VirtualClock } from "../runtime/support/virtual-clock.js";

const REPO = path.join(__dirname, "..", "..");
const SECRET = `whsec_${randomBytes(32).toString("base64")}`;
const SESSIONS_PATH = amlScreening.flow.path;

const emulatorClock = new ManualClock();
let emulator: RunningEmulator;
const clients: Client<"staging">[] = [];

beforeAll(async () => {
  emulator = await startEmulator({
    configPath: path.join(REPO, "codegen.config.json"),
    createdMs: 0,
    stepMs: 0,
    clock: emulatorClock,
  });
});
afterEach(async () => {
  emulator.clearFaults();
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(() => emulator.close());

function clientOf(
  target: Pick<RunningEmulator, "baseUrl" | "authUrl" | "clients">,
  options: Partial<ClientOptions<"staging">> = {},
): Client<"staging"> {
  const client = createClient<"staging">({
    baseUrl: target.baseUrl,
    authUrl: target.authUrl,
    environment: "staging",
    ...target.clients.staging,
    userAgent: "flowsmith-e2e/1.0",
    ...options,
  });
  clients.push(client);
  return client;
}

const request = (subjectId: string): amlScreening.CreateSessionRequest => ({
  input: { basicIdentity: { givenName: "Ada", familyName: "Lovelace", birthDate: "1815-12-10" } },
  metadata: { subjectId },
});

/** The journal's entries from `since` on for one method and path. */
const journalOf = (since: number, method: string, pathname: string) =>
  emulator.requests(since).requests.filter((entry) => entry.method === method && entry.path === pathname);

test("a 429 with Retry-After on a GET is retried after the wait it names, and then succeeds", async () => {
  const clock = new VirtualClock();
  const client = clientOf(emulator, { clock });
  const { sessionContext } = await amlScreening.createSession(client, request("cust-429"));
  const since = emulator.requests().next;
  const sessionPath = `/api/v1/staging/sessions/${sessionContext.sessionId}`;
  const fault = emulator.addFault({
    method: "GET",
    path: "/api/v1/staging/sessions/*",
    status: 429,
    headers: { "retry-after": "1" },
  });
  const session = await client.getSession(sessionContext.sessionId);
  expect(session.metadata).toEqual({ subjectId: "cust-429" });
  expect(clock.sleeps).toEqual([1000]);
  expect(journalOf(since, "GET", sessionPath).map((entry) => [entry.status, entry.fault])).toEqual([
    [429, fault.id],
    [200, null],
  ]);
});

test("a connection reset after createSession was processed is a NetworkError saying the session may exist, and it does", async () => {
  const client = clientOf(emulator);
  await client.listFlows();
  const since = emulator.requests().next;
  const fault = emulator.addFault({ method: "POST", path: SESSIONS_PATH, reset: "after" });
  const error = await amlScreening.createSession(client, request("cust-reset")).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(NetworkError);
  expect(error).toMatchObject({ code: "NETWORK_ERROR", method: "POST", path: SESSIONS_PATH });
  expect((error as Error).message).toContain(
    "The service may have received the request and acted on it (for createSession: the session may exist)",
  );
  // Not retried: one POST, which the service processed (201) and whose answer never left.
  expect(journalOf(since, "POST", SESSIONS_PATH)).toEqual([
    expect.objectContaining({ status: 201, dropped: true, fault: fault.id }),
  ]);
  // And the service's own listing has it.
  const listed = await call(`${emulator.baseUrl}${SESSIONS_PATH}`, {
    headers: bearer(await tokenFor(emulator, "staging")),
  });
  const subjects = await Promise.all(
    listed.json.sessions.map(async ({ sessionId }) => (await client.getSession(sessionId)).metadata.subjectId),
  );
  expect(subjects).toContain("cust-reset");
});

test("a createSession whose connection was refused is a NetworkError that does not say the session may exist", async () => {
  // A port nothing listens on: the connection never opens, so nothing reached a service.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const client = clientOf(emulator, { baseUrl: `http://127.0.0.1:${String(port)}` });
  const error = await amlScreening.createSession(client, request("cust-refused")).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(NetworkError);
  expect(error).toMatchObject({ code: "NETWORK_ERROR", method: "POST", path: SESSIONS_PATH });
  expect((error as Error).message).toContain("ECONNREFUSED");
  expect((error as Error).message).not.toContain("may have received");
});

test("a reset before a GET is processed is a NetworkError the runtime retries", async () => {
  const clock = new VirtualClock();
  const client = clientOf(emulator, { clock });
  await client.listFlows();
  const since = emulator.requests().next;
  emulator.addFault({ method: "GET", path: "/api/v1/flows/staging", reset: "before" });
  expect((await client.listFlows()).length).toBeGreaterThan(0);
  expect(clock.sleeps).toHaveLength(1);
  expect(journalOf(since, "GET", "/api/v1/flows/staging").map((entry) => [entry.status, entry.dropped])).toEqual([
    [null, true],
    [200, false],
  ]);
});

test("an answer held past the client's timeoutMs is a TimeoutError", async () => {
  const client = clientOf(emulator, { timeoutMs: 300, retry: { maxRetries: 0 } });
  await client.listFlows();
  emulator.addFault({ method: "GET", path: "/api/v1/flows/staging", delayMs: 60_000 });
  await expect(client.listFlows()).rejects.toBeInstanceOf(TimeoutError);
  // Releases the held request.
  emulatorClock.advance(60_000);
});

test("a 503 from the auth host is an AuthError, nothing is cached, and the next call asks for a token again", async () => {
  const client = clientOf(emulator);
  const since = emulator.requests().next;
  emulator.addFault({ host: "auth", method: "POST", path: "/oidc/token", status: 503 });
  const error = await client.listFlows().catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(AuthError);
  expect(error).toMatchObject({ code: "AUTH_FAILED", status: 503 });
  await client.listFlows();
  expect(
    emulator.requests(since).requests.map((entry) => [entry.host, entry.method, entry.path, entry.status]),
  ).toEqual([
    ["auth", "POST", "/oidc/token", 503],
    ["auth", "POST", "/oidc/token", 200],
    ["api", "GET", "/api/v1/flows/staging", 200],
  ]);
});

describe("webhooks", () => {
  let hooked: RunningEmulator;
  let server: Server;
  const handled: SessionEnded[] = [];
  const errors: unknown[] = [];

  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const webhookUrl = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/webhooks`;
    hooked = await startEmulator({
      configPath: path.join(REPO, "codegen.config.json"),
      createdMs: 0,
      stepMs: 0,
      webhookUrl,
      webhookSecret: SECRET,
    });
  });
  afterAll(async () => {
    await hooked.close();
    await new Promise((resolve) => server.close(resolve));
  });

  test("a webhook delivered twice (same webhook-id) reaches onSessionEnded once", async () => {
    const client = clientOf(hooked);
    const handler = createWebhookHandler({
      client,
      secret: SECRET,
      onSessionEnded: (ended) => void handled.push(ended),
      onError: (error) => void errors.push(error),
      outcomePollIntervalMs: 10,
    });
    server.on("request", (req, res) => void handler(req, res));
    const { sessionContext } = await amlScreening.createSession(client, request("test_webhook_duplicate_e2e"));
    const event = await settledWebhook(hooked, sessionContext.sessionId);
    await handler.drain();
    expect(event.attempts).toEqual([
      expect.objectContaining({ status: 204 }),
      expect.objectContaining({ status: 204 }),
    ]);
    expect(handled.map((ended) => [ended.sessionId, ended.webhookId, ended.decision])).toEqual([
      [sessionContext.sessionId, event.webhookId, "ACCEPTED"],
    ]);
    expect(errors).toEqual([]);
  });
});
