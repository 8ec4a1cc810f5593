/**
 * createWebhookHandler over real HTTP (see support/webhook-testbed.ts): what
 * a backend must be able to trust. Signatures, duplicates, the outcome read
 * from the API and never from the delivery's body, and failures after the
 * answer that never crash and always reach onError.
 */
import { expect } from "@jest/globals";
import { createHmac, randomBytes } from "node:crypto";
import {
  createWebhookHandler,
  NotFoundError,
  TimeoutError,
  WebhookError,
  type WebhookHandlerOptions,
} from "../../runtime/index.js";
import { deliver, eventBody, SECRET, signed, useWebhookTestbed, WRONG_SECRET } from "./support/webhook-testbed.js";

const { sessions, receiver, endedSession } = useWebhookTestbed();

describe("a signed delivery", () => {
  test("is answered 204 and handled once, with the session and data blocks read from the API", async () => {
    const sessionId = await endedSession("ACCEPTED", "cust-7");
    const hook = await receiver();
    const body = eventBody(sessionId);
    const headers = signed(body);
    const answer = await deliver(hook.url, body, headers);
    await hook.handler.drain();
    expect(answer.status).toBe(204);
    expect(hook.errors).toEqual([]);
    expect(hook.handled).toHaveLength(1);
    const [ended] = hook.handled;
    expect(ended).toMatchObject({ sessionId, webhookId: headers["webhook-id"], decision: "ACCEPTED" });
    expect(ended!.session).toMatchObject({ sessionStatus: "COMPLETED", metadata: { subjectId: "cust-7" } });
    expect(ended!.dataBlocks).toMatchObject({ dataBlocks: { UserReference: { subjectId: "cust-7" } } });
  });

  test("the API, not the body, decides: a delivery claiming ACCEPTED for a REJECTED session calls back with REJECTED", async () => {
    const sessionId = await endedSession("REJECTED");
    const hook = await receiver();
    const body = eventBody(sessionId, "ACCEPTED");
    expect((await deliver(hook.url, body, signed(body))).status).toBe(204);
    await hook.handler.drain();
    expect(hook.handled.map((ended) => ended.decision)).toEqual(["REJECTED"]);
  });

  test("is answered before the API is read or the callback runs", async () => {
    const sessionId = await endedSession("ACCEPTED");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    const hook = await receiver({
      onSessionEnded: async (ended) => {
        started.push(ended.sessionId);
        await gate;
      },
    });
    const body = eventBody(sessionId);
    expect((await deliver(hook.url, body, signed(body))).status).toBe(204);
    release();
    await hook.handler.drain();
    expect(started).toEqual([sessionId]);
  });

  test("a session the API does not show ended yet is waited for, within outcomeTimeoutMs", async () => {
    const sessionId = await sessions().create();
    const hook = await receiver({ outcomeTimeoutMs: 5_000 });
    const body = eventBody(sessionId);
    expect((await deliver(hook.url, body, signed(body))).status).toBe(204);
    await sessions().end(sessionId, "ACCEPTED");
    await hook.handler.drain();
    expect(hook.handled.map((ended) => ended.decision)).toEqual(["ACCEPTED"]);
  });
});

describe("signature verification", () => {
  const tenMinutesAgo = () => new Date(Date.now() - 10 * 60_000);
  type Make = (body: string) => { body: string; headers: Record<string, string> };
  const made: [string, Make][] = [
    ["a tampered body", (body) => ({ body: body.replace("ACCEPTED", "REJECTED"), headers: signed(body) })],
    ["a wrong secret", (body) => ({ body, headers: signed(body, { secret: WRONG_SECRET }) })],
    ["an old timestamp (a replay)", (body) => ({ body, headers: signed(body, { at: tenMinutesAgo() }) })],
    // Signed at a second of its own and changed to the one before: reading the clock again could land on the signed second.
    [
      "a timestamp header changed after signing",
      (body) => {
        const at = new Date();
        return {
          body,
          headers: { ...signed(body, { at }), "webhook-timestamp": String(Math.floor(at.getTime() / 1000) - 1) },
        };
      },
    ],
    [
      "a webhook-id changed after signing",
      (body) => ({ body, headers: { ...signed(body), "webhook-id": "msg_other" } }),
    ],
    ["no signature header", (body) => ({ body, headers: without(signed(body), "webhook-signature") })],
    ["no timestamp header", (body) => ({ body, headers: without(signed(body), "webhook-timestamp") })],
    ["no id header", (body) => ({ body, headers: without(signed(body), "webhook-id") })],
    // Issue 20: HMAC with an empty key is what a one-zero-byte secret (whsec_AA==) computes; no secret the handler takes is that key.
    ["a signature made with an empty HMAC key", (body) => ({ body, headers: signedWithKey(body, Buffer.alloc(0)) })],
    [
      "a signature made with 32 zero bytes (the empty key to HMAC)",
      (body) => ({ body, headers: signedWithKey(body, Buffer.alloc(32)) }),
    ],
  ];
  const cases = made.map(([name, make]): [string, Make, string] => [name, make, codeFor(name)]);

  test.each(cases)("%s: 401, never handled", async (_name, make, code) => {
    const sessionId = await endedSession("ACCEPTED");
    const hook = await receiver();
    const { body, headers } = make(eventBody(sessionId));
    const answer = await deliver(hook.url, body, headers);
    await hook.handler.drain();
    expect([answer.status, answer.json.code]).toEqual([401, code]);
    expect(hook.handled).toEqual([]);
    expect(hook.errors).toHaveLength(1);
    expect(hook.errors[0]!.error).toBeInstanceOf(WebhookError);
    expect(hook.errors[0]!.delivery.status).toBe(401);
    expect(JSON.stringify(answer.json) + String(hook.errors[0]!.error)).not.toContain(SECRET.slice(6));
  });

  test("during a rotation, a delivery signed with either secret passes", async () => {
    const hook = await receiver({ secret: [WRONG_SECRET, SECRET] });
    const sessionId = await endedSession("ACCEPTED");
    const body = eventBody(sessionId);
    expect((await deliver(hook.url, body, signed(body))).status).toBe(204);
    await hook.handler.drain();
    expect(hook.handled).toHaveLength(1);
  });

  test("a secret that is not whsec_ base64 is refused when the handler is made, without quoting it", () => {
    expect(() =>
      createWebhookHandler({ client: sessions().client, onSessionEnded: () => undefined, secret: "whsec_not base64!" }),
    ).toThrow(
      expect.objectContaining({ code: "INVALID_OPTIONS", message: expect.not.stringContaining("not base64!") }),
    );
  });
});

/** Signed as Standard Webhooks does, with any key, the empty one included (the library refuses to make one). */
function signedWithKey(body: string, key: Buffer): Record<string, string> {
  const id = `msg_${randomBytes(8).toString("hex")}`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const mac = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": timestamp,
    "webhook-signature": `v1,${mac}`,
  };
}

describe("a handler needs a secret, or allowUnsigned: true by name", () => {
  const refused: [string, Record<string, unknown>, RegExp][] = [
    [
      "no secret",
      {},
      /^createWebhookHandler: secret is missing \(undefined\), so deliveries could not be authenticated/,
    ],
    [
      "secret: undefined (an environment variable that is not set)",
      { secret: undefined },
      /secret is missing \(undefined\).+check it at start.+allowUnsigned: true/,
    ],
    ["allowUnsigned: false and no secret", { allowUnsigned: false }, /secret is missing/],
    [
      "a secret and allowUnsigned: true",
      { secret: SECRET, allowUnsigned: true },
      /give a secret or allowUnsigned: true, not both/,
    ],
    ['allowUnsigned: "yes"', { allowUnsigned: "yes" }, /allowUnsigned must be true or left out/],
    ["a number as the secret", { secret: 42 }, /secret must be a string, or an array of strings/],
  ];
  test.each(refused)("%s: a ConfigurationError when the handler is made", (_name, given, why) => {
    const options = {
      client: sessions().client,
      onSessionEnded: () => undefined,
      ...given,
    } as unknown as WebhookHandlerOptions;
    expect(() => createWebhookHandler(options)).toThrow(
      expect.objectContaining({
        name: "ConfigurationError",
        code: "INVALID_OPTIONS",
        message: expect.stringMatching(why),
      }),
    );
  });

  test("allowUnsigned: true takes an unsigned delivery", async () => {
    const hook = await receiver({ allowUnsigned: true });
    const sessionId = await endedSession("ACCEPTED");
    const body = eventBody(sessionId);
    expect(
      (await deliver(hook.url, body, { "content-type": "application/json", "webhook-id": "msg_unsigned" })).status,
    ).toBe(204);
    await hook.handler.drain();
    expect(hook.handled.map((ended) => [ended.sessionId, ended.webhookId])).toEqual([[sessionId, "msg_unsigned"]]);
  });

  test("with a secret, an unsigned delivery that reuses a real webhook-id first is refused, and the real one is handled", async () => {
    const hook = await receiver();
    const sessionId = await endedSession("ACCEPTED");
    const body = eventBody(sessionId);
    const forged = await deliver(hook.url, body, { "content-type": "application/json", "webhook-id": "msg_real" });
    expect([forged.status, forged.json.code]).toEqual([401, "WEBHOOK_SIGNATURE_MISSING"]);
    expect((await deliver(hook.url, body, signed(body, { id: "msg_real" }))).status).toBe(204);
    await hook.handler.drain();
    expect(hook.handled.map((ended) => ended.webhookId)).toEqual(["msg_real"]);
  });
});

describe("webhook secrets: at least 32 bytes of HMAC key, as createRedirectState asks, of which HMAC uses at least 24", () => {
  const whsec = (bytes: Buffer) => `whsec_${bytes.toString("base64")}`;
  const refused: [string, string, RegExp][] = [
    ["one zero byte (whsec_AA==, the empty key to HMAC)", "whsec_AA==", /decodes to 1 byte\(s\), of which HMAC uses 0/],
    ["31 random bytes", whsec(randomBytes(31)), /decodes to 31 byte\(s\)\./],
    [
      "32 zero bytes",
      whsec(Buffer.alloc(32)),
      /decodes to 32 byte\(s\), of which HMAC uses 0 \(zero bytes at the end of a key change nothing\)/,
    ],
    [
      "16 random bytes, then 16 zero bytes",
      whsec(Buffer.concat([randomBytes(16).fill(7, 15), Buffer.alloc(16)])),
      /of which HMAC uses 16/,
    ],
    ["the base64 of 32 bytes without whsec_", randomBytes(32).toString("base64"), /must be a Standard Webhooks secret/],
    ["not base64", "whsec_not base64!", /this one is not base64/],
    ["empty", "", /must be a Standard Webhooks secret/],
  ];
  test.each(refused)(
    "%s: refused when the handler is made, saying how to make one, never quoting it",
    (_name, secret, why) => {
      for (const given of [secret, [SECRET, secret]]) {
        let error: unknown;
        try {
          createWebhookHandler({ client: sessions().client, onSessionEnded: () => undefined, secret: given });
        } catch (e) {
          error = e;
        }
        expect(error).toMatchObject({ name: "ConfigurationError", code: "INVALID_OPTIONS" });
        const message = (error as Error).message;
        expect(message).toMatch(why);
        expect(message).toMatch(
          /^createWebhookHandler: secret(\[1\])? must be a Standard Webhooks secret, "whsec_" followed by the base64 of at least 32 random bytes/,
        );
        expect(message).toContain("randomBytes(32)");
        expect(message).toContain("openssl rand -base64 32");
        if (secret.length > "whsec_".length) expect(message).not.toContain(secret.slice("whsec_".length));
      }
    },
  );

  test("32 random bytes that end in a zero byte (one key in 256 from openssl rand) pass", () => {
    const endsInZero = whsec(Buffer.concat([randomBytes(31).fill(1, 30), Buffer.alloc(1)]));
    expect(() =>
      createWebhookHandler({ client: sessions().client, onSessionEnded: () => undefined, secret: endsInZero }),
    ).not.toThrow();
  });

  test("32 random bytes pass, and so do 32 bytes ending in zeros past the 32nd", async () => {
    const padded = whsec(Buffer.concat([randomBytes(32).fill(1, 31), Buffer.alloc(8)]));
    const hook = await receiver({ secret: padded });
    const sessionId = await endedSession("ACCEPTED");
    const body = eventBody(sessionId);
    expect((await deliver(hook.url, body, signed(body, { secret: padded }))).status).toBe(204);
    await hook.handler.drain();
    expect(hook.handled).toHaveLength(1);
  });
});

function without(headers: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name));
}

function codeFor(name: string): string {
  if (name.startsWith("no ")) return "WEBHOOK_SIGNATURE_MISSING";
  if (name.includes("old timestamp")) return "WEBHOOK_TIMESTAMP_INVALID";
  return "WEBHOOK_SIGNATURE_INVALID";
}

describe("duplicates", () => {
  test("a delivery retried with the same webhook-id is acknowledged every time and handled once", async () => {
    const sessionId = await endedSession("ACCEPTED");
    const hook = await receiver();
    const body = eventBody(sessionId);
    // A retry is signed anew (new timestamp), with the same id; two arrive at once.
    const statuses = await Promise.all(
      [1, 2, 3].map(() => deliver(hook.url, body, signed(body, { id: "msg_retry" })).then((a) => a.status)),
    );
    statuses.push((await deliver(hook.url, body, signed(body, { id: "msg_retry" }))).status);
    await hook.handler.drain();
    expect(statuses).toEqual([204, 204, 204, 204]);
    expect(hook.handled).toHaveLength(1);
    expect(hook.errors).toEqual([]);
  });

  test("the memory of ids is bounded: an id is forgotten after dedupe.ttlMs, or when maxEntries newer ones came", async () => {
    let now = 0;
    const sessionId = await endedSession("ACCEPTED");
    const hook = await receiver({ dedupe: { maxEntries: 2, ttlMs: 1_000 }, now: () => now });
    const body = eventBody(sessionId);
    const send = async (id: string) => (await deliver(hook.url, body, signed(body, { id }))).status;
    await send("a");
    await send("a"); // duplicate
    now = 1_000;
    await send("a"); // expired: handled again
    await send("b");
    await send("c"); // evicts a
    await send("a"); // handled again
    await send("c"); // still remembered
    await hook.handler.drain();
    expect(hook.handled.map((ended) => ended.webhookId)).toEqual(["a", "a", "b", "c", "a"]);
  });
});

describe("when the API read or the callback fails", () => {
  test("an unknown session: the delivery was accepted (204), onError gets the API's NotFoundError", async () => {
    const hook = await receiver();
    const body = eventBody("no-such-session");
    expect((await deliver(hook.url, body, signed(body, { id: "msg_lost" }))).status).toBe(204);
    await hook.handler.drain();
    expect(hook.handled).toEqual([]);
    expect(hook.errors).toHaveLength(1);
    expect(hook.errors[0]!.error).toBeInstanceOf(NotFoundError);
    expect(hook.errors[0]!.delivery).toEqual({ webhookId: "msg_lost", sessionId: "no-such-session", status: 204 });
  });

  test("a session that never ends within outcomeTimeoutMs: onError gets a TimeoutError", async () => {
    const sessionId = await sessions().create();
    const hook = await receiver({ outcomeTimeoutMs: 60, outcomePollIntervalMs: 20 });
    const body = eventBody(sessionId);
    expect((await deliver(hook.url, body, signed(body))).status).toBe(204);
    await hook.handler.drain();
    expect(hook.errors.map(({ error }) => error)).toEqual([expect.any(TimeoutError)]);
  });

  test("a callback that throws, then an onError that throws: no crash, no unhandled rejection, one line on console.error", async () => {
    const sessionId = await endedSession("ACCEPTED");
    const logged = jest.spyOn(console, "error").mockImplementation(() => undefined);
    const unhandled = jest.fn();
    process.on("unhandledRejection", unhandled);
    try {
      const hook = await receiver({
        onSessionEnded: () => Promise.reject(new Error("database down")),
        onError: () => {
          throw new Error("alerting down too");
        },
      });
      const body = eventBody(sessionId);
      expect((await deliver(hook.url, body, signed(body))).status).toBe(204);
      await hook.handler.drain();
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
      expect(logged).toHaveBeenCalledTimes(1);
      expect(String(logged.mock.calls[0]![0])).toMatch(/onError threw: Error: alerting down too/);
    } finally {
      process.off("unhandledRejection", unhandled);
      logged.mockRestore();
    }
  });

  test("without onError, a failure is one line on console.error naming the delivery, never the secret", async () => {
    const logged = jest.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const hook = await receiver({ onError: undefined });
      const body = eventBody("s-1");
      await deliver(hook.url, body, signed(body, { id: "msg_x", secret: WRONG_SECRET }));
      await hook.handler.drain();
      expect(logged).toHaveBeenCalledTimes(1);
      const line = String(logged.mock.calls[0]![0]);
      expect(line).toMatch(/webhook-id msg_x, answered 401\): not handled: WebhookError WEBHOOK_SIGNATURE_INVALID/);
      expect(line).not.toContain(SECRET.slice(6));
      expect(line).not.toContain(WRONG_SECRET.slice(6));
    } finally {
      logged.mockRestore();
    }
  });

  test("past maxInFlight deliveries under way: 503 WEBHOOK_BUSY, and the retry is handled later", async () => {
    const [first, second] = [await endedSession("ACCEPTED"), await endedSession("ACCEPTED")];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const hook = await receiver({
      maxInFlight: 1,
      onSessionEnded: async (ended) => void (await gate, hook.handled.push(ended)),
    });
    const [a, b] = [eventBody(first), eventBody(second)];
    expect((await deliver(hook.url, a, signed(a))).status).toBe(204);
    const busy = await deliver(hook.url, b, signed(b, { id: "msg_b" }));
    expect([busy.status, busy.json.code]).toEqual([503, "WEBHOOK_BUSY"]);
    release();
    await hook.handler.drain();
    expect((await deliver(hook.url, b, signed(b, { id: "msg_b" }))).status).toBe(204);
    await hook.handler.drain();
    expect(hook.handled.map((ended) => ended.sessionId)).toEqual([first, second]);
  });
});
