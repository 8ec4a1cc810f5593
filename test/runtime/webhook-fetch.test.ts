/**
 * handler.fetch, the webhook handler for Fetch-API servers, under Hono on
 * node (@hono/node-server): the same verification, de-duplication and
 * answers as the node:http handler. (Bun.serve and Deno.serve run it in the
 * consumer test, test/consumer/on-runtimes.js.)
 */
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import {
  createWebhookHandler,
  type SessionEnded,
  type WebhookDelivery,
  type WebhookHandler,
} from "../../runtime/index.js";
import { deliver, eventBody, SECRET, signed, useWebhookTestbed, WRONG_SECRET } from "./support/webhook-testbed.js";

const { sessions, endedSession } = useWebhookTestbed();
let server: ServerType;
let url: string;
let handler: WebhookHandler;
let handled: SessionEnded[];
let errors: { error: unknown; delivery: WebhookDelivery }[];

beforeEach(async () => {
  handled = [];
  errors = [];
  handler = createWebhookHandler({
    client: sessions().client,
    secret: SECRET,
    maxBodyBytes: 4096,
    outcomePollIntervalMs: 10,
    onSessionEnded: (ended) => void handled.push(ended),
    onError: (error, delivery) => void errors.push({ error, delivery }),
  });
  const app = new Hono();
  // As a Hono app mounts it: the raw Request in, the Response out.
  app.all("/webhooks", (c) => handler.fetch(c.req.raw));
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => {
      resolve();
    });
  });
  url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/webhooks`;
});
afterEach(async () => {
  await handler.drain();
  await new Promise((resolve) => server.close(resolve));
});

test("a signed delivery is answered 204 and handled once with what the API says; its retry is acknowledged and not handled again", async () => {
  const sessionId = await endedSession("REJECTED");
  const body = eventBody(sessionId, "ACCEPTED");
  const headers = signed(body);
  expect((await deliver(url, body, headers)).status).toBe(204);
  expect((await deliver(url, body, headers)).status).toBe(204);
  await handler.drain();
  expect(handled).toHaveLength(1);
  expect(handled[0]).toMatchObject({ sessionId, webhookId: headers["webhook-id"], decision: "REJECTED" });
  expect(errors).toEqual([]);
});

test.each([
  ["a wrong signature", (body: string) => signed(body, { secret: WRONG_SECRET }), 401, "WEBHOOK_SIGNATURE_INVALID"],
  ["no signature", () => ({ "content-type": "application/json" }), 401, "WEBHOOK_SIGNATURE_MISSING"],
  [
    "a stale timestamp",
    (body: string) => signed(body, { at: new Date(Date.now() - 3_600_000) }),
    401,
    "WEBHOOK_TIMESTAMP_INVALID",
  ],
])("%s: answered %i with its code, never handled", async (_name, headersFor, status, code) => {
  const body = eventBody("s-unknown");
  const answer = await deliver(url, body, headersFor(body));
  expect(answer.status).toBe(status);
  expect(answer.json).toMatchObject({ code });
  expect(answer.headers["content-type"]).toBe("application/json");
  await handler.drain();
  expect(handled).toEqual([]);
  expect(errors.map(({ delivery }) => delivery.status)).toEqual([status]);
});

test("a body over maxBodyBytes is answered 413", async () => {
  const body = eventBody("s-1", "ACCEPTED", { padding: "x".repeat(5000) });
  const answer = await deliver(url, body, signed(body));
  expect(answer.status).toBe(413);
  expect(answer.json).toMatchObject({ code: "WEBHOOK_BODY_TOO_LARGE" });
});

test("a GET is answered 405 with Allow: POST", async () => {
  const answer = await deliver(url, "", {}, "GET");
  expect(answer.status).toBe(405);
  expect(answer.headers.allow).toBe("POST");
  expect(answer.json).toMatchObject({ code: "WEBHOOK_METHOD_NOT_ALLOWED" });
});

test("a delivery for the other environment is answered 400", async () => {
  const body = eventBody("s-1", "ACCEPTED", { environment: "live" });
  const answer = await deliver(url, body, signed(body));
  expect(answer.status).toBe(400);
  expect(answer.json).toMatchObject({ code: "WEBHOOK_ENVIRONMENT_MISMATCH" });
});

test("handler.fetch is bound: taken out of the handler, it still answers", async () => {
  const { fetch } = handler;
  const response = await fetch(new Request("http://example.test/webhooks", { method: "PUT" }));
  expect(response.status).toBe(405);
  expect(await response.json()).toMatchObject({ code: "WEBHOOK_METHOD_NOT_ALLOWED" });
});
