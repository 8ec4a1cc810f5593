/**
 * The hosted player over HTTP (no browser): one session state shared with
 * the API, the answers per phase, the security headers, the 404 and error
 * pages, and the redirectUrl allowlist at creation. The browser suite
 * (test/browser, `npm run test:browser`) drives the same pages in Chromium.
 */
import { expect } from "@jest/globals";
import { run as runEmulator } from "../../cli/commands/emulator.js";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import {
  ALL_FLOWS,
  AML_ID,
  SIGNING_ID,
  bearer,
  call,
  signingForm,
  sleep,
  tokenFor,
  type Answer,
  type ReadyLine,
} from "./fixtures.js";
import {
  HOSTILE_ID,
  IMG_PAYLOAD,
  SCRIPT_PAYLOAD,
  attemptsOf,
  createPlayerSession,
  hostile,
  startRecorder,
  stateOf,
  ticketOf,
  type Recorder,
} from "./player-fixtures.js";

let emulator: RunningEmulator;
let slow: RunningEmulator;
let staging: string;
let webhook: Recorder;

beforeAll(async () => {
  webhook = await startRecorder("127.0.0.1", 204);
  // createdMs and stepMs 0: the OTP step waits with its ticket from the first look.
  emulator = await startEmulator({
    flows: [...ALL_FLOWS, hostile],
    createdMs: 0,
    stepMs: 0,
    webhookUrl: `${webhook.url}/hooks`,
  });
  slow = await startEmulator({ flows: ALL_FLOWS, createdMs: 60_000, stepMs: 0 });
  staging = await tokenFor(emulator, "staging");
});
afterAll(async () => {
  await Promise.all([emulator.close(), slow.close()]);
  await webhook.close();
});

const api = (
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> => call(`${emulator.baseUrl}/api/v1${path}`, { ...init, headers: bearer(staging, init.headers) });

const act = (sessionId: string, ticketId: string, body: unknown): Promise<Answer> =>
  api(`/staging/sessions/${sessionId}/actions`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-ticket-id": ticketId },
    body: JSON.stringify(body),
  });

const openPage = (playerUrl: string): Promise<Answer> => call(playerUrl);

/** Posts a player form as the browser would; `token` and `ticket` come from the page unless given. */
async function postForm(playerUrl: string, fields: Record<string, string>): Promise<Answer> {
  const url = new URL(playerUrl);
  const page = (await openPage(playerUrl)).text;
  const body = new URLSearchParams({ token: url.searchParams.get("token")!, ticket: ticketOf(page) ?? "", ...fields });
  return call(`${url.origin}${url.pathname}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: body.toString(),
  });
}

async function deliveriesFor(sessionId: string): Promise<unknown[]> {
  // Bounded: delivery to a loopback receiver takes milliseconds.
  for (let i = 0; i < 100 && !webhook.requests.some((r) => r.body.includes(sessionId)); i++) await sleep(20);
  return webhook.requests.filter((r) => r.body.includes(sessionId)).map((r): unknown => JSON.parse(r.body));
}

describe("the player and the API share one session", () => {
  test("two wrong codes through the API, the third through the page: REJECTED, one webhook, done page", async () => {
    const { sessionId, playerUrl } = await createPlayerSession(emulator, staging);
    for (let i = 0; i < 2; i++) {
      const step = await api(`/staging/sessions/${sessionId}/step`);
      expect((await act(sessionId, step.json.ticketId!, { type: "VALIDATE_OTP", code: "000000" })).json.result).toBe(
        "CODE_REJECTED",
      );
    }
    const page = await openPage(playerUrl);
    expect([stateOf(page.text), attemptsOf(page.text)]).toEqual(["step", "1"]);
    expect(ticketOf(page.text)).toBe((await api(`/staging/sessions/${sessionId}/step`)).json.ticketId);

    const answer = await postForm(playerUrl, { action: "validate-otp", code: "111111" });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe(
      `/player/${sessionId}?token=${new URL(playerUrl).searchParams.get("token")}&notice=done`,
    );
    expect((await api(`/staging/sessions/${sessionId}`)).json).toMatchObject({
      sessionStatus: "COMPLETED",
      outcome: { decision: "REJECTED" },
    });
    expect((await api(`/staging/sessions/${sessionId}/step`)).json).toEqual({ stepType: "END", ticketId: null });
    expect(await deliveriesFor(sessionId)).toEqual([
      {
        type: "session.ended",
        timestamp: expect.any(String),
        data: { sessionId, flowId: AML_ID, environment: "staging", decision: "REJECTED" },
      },
    ]);

    const done = await call(new URL(answer.headers.location as string, emulator.baseUrl).href);
    expect(stateOf(done.text)).toBe("done");
    expect(done.text).toContain('data-decision="REJECTED"');
  });

  test("two wrong codes through the page, the third through the API: REJECTED; the page then shows the end", async () => {
    const { sessionId, playerUrl } = await createPlayerSession(emulator, staging);
    for (const left of ["2", "1"]) {
      const answer = await postForm(playerUrl, { action: "validate-otp", code: "000000" });
      expect([answer.status, answer.headers.location]).toEqual([303, expect.stringMatching(/&notice=code-rejected$/)]);
      const page = await openPage(new URL(answer.headers.location as string, emulator.baseUrl).href);
      expect([attemptsOf(page.text), page.text.includes('data-notice="code-rejected"')]).toEqual([left, true]);
    }
    const step = await api(`/staging/sessions/${sessionId}/step`);
    expect(step.json.ticketId).toBe(ticketOf((await openPage(playerUrl)).text));
    const last = await act(sessionId, step.json.ticketId!, { type: "VALIDATE_OTP", code: "000000" });
    expect(last.json).toMatchObject({ result: "CODE_REJECTED", attemptsLeft: 0, step: { stepType: "END" } });

    const ended = await openPage(playerUrl);
    expect([ended.status, stateOf(ended.text)]).toEqual([200, "ended"]);
    expect(ended.text).toContain('data-decision="REJECTED"');
    expect(ended.text).not.toContain('data-testid="otp-input"');
    // A form from before the end changes nothing: the page shows the end again.
    const late = await call(`${emulator.baseUrl}/player/${sessionId}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token: new URL(playerUrl).searchParams.get("token")!,
        ticket: step.json.ticketId!,
        action: "accept",
      }).toString(),
    });
    expect(late.headers.location).toMatch(/&notice=not-ready$/);
    expect((await api(`/staging/sessions/${sessionId}`)).json.outcome!.decision).toBe("REJECTED");
  });

  test("a page whose ticket the API has since used is stale: nothing applied, no wrong code counted", async () => {
    const { sessionId, playerUrl } = await createPlayerSession(emulator, staging);
    const old = ticketOf((await openPage(playerUrl)).text)!;
    const resent = await act(sessionId, old, { type: "RESEND_OTP" });
    expect(resent.json.result).toBe("CODE_SENT");
    const token = new URL(playerUrl).searchParams.get("token")!;
    const answer = await call(`${emulator.baseUrl}/player/${sessionId}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token, ticket: old, action: "validate-otp", code: "000000" }).toString(),
    });
    expect(answer.headers.location).toMatch(/&notice=stale$/);
    const page = await openPage(`${playerUrl}&notice=stale`);
    expect([attemptsOf(page.text), ticketOf(page.text)]).toEqual(["3", resent.json.step.ticketId]);
    expect(page.text).toContain('data-testid="error" data-notice="stale"');
  });

  test("a malformed code is refused as by the API (not counted); resend issues a new ticket; 123456 accepts", async () => {
    const { sessionId, playerUrl } = await createPlayerSession(emulator, staging);
    expect((await postForm(playerUrl, { action: "validate-otp", code: "12ab56" })).headers.location).toMatch(
      /&notice=invalid-code$/,
    );
    expect(attemptsOf((await openPage(playerUrl)).text)).toBe("3");
    const before = ticketOf((await openPage(playerUrl)).text);
    expect((await postForm(playerUrl, { action: "resend-otp" })).headers.location).toMatch(/&notice=code-sent$/);
    expect(ticketOf((await openPage(playerUrl)).text)).not.toBe(before);
    expect((await postForm(playerUrl, { action: "validate-otp", code: "123456" })).headers.location).toMatch(
      /&notice=done$/,
    );
    expect((await api(`/staging/sessions/${sessionId}`)).json.outcome!.decision).toBe("ACCEPTED");
  });

  test.each([
    ["accept", "ACCEPTED"],
    ["reject", "REJECTED"],
  ])("%s ends the session as the API would, and redirects to redirectUrl with state", async (action, decision) => {
    const redirectUrl = "http://127.0.0.1:9/return?from=player#frag";
    const { sessionId, playerUrl } = await createPlayerSession(emulator, staging, { redirectUrl, state: "st&te=1" });
    const answer = await postForm(playerUrl, { action });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe("http://127.0.0.1:9/return?from=player&state=st%26te%3D1#frag");
    expect(answer.headers["referrer-policy"]).toBe("no-referrer");
    expect((await api(`/staging/sessions/${sessionId}`)).json).toMatchObject({
      sessionStatus: "COMPLETED",
      outcome: { decision },
    });
    expect((await api(`/staging/sessions/${sessionId}/datablocks`)).json.dataBlocks).toEqual({
      UserReference: { subjectId: "cust-1" },
      basicIdentity: { givenName: "Ada", birthDate: "1815-12-10" },
    });
    expect(await deliveriesFor(sessionId)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ sessionId, decision }) }),
    ]);
    // The ended page offers the same way back.
    const ended = await openPage(playerUrl);
    expect(ended.text).toContain('href="http://127.0.0.1:9/return?from=player&amp;state=st%26te%3D1#frag"');
  });
});

describe("pages per phase", () => {
  test("while CREATED: a waiting page that refreshes itself, without forms; a form posted anyway changes nothing", async () => {
    const token = await tokenFor(slow, "staging");
    const { sessionId, playerUrl } = await createPlayerSession(slow, token);
    const page = await call(playerUrl);
    expect([page.status, stateOf(page.text)]).toEqual([200, "waiting"]);
    expect(page.text).toContain('<meta http-equiv="refresh" content="1">');
    expect(page.text).not.toContain("<form");
    expect(page.headers["content-security-policy"]).toContain("form-action 'none'");
    const posted = await call(`${slow.baseUrl}/player/${sessionId}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token: new URL(playerUrl).searchParams.get("token")!,
        ticket: "from-an-old-page",
        action: "accept",
      }).toString(),
    });
    expect(posted.headers.location).toMatch(/&notice=not-ready$/);
    const session = await call(`${slow.baseUrl}/api/v1/staging/sessions/${sessionId}`, { headers: bearer(token) });
    expect(session.json.sessionStatus).toBe("CREATED");
  });

  test("the step page carries the flow, the subject and the controls; every page sends the security headers", async () => {
    const { playerUrl } = await createPlayerSession(emulator, staging, {
      subjectId: "cust-77",
      redirectUrl: "http://localhost:4000/back",
    });
    const page = await openPage(playerUrl);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    for (const id of [
      "flow-title",
      "flow-id",
      "flow-version",
      "subject-id",
      "otp-input",
      "otp-submit",
      "otp-resend",
      "accept",
      "reject",
      "attempts-left",
    ]) {
      expect(page.text).toContain(`data-testid="${id}"`);
    }
    expect(page.text).toContain(`data-testid="flow-id">${AML_ID}<`);
    expect(page.text).toContain('data-testid="flow-version">3<');
    expect(page.text).toContain('data-testid="subject-id">cust-77<');
    expect(page.text).not.toMatch(/<script/i);
    expect(page.headers).toMatchObject({
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
      "x-frame-options": "DENY",
    });
    expect(page.headers["content-security-policy"]).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; form-action 'self' http:\/\/localhost:4000; base-uri 'none'; frame-ancestors 'none'$/,
    );
  });

  test("markup from the description and the request is shown as text", async () => {
    const { playerUrl } = await createPlayerSession(emulator, staging, {
      flowId: HOSTILE_ID,
      subjectId: `${SCRIPT_PAYLOAD}${IMG_PAYLOAD}`,
    });
    const page = (await openPage(playerUrl)).text;
    expect(page).not.toMatch(/<script|<img/i);
    expect(page).toContain("&lt;script&gt;alert(&quot;xss-script&quot;)&lt;/script&gt;");
    expect(page).toContain("&quot;&gt;&lt;img src=x onerror=&quot;alert(&#39;xss-img&#39;)&quot;&gt;");
  });

  test.each([
    ["an unknown session", (url: URL) => `${url.origin}/player/00000000-0000-0000-0000-000000000000${url.search}`],
    ["a wrong token", (url: URL) => `${url.origin}${url.pathname}?token=${url.searchParams.get("token")!.slice(1)}x`],
    ["no token", (url: URL) => `${url.origin}${url.pathname}`],
  ])("%s: a 404 page that names neither session nor token", async (_name, target) => {
    const { sessionId, playerUrl } = await createPlayerSession(emulator, staging);
    const url = new URL(playerUrl);
    const answer = await call(target(url));
    expect([answer.status, answer.headers["content-type"]]).toEqual([404, "text/html; charset=utf-8"]);
    expect(answer.text).toContain('data-testid="not-found"');
    expect(answer.text).not.toContain(sessionId);
    expect(answer.text).not.toContain(url.searchParams.get("token"));
    expect(answer.headers).toMatchObject({ "cache-control": "no-store", "x-content-type-options": "nosniff" });
    expect(answer.headers["content-security-policy"]).toContain("default-src 'none'");
  });

  test.each([
    ["a JSON body", "application/json", "{}", 400, /application\/x-www-form-urlencoded/],
    [
      "an unknown action",
      "application/x-www-form-urlencoded",
      "action=skip",
      400,
      /action must be one of validate-otp, resend-otp, accept, reject/,
    ],
    [
      "a body over 16 KB",
      "application/x-www-form-urlencoded",
      `code=${"1".repeat(20_000)}`,
      413,
      /larger than 16384 bytes/,
    ],
  ])("a form with %s gets an HTML error page", async (_name, type, extra, status, message) => {
    const { sessionId, playerUrl } = await createPlayerSession(emulator, staging);
    const token = new URL(playerUrl).searchParams.get("token")!;
    const body = type === "application/json" ? extra : `token=${token}&${extra}`;
    const answer = await call(`${emulator.baseUrl}/player/${sessionId}`, {
      method: "POST",
      headers: { "content-type": type },
      body,
    });
    expect([answer.status, answer.headers["content-type"]]).toEqual([status, "text/html; charset=utf-8"]);
    expect(answer.text).toMatch(message);
    expect(answer.text).not.toContain(token);
  });
});

describe("redirectUrl allowlist at creation", () => {
  const create = (target: RunningEmulator, token: string, redirectUrl: string): Promise<Answer> =>
    call(`${target.baseUrl}/api/v1/flows/${AML_ID}/staging/sessions`, {
      method: "POST",
      headers: bearer(token, { "content-type": "application/json" }),
      body: JSON.stringify({
        input: { basicIdentity: { givenName: "Ada", birthDate: "1815-12-10" } },
        metadata: { subjectId: "c" },
        redirectUrl,
      }),
    });

  test.each([
    ["http://127.0.0.1:3000/cb", 201],
    ["http://[::1]:3000/cb", 201],
    ["https://localhost/cb?x=1", 201],
    ["http://127.0.0.1.evil.test/cb", 400],
    ["http://localhost@evil.test/cb", 400],
    ["https://app.example.test/cb", 400],
  ])("by default (loopback) %s is %d", async (redirectUrl, status) => {
    const answer = await create(emulator, staging, redirectUrl);
    expect(answer.status).toBe(status);
    if (status === 400) {
      expect(answer.json.code).toBe("REDIRECT_URL_NOT_ALLOWED");
      expect(answer.json.message).toMatch(
        /loopback: http\(s\) on 127\.0\.0\.1, \[::1\] or localhost, any port|credentials/,
      );
    }
  });

  test("with --redirect-allowlist entries only those are allowed, and the message lists them", async () => {
    const custom = await startEmulator({
      flows: ALL_FLOWS,
      redirectAllowlist: ["https://app.example.test/return", "http://localhost:5173"],
    });
    try {
      const token = await tokenFor(custom, "staging");
      expect((await create(custom, token, "https://app.example.test/return/ok")).status).toBe(201);
      expect((await create(custom, token, "http://localhost:5173/anything")).status).toBe(201);
      const refused = await create(custom, token, "http://127.0.0.1:3000/cb");
      expect([refused.status, refused.json.code]).toEqual([400, "REDIRECT_URL_NOT_ALLOWED"]);
      expect(refused.json.message).toContain("(https://app.example.test/return; http://localhost:5173)");
      expect((await create(custom, token, "https://app.example.test/returns")).status).toBe(400);
    } finally {
      await custom.close();
    }
  });

  test("a multipart session with a refused redirectUrl is 400 and is not created", async () => {
    const form = signingForm(1, { extra: [["redirectUrl", "https://evil.test/cb"]] });
    const answer = await call(`${emulator.baseUrl}/api/v1/flows/${SIGNING_ID}/staging/sessions`, {
      method: "POST",
      headers: bearer(staging),
      body: form,
    });
    expect([answer.status, answer.json.code]).toEqual([400, "REDIRECT_URL_NOT_ALLOWED"]);
    const listed = await api(`/flows/${SIGNING_ID}/staging/sessions`);
    expect(listed.json.sessions).toEqual([]);
  });
});

describe("--redirect-allowlist", () => {
  const capture = () => {
    let text = "";
    return {
      write: (chunk: string) => (text += chunk),
      get text() {
        return text;
      },
    };
  };

  test("is repeatable, and its entries are what sessions may redirect to", async () => {
    const stdout = capture();
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const args = [
      "--config",
      "codegen.config.json",
      "--redirect-allowlist",
      "https://app.example.test/return/",
      "--redirect-allowlist",
      "loopback",
    ];
    const exit = runEmulator(args, { stdout, stderr: capture(), stopped });
    for (let i = 0; i < 500 && !stdout.text.includes("\n"); i++) await sleep(10);
    const ready = JSON.parse(stdout.text) as ReadyLine;
    const token = await tokenFor(ready, "staging");
    const create = (redirectUrl: string): Promise<Answer> =>
      call(`${ready.baseUrl}/api/v1/flows/a41f0c6d-5e2b-47c9-8d13-b9e60f27c8a5/staging/sessions`, {
        method: "POST",
        headers: bearer(token, { "content-type": "application/json" }),
        body: JSON.stringify({
          input: { basicIdentity: { givenName: "Ada", familyName: "L", birthDate: "1815-12-10" } },
          metadata: { subjectId: "c" },
          redirectUrl,
        }),
      });
    expect((await create("https://app.example.test/return/done")).status).toBe(201);
    expect((await create("http://localhost:3000/cb")).status).toBe(201);
    const refused = await create("https://app.example.test/other");
    expect([refused.status, refused.json.code]).toEqual([400, "REDIRECT_URL_NOT_ALLOWED"]);
    stop();
    expect(await exit).toBe(0);
  });

  test.each([
    [["--redirect-allowlist", "ftp://files.example.test"], "only http and https"],
    [["--redirect-allowlist", "https://app.example.test/?x=1"], "query or fragment"],
    [["--redirect-allowlist", "app.example.test"], "is not an absolute URL"],
  ])("%j exits 2 naming the entry", async (args, message) => {
    const stderr = capture();
    expect(await runEmulator(args, { stdout: capture(), stderr, stopped: Promise.resolve() })).toBe(2);
    expect(stderr.text).toContain(message);
    expect(stderr.text).toContain(`entry "${args[1]}"`);
  });
});
