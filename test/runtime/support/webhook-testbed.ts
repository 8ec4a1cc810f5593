/**
 * The webhook handler's test bed: the emulator as the API, node:http servers
 * on loopback running handlers, and deliveries signed with standardwebhooks'
 * own Webhook#sign. `useWebhookTestbed()` registers its jest hooks.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { request } from "undici";
import {
  createWebhookHandler,
  type SessionEnded,
  type WebhookDelivery,
  type WebhookHandler,
  type WebhookHandlerOptions,
} from "../../../runtime/index.js";
import type { AnswerBody } from "../../support/answer-body.js";
import { startEmulatedSessions, type EmulatedSessions } from "./emulated-sessions.js";

export const SECRET = `whsec_${randomBytes(32).toString("base64")}`;
export const WRONG_SECRET = `whsec_${randomBytes(32).toString("base64")}`;

interface Receiver {
  readonly url: string;
  readonly handler: WebhookHandler;
  readonly handled: SessionEnded[];
  readonly errors: { error: unknown; delivery: WebhookDelivery }[];
}

/** A handler's options, each defaulted by the testbed; a secret or allowUnsigned, as the handler takes them. */
type ReceiverOptions = Omit<Partial<WebhookHandlerOptions>, "secret" | "allowUnsigned"> &
  (
    | { readonly secret?: string | readonly string[]; readonly allowUnsigned?: false }
    | { readonly secret?: undefined; readonly allowUnsigned: true }
  );

/** A request as a framework leaves it after reading the body. */
export type FrameworkRequest = IncomingMessage & { body?: unknown; rawBody?: unknown };

export interface WebhookTestbed {
  // Properties, not methods: tests take them out of the testbed (`const { receiver } = ...`).
  /** The emulated API (after beforeAll). */
  readonly sessions: () => EmulatedSessions;
  /**
   * A node:http server running a handler on the emulator's client, with SECRET unless `allowUnsigned`;
   * `before` stands for a framework that reads the body first.
   */
  readonly receiver: (
    options?: ReceiverOptions,
    before?: (req: FrameworkRequest) => Promise<void>,
  ) => Promise<Receiver>;
  /** A session ended through the API with this decision. */
  readonly endedSession: (decision: "ACCEPTED" | "REJECTED", subjectId?: string) => Promise<string>;
}

export function useWebhookTestbed(): WebhookTestbed {
  let sessions: EmulatedSessions;
  const servers: Server[] = [];
  beforeAll(async () => {
    sessions = await startEmulatedSessions();
  });
  afterAll(async () => {
    await sessions.close();
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const receiver: WebhookTestbed["receiver"] = async (options = {}, before) => {
    const handled: SessionEnded[] = [];
    const errors: Receiver["errors"] = [];
    const { secret, allowUnsigned, ...rest } = options;
    const handler = createWebhookHandler({
      client: sessions.client,
      onSessionEnded: (ended) => void handled.push(ended),
      onError: (error, delivery) => void errors.push({ error, delivery }),
      outcomePollIntervalMs: 10,
      ...rest,
      ...(allowUnsigned === true ? { allowUnsigned } : { secret: secret ?? SECRET }),
    });
    const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      await before?.(req);
      await handler(req, res);
    };
    const server = createServer((req, res) => void serve(req, res));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, handler, handled, errors };
  };

  return {
    sessions: () => sessions,
    receiver,
    endedSession: async (decision, subjectId = "cust-42") => {
      const sessionId = await sessions.create(subjectId);
      await sessions.end(sessionId, decision);
      return sessionId;
    },
  };
}

export const eventBody = (sessionId: string, decision = "ACCEPTED", extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    type: "session.ended",
    timestamp: new Date().toISOString(),
    data: { sessionId, flowId: "a41f0c6d-aml", environment: "staging", decision, ...extra },
  });

/** Standard Webhooks headers for `body`, signed now (or `at`) with SECRET (or `secret`). */
export function signed(
  body: string,
  options: { id?: string; secret?: string; at?: Date } = {},
): Record<string, string> {
  const id = options.id ?? `msg_${randomBytes(8).toString("hex")}`;
  const at = options.at ?? new Date();
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(options.secret ?? SECRET).sign(id, at, body),
  };
}

export async function deliver(url: string, body: string | Buffer, headers: Record<string, string>, method = "POST") {
  const response = await request(url, { method: method as "POST", headers, body: method === "GET" ? undefined : body });
  const text = await response.body.text();
  // The handler answers JSON or nothing: a body that is not JSON throws here and fails the test.
  return {
    status: response.statusCode,
    json: (text ? JSON.parse(text) : undefined) as AnswerBody,
    headers: response.headers,
  };
}
