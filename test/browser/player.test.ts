/**
 * The hosted player in a real browser (headless Chromium): every branch a
 * tester drives by data-testid, the redirect back with `state` (through
 * Chrome's form-action check on the redirect after a POST), the 404 and
 * ended pages, markup shown as text with nothing run, and each locale.
 * Run with `npm run test:browser` (not part of `npm test`).
 */
import type { HTTPResponse, Page } from "puppeteer-core";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { PLAYER_STRINGS } from "../../emulator/player/strings.js";
import { SERVICE_LOCALES } from "../../runtime/index.js";
import { ALL_FLOWS, bearer, call, tokenFor } from "../emulator/fixtures.js";
import {
  HOSTILE_ID,
  IMG_PAYLOAD,
  SCRIPT_PAYLOAD,
  createPlayerSession,
  hostile,
  startRecorder,
  type PlayerSessionInput,
  type Recorder,
} from "../emulator/player-fixtures.js";
import { closeStarted } from "../support/teardown.js";
import { launchChromiumOrThrow, type Chromium, type PageElement } from "./chromium.js";

let chromium: Chromium;
let emulator: RunningEmulator;
let slow: RunningEmulator;
let staging: string;
let site: Recorder;
let siteV6: Recorder;
const pages: Page[] = [];

beforeAll(async () => {
  [chromium, emulator, slow, site, siteV6] = await Promise.all([
    launchChromiumOrThrow(),
    // createdMs and stepMs 0: the OTP step waits with its ticket from the first look, so no test waits on a clock.
    startEmulator({ flows: [...ALL_FLOWS, hostile], createdMs: 0, stepMs: 0 }),
    startEmulator({ flows: ALL_FLOWS, createdMs: 60_000, stepMs: 0 }),
    startRecorder("127.0.0.1"),
    startRecorder("::1"),
  ]);
  staging = await tokenFor(emulator, "staging");
});
afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
});
afterAll(async () => {
  await closeStarted(chromium, emulator, slow, site, siteV6);
});

/** What the page ran or tried to run: alert() dialogs and CSP violations, seen from outside the page. */
interface Opened {
  readonly page: Page;
  readonly response: HTTPResponse | null;
  readonly dialogs: string[];
}

const WATCH_VIOLATIONS = `document.addEventListener("securitypolicyviolation", (event) => { (window.__violations = window.__violations || []).push(event.violatedDirective); });`;

async function open(url: string): Promise<Opened> {
  const page = await chromium.browser.newPage();
  pages.push(page);
  // A broken redirect fails in seconds, not at jest's timeout.
  page.setDefaultTimeout(10_000);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.evaluateOnNewDocument(WATCH_VIOLATIONS);
  const response = await page.goto(url);
  return { page, response, dialogs };
}

async function session(input: PlayerSessionInput = {}): Promise<Opened & { sessionId: string; playerUrl: string }> {
  const created = await createPlayerSession(emulator, staging, input);
  return { ...created, ...(await open(created.playerUrl)) };
}

const byTestId = (id: string): string => `[data-testid="${id}"]`;
const text = (page: Page, id: string): Promise<string | null> =>
  page.$eval(byTestId(id), (element: PageElement) => element.textContent);
const attribute = (page: Page, id: string, name: string): Promise<string | null> =>
  page.$eval(byTestId(id), (element: PageElement, n) => element.getAttribute(n), name);
const violations = (page: Page): Promise<unknown> => page.evaluate("window.__violations || []");

async function clickAndWait(page: Page, id: string): Promise<HTTPResponse | null> {
  const [response] = await Promise.all([page.waitForNavigation(), page.click(byTestId(id))]);
  return response;
}

async function enterCode(page: Page, code: string): Promise<void> {
  await page.type(byTestId("otp-input"), code);
  await clickAndWait(page, "otp-submit");
}

async function outcomeOf(sessionId: string): Promise<unknown> {
  return (await call(`${emulator.baseUrl}/api/v1/staging/sessions/${sessionId}`, { headers: bearer(staging) })).json;
}

describe("completing the flow in the page", () => {
  test("the OTP 123456 accepts: done page, and the API shows the same outcome", async () => {
    const { page, sessionId } = await session();
    expect(await attribute(page, "player", "data-state")).toBe("step");
    await enterCode(page, "123456");
    expect(await attribute(page, "player", "data-state")).toBe("done");
    expect(await attribute(page, "outcome", "data-decision")).toBe("ACCEPTED");
    expect(await text(page, "outcome")).toBe("Accepted");
    expect(await outcomeOf(sessionId)).toMatchObject({ sessionStatus: "COMPLETED", outcome: { decision: "ACCEPTED" } });
  });

  test("three wrong codes reject, with the attempts left shown after each", async () => {
    const { page, sessionId } = await session();
    expect(await text(page, "attempts-left")).toBe("3");
    for (const left of ["2", "1"]) {
      await enterCode(page, "000000");
      expect([await attribute(page, "error", "data-notice"), await text(page, "attempts-left")]).toEqual([
        "code-rejected",
        left,
      ]);
      expect(await text(page, "error")).toBe("Wrong code.");
    }
    await enterCode(page, "999999");
    expect(await attribute(page, "outcome", "data-decision")).toBe("REJECTED");
    expect(await outcomeOf(sessionId)).toMatchObject({ outcome: { decision: "REJECTED" } });
  });

  test("a malformed code is refused without using an attempt", async () => {
    const { page } = await session();
    await enterCode(page, "12ab");
    expect([await attribute(page, "error", "data-notice"), await text(page, "attempts-left")]).toEqual([
      "invalid-code",
      "3",
    ]);
  });

  test.each([
    ["accept", "ACCEPTED"],
    ["reject", "REJECTED"],
  ])("the %s button ends the session %s", async (button, decision) => {
    const { page, sessionId } = await session();
    await clickAndWait(page, button);
    expect(await attribute(page, "done", "data-testid")).toBe("done");
    expect(await attribute(page, "outcome", "data-decision")).toBe(decision);
    expect(await outcomeOf(sessionId)).toMatchObject({ sessionStatus: "COMPLETED", outcome: { decision } });
  });
});

describe("the way back to redirectUrl", () => {
  test("without a query of its own: state appended; no Referer (the page URL holds the token)", async () => {
    const { page } = await session({ redirectUrl: `${site.url}/return`, state: "csrf value&more=1" });
    const response = await clickAndWait(page, "accept");
    expect(page.url()).toBe(`${site.url}/return?state=csrf%20value%26more%3D1`);
    expect(response?.status()).toBe(200);
    const request = site.requests.find((r) => r.url.startsWith("/return?state=csrf"));
    expect(request?.headers.referer).toBeUndefined();
    expect(new URL(request!.url, site.url).searchParams.get("state")).toBe("csrf value&more=1");
  });

  test("with its own query and a fragment: both kept, state before the fragment", async () => {
    const { page } = await session({ redirectUrl: `${site.url}/cb?from=player&lang=de#section`, state: "s-1" });
    await enterCode(page, "123456");
    expect(page.url()).toBe(`${site.url}/cb?from=player&lang=de&state=s-1#section`);
  });

  test("to an IPv6 loopback address, after three wrong codes", async () => {
    const { page } = await session({ redirectUrl: `${siteV6.url}/v6`, state: "six" });
    for (let i = 0; i < 3; i++) await enterCode(page, "000000");
    expect(page.url()).toBe(`${siteV6.url}/v6?state=six`);
  });

  test("without a state: redirectUrl as given", async () => {
    const { page } = await session({ redirectUrl: `${site.url}/plain?x=1` });
    await clickAndWait(page, "reject");
    expect(page.url()).toBe(`${site.url}/plain?x=1`);
  });
});

describe("pages that are not the step", () => {
  test("a wrong token or an unknown session: the 404 page", async () => {
    const { playerUrl } = await createPlayerSession(emulator, staging);
    const { page, response } = await open(playerUrl.replace(/token=./, "token=!"));
    expect(response?.status()).toBe(404);
    expect(await page.$(byTestId("not-found"))).not.toBeNull();
    const unknown = await open(playerUrl.replace(/\/player\/[^?]+/, "/player/no-such-session"));
    expect(unknown.response?.status()).toBe(404);
  });

  test("a session ended through the API: the ended page, with the way back", async () => {
    const created = await createPlayerSession(emulator, staging, { redirectUrl: `${site.url}/later`, state: "st" });
    const step = await call(`${emulator.baseUrl}/api/v1/staging/sessions/${created.sessionId}/step`, {
      headers: bearer(staging),
    });
    await call(`${emulator.baseUrl}/api/v1/staging/sessions/${created.sessionId}/actions`, {
      method: "POST",
      headers: bearer(staging, { "content-type": "application/json", "x-ticket-id": step.json.ticketId! }),
      body: JSON.stringify({ type: "VALIDATE_OTP", code: "123456" }),
    });
    const { page } = await open(created.playerUrl);
    expect(await attribute(page, "player", "data-state")).toBe("ended");
    expect(await text(page, "session-ended")).toContain("This session has ended");
    expect(await page.$(byTestId("otp-input"))).toBeNull();
    await clickAndWait(page, "return-link");
    expect(page.url()).toBe(`${site.url}/later?state=st`);
  });

  test("while the session is CREATED: the waiting page reloads itself and offers no control", async () => {
    const token = await tokenFor(slow, "staging");
    const { playerUrl } = await createPlayerSession(slow, token);
    const { page } = await open(playerUrl);
    expect(await attribute(page, "player", "data-state")).toBe("waiting");
    expect(await page.$$(`${byTestId("otp-input")}, ${byTestId("accept")}, ${byTestId("reject")}`)).toHaveLength(0);
    // The meta refresh (1 s): a second load of the same page, no script involved.
    const reloaded = await page.waitForNavigation({ timeout: 10_000 });
    expect(reloaded?.url()).toBe(playerUrl);
    expect(await attribute(page, "player", "data-state")).toBe("waiting");
  });

  test("with the default timings, waitForSelector finds the form after the page's own reloads", async () => {
    const defaults = await startEmulator({ flows: ALL_FLOWS });
    try {
      const { playerUrl } = await createPlayerSession(defaults, await tokenFor(defaults, "staging"));
      const { page } = await open(playerUrl);
      await page.waitForSelector(byTestId("otp-input"));
      await enterCode(page, "123456");
      expect(await attribute(page, "outcome", "data-decision")).toBe("ACCEPTED");
    } finally {
      await defaults.close();
    }
  });
});

describe("nothing from the description or the request runs", () => {
  test("markup in the title, description, subject and state is shown as text; the CSP blocks any script", async () => {
    const subjectId = `${SCRIPT_PAYLOAD}${IMG_PAYLOAD}`;
    const state = `${IMG_PAYLOAD}${SCRIPT_PAYLOAD}`;
    const { page, dialogs, playerUrl } = await session({
      flowId: HOSTILE_ID,
      subjectId,
      redirectUrl: `${site.url}/x`,
      state,
    });
    expect(await text(page, "flow-title")).toBe(hostile.title);
    expect(await text(page, "flow-description")).toBe(hostile.description);
    expect(await text(page, "subject-id")).toBe(subjectId);
    expect(await page.$$("script, img")).toHaveLength(0);
    expect(await violations(page)).toEqual([]);

    // The CSP is the second wall: a script that got into the page anyway is refused, and reported.
    await page.evaluate(
      `document.body.append(Object.assign(document.createElement("script"), { textContent: "alert('injected')" }))`,
    );
    await page.waitForFunction("(window.__violations || []).length > 0", { timeout: 5_000 });
    expect(await violations(page)).toEqual(["script-src-elem"]);

    await clickAndWait(page, "reject");
    expect(new URL(page.url()).searchParams.get("state")).toBe(state);

    // The ended page: the subject as text again, and the way back as an intact attribute.
    const ended = await open(playerUrl);
    expect(await text(ended.page, "subject-id")).toBe(subjectId);
    expect(new URL((await attribute(ended.page, "return-link", "href"))!).searchParams.get("state")).toBe(state);
    expect(await ended.page.$$("script, img")).toHaveLength(0);
    expect(await violations(ended.page)).toEqual([]);
    expect([...dialogs, ...ended.dialogs]).toEqual([]);
  });
});

describe("each locale", () => {
  test.each(SERVICE_LOCALES.map((locale) => [locale]))(
    "%s: the page's own strings, through to the done page",
    async (locale) => {
      const strings = PLAYER_STRINGS[locale];
      const { page } = await session({ locale });
      expect(await page.$eval("html", (element: PageElement) => element.getAttribute("lang"))).toBe(locale);
      expect(await text(page, "otp-submit")).toBe(strings.submitCode);
      expect(await text(page, "otp-resend")).toBe(strings.resendCode);
      expect(await text(page, "accept")).toBe(strings.accept);
      expect(await text(page, "reject")).toBe(strings.reject);
      expect(await page.$eval("label[for=otp-code]", (element: PageElement) => element.textContent)).toBe(
        strings.codeLabel,
      );
      await enterCode(page, "000000");
      expect(await text(page, "error")).toBe(strings.codeRejected);
      await clickAndWait(page, "reject");
      expect(await text(page, "done")).toContain(strings.doneTitle);
      expect(await text(page, "outcome")).toBe(strings.rejected);
    },
  );
});
