/**
 * createWebhookHandler's body handling over real HTTP (see
 * support/webhook-testbed.ts): the size limit, invalid payloads, and bodies a
 * framework already read (Express, Fastify); and its options.
 */
import { expect } from "@jest/globals";
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { request } from "undici";
import { createWebhookHandler, type WebhookHandlerOptions } from "../../runtime/index.js";
import {
  deliver,
  eventBody,
  SECRET,
  signed,
  useWebhookTestbed,
  type FrameworkRequest,
} from "./support/webhook-testbed.js";

const { sessions, receiver, endedSession } = useWebhookTestbed();

describe("the body", () => {
  test("over maxBodyBytes: 413, nothing handled", async () => {
    const sessionId = await endedSession("ACCEPTED");
    const hook = await receiver({ maxBodyBytes: 1_024 });
    const body = eventBody(sessionId, "ACCEPTED", { padding: "x".repeat(2_000) });
    const answer = await deliver(hook.url, body, signed(body));
    await hook.handler.drain();
    expect([answer.status, answer.json.code]).toEqual([413, "WEBHOOK_BODY_TOO_LARGE"]);
    expect(hook.handled).toEqual([]);
    expect(hook.errors.map(({ delivery }) => delivery.status)).toEqual([413]);
  });

  test("a body far over the limit still gets its 413, not a reset, and the connection is closed", async () => {
    const hook = await receiver({ maxBodyBytes: 1_024 });
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        deliver(hook.url, Buffer.alloc(4 * 1024 * 1024, 0x20), { "content-type": "application/json" }),
      ),
    );
    expect(answers.map((answer) => [answer.status, answer.json.code])).toEqual(
      Array(3).fill([413, "WEBHOOK_BODY_TOO_LARGE"]),
    );
    expect(answers[0]!.headers.connection).toBe("close");
  });

  test("over maxBodyBytes without a Content-Length (chunked): 413 too", async () => {
    const hook = await receiver({ maxBodyBytes: 1_024 });
    const chunks = Array.from({ length: 4 }, () => Buffer.alloc(512, 0x20));
    const response = await request(hook.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: Readable.from(chunks),
    });
    await response.body.dump();
    await hook.handler.drain();
    expect(response.statusCode).toBe(413);
    expect(hook.handled).toEqual([]);
  });

  test.each<[string, string, number, string]>([
    ["not JSON", "{not json", 400, "INVALID_WEBHOOK_PAYLOAD"],
    [
      "a session.ended without data.sessionId",
      JSON.stringify({ type: "session.ended", timestamp: new Date().toISOString(), data: {} }),
      400,
      "INVALID_WEBHOOK_PAYLOAD",
    ],
    [
      "an event of the other environment",
      eventBody("s-1", "ACCEPTED", { environment: "live" }),
      400,
      "WEBHOOK_ENVIRONMENT_MISMATCH",
    ],
  ])("%s: refused, not handled", async (_name, body, status, code) => {
    const hook = await receiver();
    const answer = await deliver(hook.url, body, signed(body));
    await hook.handler.drain();
    expect([answer.status, answer.json.code]).toEqual([status, code]);
    expect(hook.handled).toEqual([]);
    expect(hook.errors).toHaveLength(1);
  });

  test("an event of another type is acknowledged and ignored", async () => {
    const hook = await receiver();
    const body = JSON.stringify({ type: "session.created", timestamp: new Date().toISOString(), data: {} });
    expect((await deliver(hook.url, body, signed(body))).status).toBe(204);
    await hook.handler.drain();
    expect([hook.handled, hook.errors]).toEqual([[], []]);
  });

  test("a GET is 405 with Allow: POST", async () => {
    const hook = await receiver();
    const answer = await deliver(hook.url, "", {}, "GET");
    expect([answer.status, answer.headers.allow, answer.json.code]).toEqual([
      405,
      "POST",
      "WEBHOOK_METHOD_NOT_ALLOWED",
    ]);
  });
});

describe("behind a framework that read the body first", () => {
  const readAll = async (req: IncomingMessage): Promise<Buffer> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };

  test.each<[string, (req: FrameworkRequest, bytes: Buffer) => void]>([
    ["req.body as a Buffer (express.raw)", (req, bytes) => void (req.body = bytes)],
    ["req.body as a string (express.text)", (req, bytes) => void (req.body = bytes.toString("utf8"))],
    ["req.rawBody (Fastify buffer parser, raw-body plugins)", (req, bytes) => void (req.rawBody = bytes)],
  ])("%s: verified and handled", async (_name, keep) => {
    const sessionId = await endedSession("REJECTED");
    const hook = await receiver({}, async (req) => {
      keep(req, await readAll(req));
    });
    const body = eventBody(sessionId);
    expect((await deliver(hook.url, body, signed(body))).status).toBe(204);
    await hook.handler.drain();
    expect(hook.handled.map((ended) => ended.decision)).toEqual(["REJECTED"]);
  });

  test("a body already parsed to JSON (express.json): 500 with a secret, since the signed bytes are gone", async () => {
    const hook = await receiver({}, async (req) => void (req.body = JSON.parse((await readAll(req)).toString())));
    const body = eventBody("s-1");
    const answer = await deliver(hook.url, body, signed(body));
    await hook.handler.drain();
    expect([answer.status, answer.json.code]).toEqual([500, "WEBHOOK_BODY_ALREADY_PARSED"]);
    expect(answer.json.message).toContain("express.raw");
    expect(hook.handled).toEqual([]);
  });

  test("a body already parsed to JSON is used with allowUnsigned: true", async () => {
    const sessionId = await endedSession("ACCEPTED");
    const hook = await receiver(
      { allowUnsigned: true },
      async (req) => void (req.body = JSON.parse((await readAll(req)).toString())),
    );
    const body = eventBody(sessionId);
    expect((await deliver(hook.url, body, { "content-type": "application/json" })).status).toBe(204);
    await hook.handler.drain();
    expect(hook.handled.map((ended) => ended.decision)).toEqual(["ACCEPTED"]);
  });

  test("a stream consumed with nothing kept: 500 WEBHOOK_BODY_UNAVAILABLE", async () => {
    const hook = await receiver({}, async (req) => {
      await readAll(req);
    });
    const body = eventBody("s-1");
    const answer = await deliver(hook.url, body, signed(body));
    expect([answer.status, answer.json.code]).toEqual([500, "WEBHOOK_BODY_UNAVAILABLE"]);
  });
});

describe("options", () => {
  test.each<[string, Partial<WebhookHandlerOptions>]>([
    ["no client", { client: undefined }],
    ["no onSessionEnded", { onSessionEnded: undefined }],
    ["an empty secret", { secret: "" }],
    ["an empty list of secrets", { secret: [] }],
    ["a zero maxBodyBytes", { maxBodyBytes: 0 }],
    ["a fractional maxInFlight", { maxInFlight: 1.5 }],
  ])("%s is a ConfigurationError", (_name, bad) => {
    const options = {
      client: sessions().client,
      secret: SECRET,
      onSessionEnded: () => undefined,
      ...bad,
    } as WebhookHandlerOptions;
    expect(() => createWebhookHandler(options)).toThrow(
      expect.objectContaining({ name: "ConfigurationError", code: "INVALID_OPTIONS" }),
    );
  });
});
