/**
 * The web example (`npm run example:web`) in a real browser: its page, the
 * player, the redirect back with `state`, the outcome page, and the signed
 * webhook its backend verified, for each way a session ends; and the return
 * URLs it must refuse (tampered, another user's, expired, none), which never
 * show the outcome. Run with `npm run test:browser`.
 */
import { expect } from "@jest/globals";
import type { BrowserContext, HTTPResponse, Page } from "puppeteer-core";
import { STATE_TTL_MS } from "../../examples/web/app.js";
import { startWebExample, type RunningWebExample } from "../../examples/web/web-example.js";
import { seenBy, webhooksFor } from "../fixtures/web-example.js";
import { closeStarted } from "../support/teardown.js";
import { launchChromiumOrThrow, type Chromium, type PageElement } from "./chromium.js";

let chromium: Chromium;
let example: RunningWebExample;
/** Added to the clock of the example's redirect states: moved forward to expire one. */
let skewMs = 0;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [chromium, example] = await Promise.all([
    launchChromiumOrThrow(),
    // createdMs and stepMs 0: the player's step waits with its ticket on the first load.
    startWebExample({ createdMs: 0, stepMs: 0, now: () => Date.now() + skewMs }),
  ]);
});
afterAll(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  await closeStarted(chromium, example);
});

const byTestId = (id: string): string => `[data-testid="${id}"]`;
const text = (page: Page, id: string): Promise<string | null> =>
  page.$eval(byTestId(id), (element: PageElement) => element.textContent);
const attribute = (page: Page, id: string, name: string): Promise<string | null> =>
  page.$eval(byTestId(id), (element: PageElement, n) => element.getAttribute(n), name);

/** A browser of its own (cookies included): another user of the app. */
async function visitor(): Promise<Page> {
  const context = await chromium.browser.createBrowserContext();
  contexts.push(context);
  const page = await context.newPage();
  // A broken redirect fails in seconds, not at jest's timeout.
  page.setDefaultTimeout(10_000);
  return page;
}

async function clickAndWait(page: Page, id: string): Promise<HTTPResponse | null> {
  const [response] = await Promise.all([page.waitForNavigation(), page.click(byTestId(id))]);
  return response;
}

/** The app's page, its form as filled in, then the player's step; resolves with the subject signed in. */
async function startVerification(page: Page, locale = "en"): Promise<string> {
  await page.goto(`${example.url}/`);
  const subjectId = (await text(page, "subject-id"))!;
  await page.select("select[name=locale]", locale);
  await clickAndWait(page, "start");
  await page.waitForSelector(byTestId("otp-input"));
  return subjectId;
}

async function enterCode(page: Page, code: string): Promise<HTTPResponse | null> {
  await page.type(byTestId("otp-input"), code);
  return clickAndWait(page, "otp-submit");
}

/** The outcome page the player returned to, and the one webhook the backend verified for its session. */
async function expectOutcome(page: Page, response: HTTPResponse | null, decision: string): Promise<string> {
  expect(response?.status()).toBe(200);
  expect(page.url()).toMatch(new RegExp(`^${example.url}/return\\?state=v1\\.`));
  expect(await attribute(page, "outcome", "data-decision")).toBe(decision);
  expect(await text(page, "data-blocks")).toContain('"familyName": "Lovelace"');
  const sessionId = (await text(page, "session-id"))!;
  const webhooks = await webhooksFor(example.url, sessionId);
  expect(webhooks).toEqual([{ sessionId, webhookId: expect.stringMatching(/^msg_[0-9a-f-]{36}$/), decision }]);
  // Once handled, the page shows the outcome as the webhook recorded it.
  await page.reload();
  expect([
    await attribute(page, "webhook", "data-received"),
    await attribute(page, "outcome", "data-decision"),
  ]).toEqual(["true", decision]);
  expect(await text(page, "webhook")).toContain(webhooks[0]!.webhookId);
  return sessionId;
}

describe("each way through the player ends on the outcome page, with the webhook verified", () => {
  test("the code 123456 accepts", async () => {
    const page = await visitor();
    await startVerification(page);
    await expectOutcome(page, await enterCode(page, "123456"), "ACCEPTED");
  });

  test("Reject, in the player's German", async () => {
    const page = await visitor();
    await startVerification(page, "de");
    expect(await page.$eval("html", (element: PageElement) => element.getAttribute("lang"))).toBe("de");
    await expectOutcome(page, await clickAndWait(page, "reject"), "REJECTED");
  });

  test("three wrong codes reject", async () => {
    const page = await visitor();
    await startVerification(page);
    for (const left of ["2", "1"]) {
      await enterCode(page, "000000");
      expect(await text(page, "attempts-left")).toBe(left);
    }
    await expectOutcome(page, await enterCode(page, "999999"), "REJECTED");
  });

  test("no delivery was refused: the emulator signs with the secret the example verifies with", async () => {
    expect((await seenBy(example.url)).deliveryErrors).toEqual([]);
  });
});

describe("a return URL that does not verify is refused, and the outcome is not shown", () => {
  let owner: Page;
  let ownerSubject: string;
  let returnUrl: URL;
  let sessionId: string;

  beforeAll(async () => {
    owner = await visitor();
    ownerSubject = await startVerification(owner);
    await clickAndWait(owner, "accept");
    returnUrl = new URL(owner.url());
    sessionId = (await text(owner, "session-id"))!;
  });
  afterEach(() => {
    skewMs = 0;
  });

  async function expectRefused(page: Page, url: string, code: string): Promise<void> {
    const response = await page.goto(url);
    expect(response?.status()).toBe(400);
    expect(await attribute(page, "refused", "data-code")).toBe(code);
    expect(await page.$(byTestId("outcome"))).toBeNull();
    expect(await page.content()).not.toContain(sessionId);
  }

  const withState = (state: string): string => {
    const url = new URL(returnUrl);
    url.searchParams.set("state", state);
    return url.href;
  };

  test.each([
    [
      "its expiry moved a day later",
      (parts: string[]) => [parts[0], String(Number(parts[1]) + 86_400_000), ...parts.slice(2)],
    ],
    [
      "its signature altered",
      (parts: string[]) => [...parts.slice(0, 5), `${parts[5]!.startsWith("A") ? "B" : "A"}${parts[5]!.slice(1)}`],
    ],
  ])("tampered (%s): STATE_TAMPERED, though the session ended and its webhook was verified", async (_, tamper) => {
    const parts = returnUrl.searchParams.get("state")!.split(".");
    await expectRefused(owner, withState(tamper(parts).join(".")), "STATE_TAMPERED");
    expect(await webhooksFor(example.url, sessionId)).toEqual([expect.objectContaining({ decision: "ACCEPTED" })]);
  });

  test("opened by another signed-in user: STATE_SUBJECT_MISMATCH; by a browser not signed in: NOT_SIGNED_IN", async () => {
    const other = await visitor();
    await other.goto(`${example.url}/`);
    expect(await text(other, "subject-id")).not.toBe(ownerSubject);
    await expectRefused(other, returnUrl.href, "STATE_SUBJECT_MISMATCH");
    await expectRefused(await visitor(), returnUrl.href, "NOT_SIGNED_IN");
  });

  test("after its ttl: STATE_EXPIRED; the same URL within it still shows the outcome", async () => {
    skewMs = STATE_TTL_MS;
    await expectRefused(owner, returnUrl.href, "STATE_EXPIRED");
    skewMs = STATE_TTL_MS - 60_000;
    await owner.goto(returnUrl.href);
    expect(await attribute(owner, "outcome", "data-decision")).toBe("ACCEPTED");
  });

  test("without a state: STATE_MISSING", async () => {
    await expectRefused(owner, `${example.url}/return`, "STATE_MISSING");
  });
});
