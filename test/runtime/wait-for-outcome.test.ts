/**
 * waitForOutcome against the emulator: it resolves once GET session carries
 * an outcome, gives up with a TimeoutError at its deadline, and yields to the
 * caller's signal. Time is virtual where the test needs it to pass.
 */
import {
  AbortError,
  createClient,
  decisionOf,
  NotFoundError,
  TimeoutError,
  type Client,
  type Clock,
} from "../../runtime/index.js";
import { startEmulatedSessions, type EmulatedSessions } from "./support/emulated-sessions.js";

let sessions: EmulatedSessions;

beforeAll(async () => {
  sessions = await startEmulatedSessions();
});
afterAll(async () => {
  await sessions.close();
});

/** Virtual time: sleep advances it at once (after `onSleep`); the runtime itself stops waiting when the signal fires. */
function virtualClock(onSleep: (ms: number) => Promise<void> | void = () => undefined) {
  let now = 1_000_000;
  const sleeps: number[] = [];
  const clock: Clock = {
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      await onSleep(ms);
      now += ms;
    },
  };
  return { clock, sleeps };
}

const clients: Client<"staging">[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A client of the emulated sessions that runs on `clock`. */
function clientOn(clock: Clock): Client<"staging"> {
  const client = createClient<"staging">({
    baseUrl: sessions.emulator.baseUrl,
    authUrl: sessions.emulator.authUrl,
    environment: "staging",
    ...sessions.emulator.clients.staging,
    userAgent: "flowsmith-tests/1.0",
    clock,
  });
  clients.push(client);
  return client;
}

test("resolves with the session once it has an outcome, polling until then", async () => {
  const sessionId = await sessions.create();
  // The session ends while the first wait is under way.
  const { clock, sleeps } = virtualClock(() => sessions.end(sessionId, "REJECTED"));
  const session = await clientOn(clock).waitForOutcome(sessionId, { intervalMs: 2_500, timeoutMs: 60_000 });
  expect(sleeps).toEqual([2_500]);
  expect(session.sessionStatus).toBe("COMPLETED");
  expect(decisionOf(session)).toBe("REJECTED");
  expect(session.metadata.subjectId).toBe("cust-42");
});

test("an ended session resolves at the first read, through the client", async () => {
  const sessionId = await sessions.create();
  await sessions.end(sessionId, "ACCEPTED");
  const session = await sessions.client.waitForOutcome(sessionId, { intervalMs: 60_000 });
  expect(decisionOf(session)).toBe("ACCEPTED");
});

test("gives up with a TimeoutError at its deadline", async () => {
  const sessionId = await sessions.create();
  const { clock, sleeps } = virtualClock();
  const error = await clientOn(clock)
    .waitForOutcome(sessionId, { intervalMs: 2_500, timeoutMs: 9_000 })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TimeoutError);
  expect(error).toMatchObject({
    code: "TIMEOUT",
    method: "GET",
    timeoutMs: 9_000,
    path: `/api/v1/staging/sessions/${sessionId}`,
  });
  // The wait ran out, not the request: the message says so, and what to change.
  expect((error as Error).message).toBe(
    `gave up after 9000 ms waiting for the session's outcome (polling GET /api/v1/staging/sessions/${sessionId}); pass a larger timeoutMs to wait longer`,
  );
  // Polls at 0, 2500, 5000, 7500; the last wait is cut to the deadline.
  expect(sleeps).toEqual([2_500, 2_500, 2_500, 1_500]);
});

test("the caller's signal ends the wait with an AbortError", async () => {
  const sessionId = await sessions.create();
  const controller = new AbortController();
  // The signal fires once the client is waiting between polls.
  const { clock } = virtualClock(() => {
    controller.abort(new Error("shutting down"));
  });
  const waiting = clientOn(clock).waitForOutcome(sessionId, {
    intervalMs: 60_000,
    timeoutMs: 600_000,
    signal: controller.signal,
  });
  const error = await waiting.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AbortError);
  expect((error as AbortError).code).toBe("ABORTED");
});

test("an unknown session is the API's NotFoundError, not a wait", async () => {
  const { clock, sleeps } = virtualClock();
  const error = await clientOn(clock)
    .waitForOutcome("no-such-session")
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(NotFoundError);
  expect(sleeps).toEqual([]);
});
