/**
 * The web example (`npm run example:web`) over plain HTTP, as curl would
 * drive it (the browser suite drives it through the player in Chromium):
 * the whole round trip, the emulator's signed webhook verified by the
 * example's createWebhookHandler (test/emulator/webhooks.test.ts checks the
 * handler against the emulator alone; this checks the example wires the
 * secret and uses what it records), deliveries it must refuse, and a browser
 * back before the webhook.
 */
import { expect } from "@jest/globals";
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { SessionEndedEvent, WebhookHandlerOptions } from "@flowsmith/runtime";
import { WEBHOOK_PATH } from "../../examples/web/app";
import { startWebExample, type RunningWebExample } from "../../examples/web/web-example";
import { call } from "../emulator/fixtures";
import { ticketOf } from "../emulator/player-fixtures";
import { seenBy, webhooksFor } from "../fixtures/web-example";
import { closeStarted } from "../support/teardown";

/** Deliveries to the example wait on this before its handler sees them (real HTTP still: the emulator's POST is held open). */
let mockHeld: Promise<void> = Promise.resolve();
jest.mock("@flowsmith/runtime", () => {
  const actual = jest.requireActual<typeof import("@flowsmith/runtime")>("@flowsmith/runtime");
  return {
    ...actual,
    createWebhookHandler: (options: WebhookHandlerOptions) => {
      const handler = actual.createWebhookHandler(options);
      return Object.assign((...args: Parameters<typeof handler>) => mockHeld.then(() => handler(...args)), {
        drain: () => handler.drain(),
      });
    },
  };
});

let example: RunningWebExample;

beforeAll(async () => {
  example = await startWebExample({ createdMs: 0, stepMs: 0 });
});
afterAll(async () => {
  await closeStarted(example);
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** The app's page: the cookie it signs the visitor in with. */
async function signIn(): Promise<string> {
  const home = await call(`${example.url}/`);
  expect(home.status).toBe(200);
  return String(home.headers["set-cookie"]).split(";")[0]!;
}

interface Ended {
  readonly cookie: string;
  readonly sessionId: string;
  /** Where the player sent the browser back to. */
  readonly returnUrl: string;
}

/** The app's form, then the player's own form (as the browser would post it) ending the session. */
async function endThroughPlayer(action: "accept" | "reject"): Promise<Ended> {
  const cookie = await signIn();
  const started = await call(`${example.url}/verify`, {
    method: "POST",
    headers: { ...FORM, cookie },
    body: "givenName=Ada&familyName=Lovelace&birthDate=1815-12-10&locale=en",
  });
  expect(started.status).toBe(303);
  const playerUrl = new URL(String(started.headers.location));
  const page = await call(playerUrl.href);
  const ended = await call(`${playerUrl.origin}${playerUrl.pathname}`, {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({
      token: playerUrl.searchParams.get("token")!,
      ticket: ticketOf(page.text)!,
      action,
    }).toString(),
  });
  expect(ended.status).toBe(303);
  return { cookie, sessionId: playerUrl.pathname.split("/").at(-1)!, returnUrl: String(ended.headers.location) };
}

describe("the round trip over HTTP", () => {
  let ended: Ended;

  beforeAll(async () => {
    ended = await endThroughPlayer("reject");
  });

  test("the player returns to the example, whose outcome page shows the API's decision", async () => {
    expect(ended.returnUrl.startsWith(`${example.url}/return?state=v1.`)).toBe(true);
    const outcome = await call(ended.returnUrl, { headers: { cookie: ended.cookie } });
    expect(outcome.status).toBe(200);
    expect(outcome.text).toContain(`data-decision="REJECTED"`);
    expect(outcome.text).toContain(ended.sessionId);
  });

  test("the emulator's signed delivery is verified by the example's handler, once, and nothing was refused", async () => {
    expect(await webhooksFor(example.url, ended.sessionId)).toEqual([
      { sessionId: ended.sessionId, webhookId: expect.stringMatching(/^msg_/), decision: "REJECTED" },
    ]);
    expect((await seenBy(example.url)).deliveryErrors).toEqual([]);
  });

  test("a delivery not signed with the example's secret is refused (401), never recorded, and the outcome stays the API's", async () => {
    const claim: SessionEndedEvent = {
      type: "session.ended",
      timestamp: new Date().toISOString(),
      data: {
        sessionId: ended.sessionId,
        flowId: "a41f0c6d-5e2b-47c9-8d13-b9e60f27c8a5",
        environment: "staging",
        decision: "ACCEPTED",
      },
    };
    const body = JSON.stringify(claim);
    const id = "msg_forged";
    const at = new Date();
    const stamp = {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    };
    const otherSecret = `whsec_${randomBytes(32).toString("base64")}`;
    const deliveries = [{ ...stamp, "webhook-signature": new Webhook(otherSecret).sign(id, at, body) }, stamp];
    const logged: unknown[][] = [];
    const spy = jest.spyOn(console, "error").mockImplementation((...line: unknown[]) => void logged.push(line));
    try {
      for (const headers of deliveries) {
        const answer = await call(`${example.url}${WEBHOOK_PATH}`, { method: "POST", headers, body });
        expect(answer.status).toBe(401);
      }
    } finally {
      spy.mockRestore();
    }
    // onError runs as the refusal is answered; its line names the code, nothing of the delivery's claims.
    expect(logged).toEqual([
      ["webhook delivery not handled: 401 WEBHOOK_SIGNATURE_INVALID"],
      ["webhook delivery not handled: 401 WEBHOOK_SIGNATURE_MISSING"],
    ]);
    expect((await seenBy(example.url)).deliveryErrors).toEqual([
      { status: 401, code: "WEBHOOK_SIGNATURE_INVALID" },
      { status: 401, code: "WEBHOOK_SIGNATURE_MISSING" },
    ]);
    expect(await webhooksFor(example.url, ended.sessionId)).toEqual([
      expect.objectContaining({ decision: "REJECTED" }),
    ]);
    expect((await call(ended.returnUrl, { headers: { cookie: ended.cookie } })).text).toContain(
      `data-decision="REJECTED"`,
    );
  });
});

test("back before the webhook: the outcome is read from the API (waitForOutcome), and the webhook shows once it is in", async () => {
  let release = (): void => undefined;
  mockHeld = new Promise((resolve) => (release = resolve));
  let ended: Ended;
  try {
    ended = await endThroughPlayer("accept");
    const early = await call(ended.returnUrl, { headers: { cookie: ended.cookie } });
    expect(early.text).toContain(`data-decision="ACCEPTED"`);
    expect(early.text).toContain(`data-received="false"`);
    expect((await seenBy(example.url)).webhooks.map((webhook) => webhook.sessionId)).not.toContain(ended.sessionId);
  } finally {
    release();
    mockHeld = Promise.resolve();
  }
  const [webhook] = await webhooksFor(example.url, ended.sessionId);
  const later = await call(ended.returnUrl, { headers: { cookie: ended.cookie } });
  expect(later.text).toContain(`data-received="true"`);
  expect(later.text).toContain(webhook!.webhookId!);
});

test("a form the flow refuses comes back filled in, with the generated client's reasons (checked before anything is sent)", async () => {
  const cookie = await signIn();
  const answer = await call(`${example.url}/verify`, {
    method: "POST",
    headers: { ...FORM, cookie },
    body: "givenName=Ada&familyName=Lovelace&birthDate=10.12.1815&locale=en",
  });
  expect(answer.status).toBe(400);
  expect(answer.text).toContain(`data-testid="form-error"`);
  expect(answer.text).toContain("input.basicIdentity.birthDate");
  expect(answer.text).toContain(`value="10.12.1815"`);
});
