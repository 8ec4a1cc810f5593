/**
 * parseSessionEndedEvent names the first wrong field of a delivery's body;
 * decisionOf reads the decision from a session record; the duplicate memory
 * stays within its bounds.
 */
import { decisionOf, parseSessionEndedEvent, WebhookPayloadError, type SessionRecord } from "../../runtime/index.js";
import { ExpiringSet } from "../../runtime/webhooks/expiring-set.js";

const valid = {
  type: "session.ended",
  timestamp: "2030-01-01T00:00:00.000Z",
  data: { sessionId: "s-1", flowId: "f-1", environment: "staging", decision: "ACCEPTED" },
};
const withData = (data: Record<string, unknown>) => ({ ...valid, data: { ...valid.data, ...data } });

describe("parseSessionEndedEvent", () => {
  test.each<[string, unknown]>([
    ["text", JSON.stringify(valid)],
    ["bytes", Buffer.from(JSON.stringify(valid))],
    ["parsed JSON", valid],
  ])("accepts the event as %s", (_name, body) => {
    expect(parseSessionEndedEvent(body)).toEqual(valid);
  });

  test("keeps fields it does not know (the service may add some)", () => {
    expect(parseSessionEndedEvent({ ...withData({ attempt: 2 }), id: "evt-1" })).toMatchObject({
      id: "evt-1",
      data: { attempt: 2 },
    });
  });

  test.each<[string, unknown, string, RegExp]>([
    ["not JSON", "{", "", /not JSON/],
    ["empty", "", "", /not JSON \(empty\)/],
    ["an array", [], "", /expected an object, got an array/],
    ["another type", { ...valid, type: "session.created" }, "type", /expected "session.ended", got "session.created"/],
    ["no timestamp", { ...valid, timestamp: undefined }, "timestamp", /got nothing/],
    ["a timestamp that is no date", { ...valid, timestamp: "yesterday" }, "timestamp", /ISO 8601/],
    ["no data", { ...valid, data: null }, "data", /got null/],
    ["an empty sessionId", withData({ sessionId: "" }), "data.sessionId", /non-empty string/],
    ["a numeric flowId", withData({ flowId: 7 }), "data.flowId", /got 7/],
    ["an unknown environment", withData({ environment: "prod" }), "data.environment", /"staging", "live", got "prod"/],
    ["an unknown decision", withData({ decision: "MAYBE" }), "data.decision", /"ACCEPTED", "REJECTED", got "MAYBE"/],
  ])("%s: a WebhookPayloadError at its path", (_name, body, path, message) => {
    let error: unknown;
    try {
      parseSessionEndedEvent(body);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WebhookPayloadError);
    expect(error).toMatchObject({ code: "INVALID_WEBHOOK_PAYLOAD", path, status: 400 });
    expect((error as Error).message).toMatch(message);
  });

  test("a long value is cut in the message", () => {
    expect(() => parseSessionEndedEvent(withData({ decision: "X".repeat(5_000) }))).toThrow(/"X{40}…"/);
  });
});

describe("decisionOf", () => {
  const session = (outcome: unknown): SessionRecord => ({
    sessionStatus: "COMPLETED",
    outcome,
    metadata: { subjectId: "s" },
  });
  test.each<[string, unknown, string | undefined]>([
    ["outcome.decision", { decision: "REJECTED", decidedAt: "2030-01-01T00:00:00Z" }, "REJECTED"],
    ["an outcome that is the decision", "ACCEPTED", "ACCEPTED"],
    ["no outcome", undefined, undefined],
    ["an outcome of another shape", { result: "ok" }, undefined],
    ["an unknown decision", { decision: "MAYBE" }, undefined],
  ])("%s", (_name, outcome, want) => {
    expect(decisionOf(session(outcome))).toBe(want);
  });
});

describe("ExpiringSet", () => {
  test("forgets an id after ttlMs and the oldest beyond maxEntries, so it never holds more", () => {
    let now = 0;
    const set = new ExpiringSet(3, 100, () => now);
    for (const id of ["a", "b", "c", "d"]) set.add(id);
    expect([set.has("a"), set.has("b"), set.has("d"), set.size]).toEqual([false, true, true, 3]);
    now = 100;
    expect(set.has("b")).toBe(false);
    set.add("e");
    expect(set.size).toBe(1);
    for (let i = 0; i < 10_000; i++) set.add(`id-${i}`);
    expect(set.size).toBe(3);
  });

  test("adding a known id again renews it", () => {
    let now = 0;
    const set = new ExpiringSet(10, 100, () => now);
    set.add("a");
    now = 90;
    set.add("a");
    now = 150;
    expect(set.has("a")).toBe(true);
  });
});
