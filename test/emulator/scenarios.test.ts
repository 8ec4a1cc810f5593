/**
 * Scenarios chosen by metadata.subjectId (docs/emulator.md, "Scenarios"), over real
 * HTTP on a clock the test moves: each prefix plays its script, webhooks
 * arrive once, twice, late or never as the table says, and every other
 * subject plays the default OTP scenario. Deliveries to several webhook URLs
 * go round in turn.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@jest/globals";
import type { SessionEndedEvent } from "@flowsmith/runtime";
import { SCENARIOS, startEmulator, type RunningEmulator, type WebhookRecord } from "../../emulator/index.js";
import { ALL_FLOWS, AML_ID, bearer, call, tokenFor, type Answer } from "./fixtures.js";
import { ManualClock } from "./manual-clock.js";
import { Receiver, settledWebhook, type Delivery } from "./webhook-receiver.js";

const CREATED_MS = 100;
const STEP_MS = 100;
/** When a session a scenario ends on its own ends: when the OTP step would issue its ticket. */
const ENDS_AFTER_MS = CREATED_MS + 2 * STEP_MS;
const LATE_MS = 2000;

/** A session of the fixtures' AML flow (JSON, staging) for `subjectId`. */
async function createSession(emulator: RunningEmulator, token: string, subjectId: string): Promise<string> {
  const answer = await call(`${emulator.baseUrl}/api/v1/flows/${AML_ID}/staging/sessions`, {
    method: "POST",
    headers: bearer(token, { "content-type": "application/json" }),
    body: JSON.stringify({
      input: { basicIdentity: { givenName: "Ada", birthDate: "1815-12-10" } },
      metadata: { subjectId },
    }),
  });
  expect(answer.status).toBe(201);
  return answer.json.sessionContext.sessionId;
}

const eventOf = (delivery: Delivery): SessionEndedEvent => JSON.parse(delivery.raw) as SessionEndedEvent;

describe("scenarios by subjectId", () => {
  const clock = new ManualClock();
  const receiver = new Receiver();
  let emulator: RunningEmulator;
  let token: string;
  const api = (
    url: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Answer> =>
    call(`${emulator.baseUrl}/api/v1/staging/sessions/${url}`, { ...init, headers: bearer(token, init.headers) });

  beforeAll(async () => {
    emulator = await startEmulator({
      flows: ALL_FLOWS,
      createdMs: CREATED_MS,
      stepMs: STEP_MS,
      clock,
      webhookUrl: await receiver.listen(),
      lateWebhookMs: LATE_MS,
    });
    token = await tokenFor(emulator, "staging");
  });
  afterEach(() => {
    expect(receiver.unread).toBe(0);
  });
  afterAll(async () => {
    await emulator.close();
    await receiver.close();
  });

  test.each([
    ["test_accepted_7", "ACCEPTED"],
    ["test_rejected_7", "REJECTED"],
  ])("%s runs its phases and ends %s with no action; its webhook goes out once", async (subjectId, decision) => {
    const sessionId = await createSession(emulator, token, subjectId);
    const createdAt = clock.now();
    expect((await api(`${sessionId}/step`)).json.code).toBe("SESSION_NOT_RUNNING");
    clock.advance(CREATED_MS);
    expect((await api(`${sessionId}/step`)).json).toEqual({ stepType: "START", ticketId: null });
    clock.advance(STEP_MS);
    expect((await api(`${sessionId}/step`)).json).toEqual({ stepType: "OTP_VERIFICATION:v1", ticketId: null });
    const action = await api(`${sessionId}/actions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-ticket-id": "t" },
      body: '{"type":"RESEND_OTP"}',
    });
    expect(action.json.code).toBe("NO_ACTION_EXPECTED");
    // Nobody reads the session now: its own timer ends it, and the webhook goes out.
    clock.advance(STEP_MS);
    const delivery = await receiver.next();
    expect(eventOf(delivery).data).toEqual({ sessionId, flowId: AML_ID, environment: "staging", decision });
    const session = await api(sessionId);
    expect(session.json).toMatchObject({
      sessionStatus: "COMPLETED",
      outcome: { decision, decidedAt: new Date(createdAt + ENDS_AFTER_MS).toISOString() },
    });
    expect((await api(`${sessionId}/step`)).json).toEqual({ stepType: "END", ticketId: null });
    expect(await settledWebhook(emulator, sessionId)).toMatchObject({
      delivery: "once",
      attempts: [{ status: 204 }],
      pending: false,
    });
  });

  test("a session read long after its end time shows the end at that time, not at the read", async () => {
    const sessionId = await createSession(emulator, token, "test_accepted_late_reader");
    const createdAt = clock.now();
    clock.advance(3_600_000);
    expect((await api(sessionId)).json.outcome).toEqual({
      decision: "ACCEPTED",
      decidedAt: new Date(createdAt + ENDS_AFTER_MS).toISOString(),
    });
    await receiver.next();
  });

  test("test_never_ends… stays RUNNING at START, takes no action and sends nothing", async () => {
    const sessionId = await createSession(emulator, token, "test_never_ends_1");
    clock.advance(12 * 3_600_000);
    expect((await api(sessionId)).json).toMatchObject({ sessionStatus: "RUNNING" });
    expect((await api(sessionId)).json.outcome).toBeUndefined();
    expect((await api(`${sessionId}/step`)).json).toEqual({ stepType: "START", ticketId: null });
    const action = await api(`${sessionId}/actions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-ticket-id": "t" },
      body: '{"type":"RESEND_OTP"}',
    });
    expect(action.json.code).toBe("NO_ACTION_EXPECTED");
    expect(emulator.webhooks().some((event) => event.sessionId === sessionId)).toBe(false);
  });

  test("test_webhook_duplicate… ends ACCEPTED and its webhook is delivered twice, with the same webhook-id and body", async () => {
    const sessionId = await createSession(emulator, token, "test_webhook_duplicate_1");
    clock.advance(ENDS_AFTER_MS);
    const [first, second] = [await receiver.next(), await receiver.next()];
    expect(second.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(second.raw).toBe(first.raw);
    expect(eventOf(first).data).toMatchObject({ sessionId, decision: "ACCEPTED" });
    const event = await settledWebhook(emulator, sessionId);
    expect(event).toMatchObject({
      webhookId: first.headers["webhook-id"],
      delivery: "twice",
      attempts: [{ status: 204 }, { status: 204 }],
    });
  });

  test("test_webhook_late… shows its outcome on GET session first; the webhook follows lateWebhookMs later", async () => {
    const sessionId = await createSession(emulator, token, "test_webhook_late_1");
    clock.advance(ENDS_AFTER_MS);
    const endedAt = clock.now();
    expect((await api(sessionId)).json.outcome?.decision).toBe("ACCEPTED");
    expect(emulator.webhooks().find((event) => event.sessionId === sessionId)).toMatchObject({
      delivery: "late",
      attempts: [],
      pending: true,
    });
    clock.advance(LATE_MS - 1);
    expect(emulator.webhooks().find((event) => event.sessionId === sessionId)?.attempts).toEqual([]);
    clock.advance(1);
    const delivery = await receiver.next();
    expect(eventOf(delivery).data.sessionId).toBe(sessionId);
    expect(delivery.headers["webhook-timestamp"]).toBe(String(Math.floor((endedAt + LATE_MS) / 1000)));
    expect(await settledWebhook(emulator, sessionId)).toMatchObject({ attempts: [{ status: 204 }] });
  });

  test("test_webhook_lost… ends ACCEPTED and its webhook never goes out", async () => {
    const sessionId = await createSession(emulator, token, "test_webhook_lost_1");
    clock.advance(ENDS_AFTER_MS);
    expect((await api(sessionId)).json.outcome?.decision).toBe("ACCEPTED");
    expect(emulator.webhooks().find((event) => event.sessionId === sessionId)).toMatchObject({
      delivery: "never",
      attempts: [],
      pending: false,
    });
    expect(clock.pendingTimers).toBe(0);
  });

  test("every other subject plays the default scenario: the OTP step waits with a ticket", async () => {
    for (const subjectId of ["cust-1", "test_", "TEST_ACCEPTED_1", "x_test_accepted"]) {
      const sessionId = await createSession(emulator, token, subjectId);
      clock.advance(ENDS_AFTER_MS);
      const step = await api(`${sessionId}/step`);
      expect(step.json).toMatchObject({ stepType: "OTP_VERIFICATION:v1", ticketId: expect.any(String) });
      expect((await api(sessionId)).json.sessionStatus).toBe("RUNNING");
    }
  });
});

describe("several webhook URLs", () => {
  const clock = new ManualClock();
  const receivers = [new Receiver(), new Receiver()] as const;
  let urls: string[];
  let emulator: RunningEmulator;
  let token: string;

  beforeAll(async () => {
    urls = await Promise.all(receivers.map((receiver) => receiver.listen()));
    emulator = await startEmulator({
      flows: ALL_FLOWS,
      createdMs: 0,
      stepMs: 0,
      clock,
      webhookUrl: urls,
      webhookRetryDelaysMs: [1000],
    });
    token = await tokenFor(emulator, "staging");
  });
  afterAll(async () => {
    await emulator.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  /** Which receivers the event's attempts went to, in order (the log's targets, as indices of `urls`). */
  const targetsOf = (event: WebhookRecord): number[] => event.attempts.map((attempt) => urls.indexOf(attempt.target));

  test("events take the URLs in turn; an event's next attempt (the second copy, a retry) goes to the next URL", async () => {
    const order: number[] = [];
    for (const subjectId of ["test_accepted_a", "test_accepted_b", "test_accepted_c"]) {
      const sessionId = await createSession(emulator, token, subjectId);
      clock.advance(0);
      order.push(...targetsOf(await settledWebhook(emulator, sessionId)));
    }
    expect(order).toEqual([0, 1, 0]);
    expect(eventOf(await receivers[0].next()).data.sessionId).not.toBe(
      eventOf(await receivers[0].next()).data.sessionId,
    );
    await receivers[1].next();

    // The two copies of one event reach different receivers, as behind no load balancer.
    const duplicated = await createSession(emulator, token, "test_webhook_duplicate_fleet");
    clock.advance(0);
    expect(targetsOf(await settledWebhook(emulator, duplicated))).toEqual([1, 0]);
    const [copy1, copy0] = [await receivers[1].next(), await receivers[0].next()];
    expect(copy1.headers["webhook-id"]).toBe(copy0.headers["webhook-id"]);

    // The fifth event starts at the first URL, which refuses; the retry goes to the other one.
    receivers[0].statuses = [503];
    const retried = await createSession(emulator, token, "test_accepted_retried");
    clock.advance(0);
    await receivers[0].next();
    await clock.timerScheduled();
    clock.advance(1000);
    await receivers[1].next();
    const event = await settledWebhook(emulator, retried);
    expect(targetsOf(event)).toEqual([0, 1]);
    expect(event.attempts.map((attempt) => ("status" in attempt ? attempt.status : attempt.error))).toEqual([503, 204]);
    expect(receivers.map((receiver) => receiver.unread)).toEqual([0, 0]);
  });

  test("the log names each attempt's target by origin and path; an unreachable one is an attempt with its error", async () => {
    const closed = new Receiver();
    const url = await closed.listen();
    await closed.close();
    const lonely = await startEmulator({
      flows: ALL_FLOWS,
      createdMs: 0,
      stepMs: 0,
      clock,
      webhookUrl: `${url}?key=do-not-log`,
      webhookRetryDelaysMs: [],
    });
    try {
      const sessionId = await createSession(lonely, await tokenFor(lonely, "staging"), "test_accepted_unreachable");
      clock.advance(0);
      const event = await settledWebhook(lonely, sessionId);
      expect(event.attempts).toEqual([
        { target: url, at: expect.any(String), error: expect.stringContaining("ECONNREFUSED") },
      ]);
      expect(JSON.stringify(event)).not.toContain("do-not-log");
    } finally {
      await lonely.close();
    }
  });
});

test("docs/emulator.md's scenario table lists every scenario", () => {
  const page = readFileSync(path.join(__dirname, "..", "..", "docs", "emulator.md"), "utf8");
  const section = page.slice(page.indexOf("### Scenarios"), page.indexOf("###", page.indexOf("### Scenarios") + 5));
  for (const scenario of SCENARIOS) expect(section).toContain(`| \`${scenario.prefix}…\``);
});
