import { expect } from "@jest/globals";
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Webhook } from "standardwebhooks";
import {
  createClient,
  createWebhookHandler,
  type SessionEnded,
  type SessionEndedEvent,
  type WebhookHandler,
} from "@flowsmith/runtime";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { ALL_FLOWS, AML_ID, bearer, call, tokenFor } from "./fixtures.js";
import { ManualClock } from "./manual-clock.js";
import { Receiver } from "./webhook-receiver.js";

const SECRET = `whsec_${Buffer.from("flowsmith-emulator-webhook-test-secret").toString("base64")}`;
const RETRY_DELAYS_MS = [1000, 5000];

/** Creates a session and ends it: code 123456 accepts; three wrong codes reject. */
async function endSession(
  emulator: RunningEmulator,
  clock: ManualClock,
  token: string,
  decision: "ACCEPTED" | "REJECTED",
): Promise<string> {
  const api = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    call(`${emulator.baseUrl}/api/v1${path}`, { ...init, headers: bearer(token, init.headers) });
  const created = await api(`/flows/${AML_ID}/staging/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      input: { basicIdentity: { givenName: "Ada", birthDate: "1815-12-10" } },
      metadata: { subjectId: "cust-1" },
    }),
  });
  const sessionId = created.json.sessionContext.sessionId;
  clock.advance(1_000);
  let ticketId = (await api(`/staging/sessions/${sessionId}/step`)).json.ticketId;
  const code = decision === "ACCEPTED" ? "123456" : "000000";
  while (ticketId !== null) {
    const answer = await api(`/staging/sessions/${sessionId}/actions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-ticket-id": ticketId },
      body: JSON.stringify({ type: "VALIDATE_OTP", code }),
    });
    expect(answer.status).toBe(200);
    ticketId = answer.json.step.ticketId;
  }
  return sessionId;
}

describe("webhooks, signed (Standard Webhooks)", () => {
  const receiver = new Receiver();
  const clock = new ManualClock();
  let emulator: RunningEmulator;
  let token: string;

  beforeAll(async () => {
    const webhookUrl = await receiver.listen();
    emulator = await startEmulator({
      flows: ALL_FLOWS,
      createdMs: 100,
      stepMs: 100,
      clock,
      webhookUrl,
      webhookSecret: SECRET,
      webhookRetryDelaysMs: RETRY_DELAYS_MS,
    });
    token = await tokenFor(emulator, "staging");
  });
  afterAll(async () => {
    await emulator.close();
    await receiver.close();
  });

  test("the body is the runtime's SessionEndedEvent, with id, timestamp and a signature the standardwebhooks verifier accepts", async () => {
    const sessionId = await endSession(emulator, clock, token, "ACCEPTED");
    const delivery = await receiver.next();
    expect(delivery.headers["content-type"]).toBe("application/json");
    expect(delivery.headers["user-agent"]).toBe("flowsmith-emulator");
    expect(delivery.headers["webhook-id"]).toMatch(/^msg_[0-9a-f-]{36}$/);
    expect(delivery.headers["webhook-timestamp"]).toBe(String(Math.floor(clock.now() / 1000)));
    expect(delivery.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const verified = new Webhook(SECRET).verify(
      delivery.raw,
      delivery.headers as Record<string, string>,
    ) as SessionEndedEvent;
    const expected: SessionEndedEvent = {
      type: "session.ended",
      timestamp: new Date(clock.now()).toISOString(),
      data: { sessionId, flowId: AML_ID, environment: "staging", decision: "ACCEPTED" },
    };
    expect(verified).toEqual(expected);
    const session = await call(`${emulator.baseUrl}/api/v1/staging/sessions/${sessionId}`, { headers: bearer(token) });
    expect(session.json.outcome!.decidedAt).toBe(expected.timestamp);
    // A body altered in transit fails verification.
    expect(() =>
      new Webhook(SECRET).verify(
        delivery.raw.replace("ACCEPTED", "REJECTED"),
        delivery.headers as Record<string, string>,
      ),
    ).toThrow();
  });

  test("retries carry the same webhook-id and body, a fresh timestamp and signature, after each delay of the clock", async () => {
    receiver.statuses = [500, 503];
    const sessionId = await endSession(emulator, clock, token, "REJECTED");
    const first = await receiver.next();
    await clock.timerScheduled();
    clock.advance(RETRY_DELAYS_MS[0]! - 1);
    expect(receiver.unread).toBe(0);
    clock.advance(1);
    const second = await receiver.next();
    await clock.timerScheduled();
    clock.advance(RETRY_DELAYS_MS[1]!);
    const third = await receiver.next();
    const attempts = [first, second, third];
    expect(new Set(attempts.map((attempt) => attempt.headers["webhook-id"])).size).toBe(1);
    expect(new Set(attempts.map((attempt) => attempt.raw)).size).toBe(1);
    const timestamps = attempts.map((attempt) => Number(attempt.headers["webhook-timestamp"]));
    expect([timestamps[1]! - timestamps[0]!, timestamps[2]! - timestamps[1]!]).toEqual([1, 5]);
    for (const attempt of attempts) {
      expect(new Webhook(SECRET).verify(attempt.raw, attempt.headers as Record<string, string>)).toMatchObject({
        data: { sessionId, decision: "REJECTED" },
      });
    }
    expect(clock.pendingTimers).toBe(0);
  });

  test("each event has its own webhook-id", async () => {
    await endSession(emulator, clock, token, "ACCEPTED");
    await endSession(emulator, clock, token, "ACCEPTED");
    const [a, b] = [await receiver.next(), await receiver.next()];
    expect(a.headers["webhook-id"]).not.toBe(b.headers["webhook-id"]);
    expect((JSON.parse(a.raw) as SessionEndedEvent).data.sessionId).not.toBe(
      (JSON.parse(b.raw) as SessionEndedEvent).data.sessionId,
    );
  });

  test("a receiver that never succeeds gets 1 + retries attempts, then delivery stops", async () => {
    receiver.statuses = [500, 500, 500, 500];
    await endSession(emulator, clock, token, "ACCEPTED");
    await receiver.next();
    for (const delay of RETRY_DELAYS_MS) {
      await clock.timerScheduled();
      clock.advance(delay);
      await receiver.next();
    }
    expect(clock.pendingTimers).toBe(0);
    receiver.statuses = [];
  });
});

describe("webhooks, unsigned", () => {
  test("without a secret: webhook-id and webhook-timestamp, no webhook-signature", async () => {
    const receiver = new Receiver();
    const clock = new ManualClock();
    const emulator = await startEmulator({ flows: ALL_FLOWS, clock, webhookUrl: await receiver.listen() });
    try {
      await endSession(emulator, clock, await tokenFor(emulator, "staging"), "ACCEPTED");
      const delivery = await receiver.next();
      expect(delivery.headers["webhook-id"]).toMatch(/^msg_/);
      expect(delivery.headers["webhook-timestamp"]).toBe(String(Math.floor(clock.now() / 1000)));
      expect(delivery.headers["webhook-signature"]).toBeUndefined();
      expect(JSON.parse(delivery.raw)).toMatchObject({ type: "session.ended", data: { decision: "ACCEPTED" } });
    } finally {
      await emulator.close();
      await receiver.close();
    }
  });

  test.each([
    ["not-a-whsec-secret"],
    ["whsec_"],
    ["whsec_!!!not base64!!!"],
    // Issue 20: one zero byte is the empty key to HMAC; 31 bytes are short of the 32 the runtime's handler asks.
    ["whsec_AA=="],
    [`whsec_${Buffer.from("thirty-one-bytes-of-secret-text").toString("base64")}`],
  ])("a webhookSecret of %j is refused at start without echoing it, saying how to make one", async (secret) => {
    const error = await startEmulator({ flows: ALL_FLOWS, webhookSecret: secret }).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    expect(error?.message).toContain(
      'webhookSecret (--webhook-secret) must be a Standard Webhooks secret, "whsec_" followed by the base64 of at least 32 random bytes',
    );
    expect(error?.message).toContain("openssl rand -base64 32");
    if (secret.length > "whsec_".length) expect(error?.message).not.toContain(secret.slice("whsec_".length));
  });
});

describe("the runtime's webhook handler receives the emulator's deliveries", () => {
  test("signed with the same secret: verified, and the outcome read back through the API", async () => {
    // The receiver listens first (the emulator needs its URL); its handler needs a client of the emulator, made next.
    let handle: WebhookHandler | undefined;
    const server = createServer((req, res) => {
      if (handle) void handle(req, res);
      else res.writeHead(503).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const webhookUrl = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/hooks`;
    const clock = new ManualClock();
    const emulator = await startEmulator({
      flows: ALL_FLOWS,
      createdMs: 0,
      stepMs: 0,
      clock,
      webhookUrl,
      webhookSecret: SECRET,
    });
    const client = createClient<"staging">({
      baseUrl: emulator.baseUrl,
      authUrl: emulator.authUrl,
      environment: "staging",
      ...emulator.clients.staging,
      userAgent: "emulator-tests/1.0",
    });
    const errors: unknown[] = [];
    const ended = new Promise<SessionEnded>((resolve) => {
      handle = createWebhookHandler({
        client,
        secret: SECRET,
        onSessionEnded: resolve,
        onError: (error) => void errors.push(error),
      });
    });
    try {
      const sessionId = await endSession(emulator, clock, await tokenFor(emulator, "staging"), "REJECTED");
      const event = await ended;
      expect(errors).toEqual([]);
      expect(event).toMatchObject({
        sessionId,
        decision: "REJECTED",
        webhookId: expect.stringMatching(/^msg_/),
        session: { sessionStatus: "COMPLETED" },
      });
    } finally {
      await client.close();
      await emulator.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("closing the emulator", () => {
  test("ends its connections to the webhook receiver: no keep-alive socket outlives it", async () => {
    const receiver = new Receiver();
    // The receiver keeps idle connections for longer than the test's timeout: only the emulator can end them in time.
    receiver.server.keepAliveTimeout = 60_000;
    const sockets: Promise<void>[] = [];
    receiver.server.on("connection", (socket: Socket) => {
      sockets.push(
        new Promise((resolve) => {
          socket.once("close", () => {
            resolve();
          });
        }),
      );
    });
    const clock = new ManualClock();
    const emulator = await startEmulator({
      flows: ALL_FLOWS,
      createdMs: 100,
      stepMs: 100,
      clock,
      webhookUrl: await receiver.listen(),
    });
    try {
      await endSession(emulator, clock, await tokenFor(emulator, "staging"), "ACCEPTED");
      await receiver.next();
      expect(sockets).toHaveLength(1);
    } finally {
      await emulator.close();
    }
    // Each socket's close event, bounded by jest's timeout; the receiver itself has not closed anything.
    await Promise.all(sockets);
    await receiver.close();
  });
});
