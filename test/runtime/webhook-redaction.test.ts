/**
 * The webhook secret is scrubbed as the client's secrets are (issue 31):
 * whatever error a handler reports (a callback that fails, a queue that
 * cannot store a delivery, each echoing a piece of the secret in some
 * encoding), onError receives it through the client's Redactor, which knows
 * the handler's secrets. Deliveries are real, signed, over loopback,
 * against the emulator (support/webhook-testbed.ts).
 */
import { expect } from "@jest/globals";
import { WebhookError } from "../../runtime/index.js";
import { ENCODINGS, everyWayShown, leaksIn } from "./support/secret-echoes.js";
import { deliver, eventBody, SECRET, signed, useWebhookTestbed } from "./support/webhook-testbed.js";

const { receiver, endedSession } = useWebhookTestbed();

/** 16 characters from the middle of the secret, past its `whsec_`. */
const PIECE = SECRET.slice(12, 28);

test.each(ENCODINGS)(
  "a callback's error echoing a piece of the secret, %s: onError gets it scrubbed",
  async (_name, encode) => {
    const sessionId = await endedSession("ACCEPTED");
    const hook = await receiver({
      onSessionEnded: () => {
        throw new Error(`could not store the event (signing key ${encode(PIECE)} rejected)`, {
          cause: new Error(`key ${encode(PIECE)}`),
        });
      },
    });
    const body = eventBody(sessionId);
    expect((await deliver(hook.url, body, signed(body))).status).toBe(204);
    await hook.handler.drain();
    expect(hook.errors).toHaveLength(1);
    const [{ error, delivery }] = hook.errors as [{ error: Error; delivery: unknown }];
    expect(delivery).toMatchObject({ sessionId, status: 204 });
    expect(error.message).toMatch(/^could not store the event \(signing key .*\[redacted\].* rejected\)$/);
    expect(leaksIn(everyWayShown(error), SECRET)).toEqual([]);
  },
);

test("a queue that cannot store a delivery and says why with the secret: the 503's error and its cause scrubbed", async () => {
  const sessionId = await endedSession("ACCEPTED");
  const hook = await receiver({
    onSessionEnded: undefined,
    queue: {
      enqueue: () =>
        Promise.reject(new Error(`store refused: configured with ${SECRET} and ${Buffer.from(PIECE).toString("hex")}`)),
    },
  } as never);
  const body = eventBody(sessionId);
  expect((await deliver(hook.url, body, signed(body))).status).toBe(503);
  await hook.handler.drain();
  const [{ error }] = hook.errors as unknown as [{ error: WebhookError }];
  expect(error).toMatchObject({ code: "WEBHOOK_QUEUE_UNAVAILABLE", status: 503 });
  expect((error.cause as Error).message).toBe("store refused: configured with [redacted] and [redacted]");
  expect(leaksIn(everyWayShown(error), SECRET)).toEqual([]);
});
