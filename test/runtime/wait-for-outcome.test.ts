/**
 * waitForOutcome against the emulator: it resolves once GET session carries
 * an outcome, gives up with a TimeoutError at its deadline, and yields to the
 * caller's signal. Time is virtual where the test needs it to pass.
 */
import { sleep as realSleep, type Operation } from "../../runtime/abort.js";
import { clientContextOrThrow } from "../../runtime/client-context.js";
import { AbortError, decisionOf, NotFoundError, TimeoutError } from "../../runtime/index.js";
import { waitForOutcome, type PollClock } from "../../runtime/session-calls.js";
import { startEmulatedSessions, type EmulatedSessions } from "./support/emulated-sessions.js";

let sessions: EmulatedSessions;

beforeAll(async () => {
  sessions = await startEmulatedSessions();
});
afterAll(async () => {
  await sessions.close();
});

/** Virtual time: sleep advances it at once (after `onSleep`), still honouring the signal. */
function virtualClock(onSleep: (ms: number) => Promise<void> | void = () => undefined) {
  let now = 1_000_000;
  const sleeps: number[] = [];
  const clock: PollClock = {
    now: () => now,
    sleep: async (ms: number, signal: AbortSignal | undefined, operation: Operation) => {
      sleeps.push(ms);
      await onSleep(ms);
      now += ms;
      await realSleep(0, signal, operation);
    },
  };
  return { clock, sleeps };
}

test("resolves with the session once it has an outcome, polling until then", async () => {
  const sessionId = await sessions.create();
  const ctx = clientContextOrThrow(sessions.client);
  // The session ends while the first wait is under way.
  const { clock, sleeps } = virtualClock(() => sessions.end(sessionId, "REJECTED"));
  const session = await waitForOutcome(ctx, sessionId, { intervalMs: 2_500, timeoutMs: 60_000 }, clock);
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
  const ctx = clientContextOrThrow(sessions.client);
  const { clock, sleeps } = virtualClock();
  const error = await waitForOutcome(ctx, sessionId, { intervalMs: 2_500, timeoutMs: 9_000 }, clock).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TimeoutError);
  expect(error).toMatchObject({ code: "TIMEOUT", method: "GET", timeoutMs: 9_000, path: `/api/v1/staging/sessions/${sessionId}` });
  // Polls at 0, 2500, 5000, 7500; the last wait is cut to the deadline.
  expect(sleeps).toEqual([2_500, 2_500, 2_500, 1_500]);
});

test("the caller's signal ends the wait with an AbortError", async () => {
  const sessionId = await sessions.create();
  const controller = new AbortController();
  const waiting = sessions.client.waitForOutcome(sessionId, { intervalMs: 60_000, timeoutMs: 600_000, signal: controller.signal });
  setTimeout(() => controller.abort(new Error("shutting down")), 20);
  const error = await waiting.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AbortError);
  expect((error as AbortError).code).toBe("ABORTED");
});

test("an unknown session is the API's NotFoundError, not a wait", async () => {
  const { clock, sleeps } = virtualClock();
  const error = await waitForOutcome(clientContextOrThrow(sessions.client), "no-such-session", {}, clock).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(NotFoundError);
  expect(sleeps).toEqual([]);
});
