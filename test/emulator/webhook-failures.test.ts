/**
 * A webhook delivery that fails is told. onWebhookFailure hears every failed
 * attempt (its status or network error, what it means, whether a retry
 * follows); by default the emulator prints it on stderr, a short line per
 * attempt that is retried and one per delivery that failed for good. Real
 * receivers over loopback: the runtime's own webhook handler holding another
 * secret (401), node:http servers answering 401, 404 and 5xx, a port nothing
 * listens on; and the emulator process as users start it, whose stderr says
 * the secrets differ.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "@jest/globals";
import { createClient, createWebhookHandler, type WebhookHandler } from "@flowsmith/runtime";
import { startEmulator, type RunningEmulator, type WebhookFailure } from "../../emulator/index.js";
import { startChildEmulator } from "./child-emulator.js";
import { ALL_FLOWS, AML_ID, bearer, call, tokenFor } from "./fixtures.js";
import { ManualClock } from "./manual-clock.js";
import { Receiver } from "./webhook-receiver.js";

const SECRET = `whsec_${Buffer.from("flowsmith-emulator-webhook-test-secret").toString("base64")}`;
const OTHER_SECRET = `whsec_${Buffer.from("the-receiver-holds-another-secret!!").toString("base64")}`;
const RETRY_DELAYS_MS = [1000, 5000];

/** Every run of 8 characters of a secret's key: none may appear in what the emulator says. */
const piecesOf = (secret: string): string[] => {
  const key = secret.slice("whsec_".length);
  return Array.from({ length: key.length - 7 }, (_, i) => key.slice(i, i + 8));
};

interface Watched {
  readonly emulator: RunningEmulator;
  readonly clock: ManualClock;
  /** What onWebhookFailure heard, in order. */
  readonly failures: WebhookFailure[];
  /** Ends a session of the accepted scenario; its event goes out at once. */
  endSession(): Promise<string>;
  /** The failures once there are `count` (jest's timeout bounds the wait), moving the clock past each retry's delay. */
  failuresUntil(count: number): Promise<WebhookFailure[]>;
}

async function watch(
  webhookUrl: string,
  options: { webhookSecret?: string; webhookRetryDelaysMs?: number[] } = {},
): Promise<Watched> {
  const clock = new ManualClock();
  const failures: WebhookFailure[] = [];
  const waiting: (() => void)[] = [];
  const emulator = await startEmulator({
    flows: ALL_FLOWS,
    createdMs: 0,
    stepMs: 0,
    clock,
    webhookUrl,
    webhookRetryDelaysMs: RETRY_DELAYS_MS,
    ...options,
    onWebhookFailure: (failure) => {
      failures.push(failure);
      for (const wake of waiting.splice(0)) wake();
    },
  });
  const endSession = async (): Promise<string> => {
    const token = await tokenFor(emulator, "staging");
    const created = await call(`${emulator.baseUrl}/api/v1/flows/${AML_ID}/staging/sessions`, {
      method: "POST",
      headers: bearer(token, { "content-type": "application/json" }),
      body: JSON.stringify({
        input: { basicIdentity: { givenName: "Ada", birthDate: "1815-12-10" } },
        metadata: { subjectId: "test_accepted_hooks" },
      }),
    });
    expect(created.status).toBe(201);
    clock.advance(0);
    return created.json.sessionContext.sessionId;
  };
  const failuresUntil = async (count: number): Promise<WebhookFailure[]> => {
    let retried = 0;
    while (failures.length < count) {
      const told = new Promise<void>((resolve) => waiting.push(resolve));
      // The retry is scheduled as the failure is told (webhooks.ts), so the clock can be moved past it now.
      for (; retried < failures.length; retried++) {
        const retryInMs = failures[retried]?.retryInMs;
        if (retryInMs === undefined) continue;
        await clock.timerScheduled();
        clock.advance(retryInMs);
      }
      await told;
    }
    return failures;
  };
  return { emulator, clock, failures, endSession, failuresUntil };
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/hooks`;
}

test("a receiver holding another secret: each retried attempt is told with its delay, then the failed delivery, saying the secrets differ", async () => {
  // The receiver listens first (the emulator needs its URL); its handler needs a client of the emulator, made next.
  const receiver: { handle?: WebhookHandler } = {};
  const server = createServer((req, res) => {
    if (receiver.handle) void receiver.handle(req, res);
    else res.writeHead(503).end();
  });
  const url = await listening(server);
  const watched = await watch(url, { webhookSecret: SECRET });
  const client = createClient<"staging">({
    baseUrl: watched.emulator.baseUrl,
    authUrl: watched.emulator.authUrl,
    environment: "staging",
    ...watched.emulator.clients.staging,
    userAgent: "emulator-tests/1.0",
  });
  receiver.handle = createWebhookHandler({
    client,
    secret: OTHER_SECRET,
    onSessionEnded: () => undefined,
    onError: () => undefined,
  });
  try {
    const sessionId = await watched.endSession();
    const failures = await watched.failuresUntil(3);
    const webhookId = watched.emulator.webhooks().find((event) => event.sessionId === sessionId)?.webhookId ?? "";
    expect(
      failures.map(({ attempt, attempts, retryInMs, status, kind }) => ({
        attempt,
        attempts,
        retryInMs,
        status,
        kind,
      })),
    ).toEqual([
      { attempt: 1, attempts: 3, retryInMs: 1000, status: 401, kind: "SIGNATURE_REFUSED" },
      { attempt: 2, attempts: 3, retryInMs: 5000, status: 401, kind: "SIGNATURE_REFUSED" },
      { attempt: 3, attempts: 3, retryInMs: undefined, status: 401, kind: "SIGNATURE_REFUSED" },
    ]);
    expect(failures[0]?.message).toBe(
      `webhook ${webhookId} attempt 1 of 3 to ${url} answered 401; retrying in 1000 ms`,
    );
    expect(failures[2]?.message).toBe(
      `webhook ${webhookId} (session ${sessionId}) not delivered: 3 attempts, the last to ${url} answered 401: ` +
        "the receiver refused the signature: its webhook secret and the emulator's webhookSecret (--webhook-secret, FLOWSMITH_WEBHOOK_SECRET) differ",
    );
    const said = JSON.stringify(failures);
    for (const piece of [...piecesOf(SECRET), ...piecesOf(OTHER_SECRET)]) expect(said).not.toContain(piece);
  } finally {
    await client.close();
    await watched.emulator.close();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe("what a failed delivery means, by what the receiver did", () => {
  const answering = (status: number): Server => createServer((_req, res) => res.writeHead(status).end());
  const cases: [
    string,
    () => Promise<{ url: string; close: () => Promise<void> }>,
    { webhookSecret?: string },
    WebhookFailure["kind"],
    string,
  ][] = [
    [
      "401 to an unsigned delivery",
      async () => serve(answering(401)),
      {},
      "SIGNATURE_REFUSED",
      "the receiver wants signed deliveries and the emulator signs none: give the emulator the receiver's secret as webhookSecret",
    ],
    [
      "404",
      async () => serve(answering(404)),
      { webhookSecret: SECRET },
      "NO_SUCH_PATH",
      "nothing takes a POST at that path: check the webhook URL's path against the receiver's route",
    ],
    [
      "502",
      async () => serve(answering(502)),
      {},
      "RECEIVER_FAILED",
      "the receiver failed while handling it: see the receiver's log",
    ],
    [
      "302",
      async () => serve(answering(302)),
      {},
      "REDIRECTED",
      "the receiver redirects, and deliveries do not follow redirects: give the URL it redirects to",
    ],
    [
      "422",
      async () => serve(answering(422)),
      {},
      "REFUSED",
      "the receiver refused the delivery: see the receiver's log for why",
    ],
    ["nothing listening", async () => closedPort(), {}, "CONNECTION_REFUSED", "nothing listens at http://127.0.0.1:"],
  ];

  /** A loopback URL whose port was just freed: nothing listens there. */
  async function closedPort(): Promise<{ url: string; close: () => Promise<void> }> {
    const server = createServer();
    const url = await listening(server);
    await new Promise((resolve) => server.close(resolve));
    return { url, close: () => Promise.resolve() };
  }

  async function serve(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
    const url = await listening(server);
    return {
      url,
      close: () =>
        new Promise((resolve) => {
          server.close(() => {
            resolve();
          });
        }),
    };
  }

  test.each(cases)("%s", async (_name, receiver, options, kind, meaning) => {
    const { url, close } = await receiver();
    const watched = await watch(url, { ...options, webhookRetryDelaysMs: [] });
    try {
      const sessionId = await watched.endSession();
      const [failure] = await watched.failuresUntil(1);
      expect([failure?.kind, failure?.retryInMs, failure?.attempts]).toEqual([kind, undefined, 1]);
      expect(failure?.meaning).toContain(meaning);
      expect(failure?.message).toContain(`(session ${sessionId}) not delivered: its one attempt to ${url} `);
    } finally {
      await watched.emulator.close();
      await close();
    }
  });

  test("a delivery that succeeds on its retry is told once, with its delay, and never as failed", async () => {
    const receiver = new Receiver();
    receiver.statuses = [500];
    const watched = await watch(await receiver.listen());
    try {
      await watched.endSession();
      await watched.failuresUntil(1);
      await watched.clock.timerScheduled();
      watched.clock.advance(RETRY_DELAYS_MS[0]!);
      await receiver.next();
      await receiver.next();
      expect(watched.failures.map(({ kind, retryInMs }) => [kind, retryInMs])).toEqual([["RECEIVER_FAILED", 1000]]);
      expect(watched.clock.pendingTimers).toBe(0);
    } finally {
      await watched.emulator.close();
      await receiver.close();
    }
  });
});

test("the emulator process says it on stderr: a line per retried attempt, then one saying the secrets differ", async () => {
  const receiver = new Receiver();
  receiver.statuses = [401, 401, 401, 401];
  const url = await receiver.listen();
  const child = await startChildEmulator(["--created-ms", "0", "--step-ms", "0", "--webhook-url", url], {
    env: { FLOWSMITH_WEBHOOK_SECRET: SECRET },
  });
  try {
    const token = await tokenFor(child, "staging");
    const created = await call(`${child.baseUrl}/api/v1/flows/a41f0c6d-5e2b-47c9-8d13-b9e60f27c8a5/staging/sessions`, {
      method: "POST",
      headers: bearer(token, { "content-type": "application/json" }),
      body: JSON.stringify({
        input: { basicIdentity: { givenName: "Ada", familyName: "Lovelace", birthDate: "1815-12-10" } },
        metadata: { subjectId: "test_accepted_stderr" },
      }),
    });
    const sessionId = created.json.sessionContext.sessionId;
    for (const attempt of [1, 2, 3]) {
      expect(await child.nextStderrLine(/attempt \d of 4/)).toMatch(
        new RegExp(
          `^flowsmith emulator: webhook msg_\\S+ attempt ${String(attempt)} of 4 to ${url} answered 401; retrying in \\d+ ms$`,
        ),
      );
    }
    const failed = await child.nextStderrLine(/not delivered/);
    expect(failed).toMatch(
      new RegExp(
        `^flowsmith emulator: webhook msg_\\S+ \\(session ${sessionId}\\) not delivered: 4 attempts, the last to ${url} answered 401: the receiver refused the signature: its webhook secret and the emulator's`,
      ),
    );
    for (const piece of piecesOf(SECRET)) expect(failed).not.toContain(piece);
  } finally {
    await child.stop();
    await receiver.close();
  }
});
