/**
 * The control API's other endpoints over real HTTP (the journal, the webhook
 * log, reset, publishing a flow), who may call it (token, loopback, off),
 * and the same through the handle's methods. Faults: control-faults.test.ts.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@jest/globals";
import { EmulatorControlError, startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { FlowCatalog, MAX_FLOWS } from "../../emulator/flow-catalog.js";
import { MAX_ENTRIES, RequestJournal } from "../../emulator/journal.js";
import { MAX_EVENTS, WebhookLog } from "../../emulator/webhook-log.js";
import { aml, bearer, call, tokenFor, type Answer } from "./fixtures.js";
import { ManualClock } from "./manual-clock.js";
import { Receiver, settledWebhook } from "./webhook-receiver.js";

const REPO = path.join(__dirname, "..", "..");
const AML_YAML = readFileSync(path.join(REPO, "flows", "aml-screening.yaml"), "utf8");
const AML_ID = "a41f0c6d-5e2b-47c9-8d13-b9e60f27c8a5";
/** The AML screening sample as the dashboard would publish its next version. */
const AML_V8 = AML_YAML.replace('version: "7"', 'version: "8"').replace("x-flow-version: 7", "x-flow-version: 8");
const CREATE_BODY = JSON.stringify({
  input: { basicIdentity: { givenName: "Ada", familyName: "Lovelace", birthDate: "1815-12-10" } },
  metadata: { subjectId: "cust-1" },
});

const clock = new ManualClock();
const receiver = new Receiver();
let emulator: RunningEmulator;
let token: string;

beforeAll(async () => {
  // The config's flows (flows/*.yaml), so a published description replaces one of them.
  emulator = await startEmulator({
    configPath: path.join(REPO, "codegen.config.json"),
    createdMs: 0,
    stepMs: 0,
    clock,
    webhookUrl: await receiver.listen(),
    lateWebhookMs: 1000,
  });
  token = await tokenFor(emulator, "staging");
});
afterAll(async () => {
  await emulator.close();
  await receiver.close();
});

const control = (
  route: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> =>
  call(`${emulator.baseUrl}/__emulator/${route}`, {
    method: init.method ?? "GET",
    ...(init.headers ? { headers: init.headers } : {}),
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
const api = (
  route: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> => call(`${emulator.baseUrl}/api/v1${route}`, { ...init, headers: bearer(token, init.headers) });
const createAml = (subjectId = "cust-1"): Promise<Answer> =>
  api(`/flows/${AML_ID}/staging/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: CREATE_BODY.replace("cust-1", subjectId),
  });

describe("GET /__emulator/requests", () => {
  test("each request to either host, oldest first: host, method, path, status, at, request id; never a body, a header or a query", async () => {
    const start = (await control("requests")).json.next;
    const created = await createAml();
    const sessionId = created.json.sessionContext.sessionId;
    const player = created.json.playerUrl;
    expect((await call(player)).status).toBe(200);
    await api("/flows/nope/staging/sessions", { headers: { "x-request-id": "my-request-1" } });
    const page = (await control(`requests?since=${String(start)}`)).json;
    expect(page.requests).toEqual([
      {
        index: start,
        at: new Date(clock.now()).toISOString(),
        host: "api",
        method: "POST",
        path: `/api/v1/flows/${AML_ID}/staging/sessions`,
        status: 201,
        requestId: expect.stringMatching(/^req_/),
        fault: null,
        dropped: false,
      },
      {
        index: start + 1,
        at: expect.any(String),
        host: "api",
        method: "GET",
        path: `/player/${sessionId}`,
        status: 200,
        requestId: expect.any(String),
        fault: null,
        dropped: false,
      },
      {
        index: start + 2,
        at: expect.any(String),
        host: "api",
        method: "GET",
        path: "/api/v1/flows/nope/staging/sessions",
        status: 404,
        requestId: "my-request-1",
        fault: null,
        dropped: false,
      },
    ]);
    expect(page.next).toBe(start + 3);
    expect(created.headers["x-request-id"]).toBe(page.requests[0]!.requestId);
    const text = JSON.stringify((await control("requests")).json);
    for (const secret of [
      token,
      emulator.clients.staging.clientSecret,
      new URL(player).searchParams.get("token")!,
      "Lovelace",
    ])
      expect(text).not.toContain(secret);
  });

  test("the auth host's requests are there too; control calls are not", async () => {
    const start = emulator.requests().next;
    await tokenFor(emulator, "staging");
    await control("faults");
    await control("webhooks");
    expect(emulator.requests(start).requests).toEqual([
      expect.objectContaining({ host: "auth", method: "POST", path: "/oidc/token", status: 200 }),
    ]);
  });

  test.each([["-1"], ["1.5"], ["x"], ["99999999999999999999"]])(
    "?since=%s is refused, naming the field",
    async (since) => {
      const answer = await control(`requests?since=${since}`);
      expect([answer.status, answer.json.code, answer.json.field]).toEqual([400, "INVALID_FIELD", "since"]);
    },
  );

  test(`the journal keeps the last ${String(MAX_ENTRIES)} entries; indices keep counting past the cap and a reset`, () => {
    const journal = new RequestJournal();
    const entry = {
      at: "",
      host: "api",
      method: "GET",
      path: "/",
      status: 200,
      requestId: "r",
      fault: null,
      dropped: false,
    } as const;
    for (let i = 0; i < MAX_ENTRIES + 5; i++) journal.add(entry);
    const all = journal.read();
    expect([all.requests.length, all.requests[0]!.index, all.next]).toEqual([MAX_ENTRIES, 5, MAX_ENTRIES + 5]);
    expect(journal.read(MAX_ENTRIES + 3).requests.map((kept) => kept.index)).toEqual([
      MAX_ENTRIES + 3,
      MAX_ENTRIES + 4,
    ]);
    journal.clear();
    journal.add(entry);
    expect(journal.read()).toEqual({ requests: [{ ...entry, index: MAX_ENTRIES + 5 }], next: MAX_ENTRIES + 6 });
  });
});

describe("GET /__emulator/webhooks", () => {
  test("each event with its webhook-id, how it is delivered, and every attempt's target and status", async () => {
    receiver.statuses = [500];
    const sessionId = (await createAml("test_accepted_hooks")).json.sessionContext.sessionId;
    clock.advance(0);
    const first = await receiver.next();
    await clock.timerScheduled();
    clock.advance(200);
    await receiver.next();
    await settledWebhook(emulator, sessionId);
    const event = (await control("webhooks")).json.webhooks.find((candidate) => candidate.sessionId === sessionId);
    expect(event).toEqual({
      webhookId: first.headers["webhook-id"],
      type: "session.ended",
      sessionId,
      decision: "ACCEPTED",
      delivery: "once",
      attempts: [
        { target: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/), at: expect.any(String), status: 500 },
        { target: expect.stringMatching(/\/hooks$/), at: expect.any(String), status: 204 },
      ],
      pending: false,
      attemptsNotListed: 0,
    });
    expect(emulator.webhooks()).toEqual((await control("webhooks")).json.webhooks);
  });
});

describe("POST /__emulator/flows", () => {
  test("publishes a new version as the dashboard would: served from now on; sessions made before keep theirs", async () => {
    const before = (await createAml()).json.sessionContext.sessionId;
    const answer = await control("flows", {
      method: "POST",
      headers: { "content-type": "application/yaml" },
      body: AML_V8,
    });
    expect([answer.status, answer.json]).toEqual([
      201,
      { flowId: AML_ID, environment: "staging", flowVersion: 8, previousVersion: 7 },
    ]);
    expect((await api("/flows/staging")).json.flows.find((flow) => flow.id === AML_ID)?.version).toBe(8);
    const after = (await createAml()).json.sessionContext.sessionId;
    expect((await api(`/staging/sessions/${before}`)).json.flowVersion).toBe(7);
    expect((await api(`/staging/sessions/${after}`)).json.flowVersion).toBe(8);
    const sessions = (await api(`/flows/${AML_ID}/staging/sessions`)).json.sessions.map((session) => session.sessionId);
    expect(sessions).toEqual(expect.arrayContaining([before, after]));
    expect((await api(`/flows/${AML_ID}/staging/openapi`)).json).toMatchObject({ info: { "x-flow-version": 8 } });
  });

  test("takes JSON too, and a flow id not served yet is added; the handle's publishFlow takes the document", async () => {
    const document = JSON.parse(
      JSON.stringify((await api(`/flows/${AML_ID}/staging/openapi`)).json).replaceAll(AML_ID, "b-new-flow"),
    ) as object;
    const answer = await control("flows", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(document),
    });
    expect(answer.json).toEqual({
      flowId: "b-new-flow",
      environment: "staging",
      flowVersion: 8,
      previousVersion: null,
    });
    expect(emulator.publishFlow(document)).toEqual({
      flowId: "b-new-flow",
      environment: "staging",
      flowVersion: 8,
      previousVersion: 8,
    });
  });

  const invalid: [string, string, string][] = [
    ["not YAML", "openapi: [3.0.3\n", "SYNTAX_ERROR"],
    ["Swagger 2.0", 'swagger: "2.0"\ninfo: {title: x, version: "1"}\npaths: {}\n', "NOT_OPENAPI_3"],
    [
      "an OpenAPI document that is no flow description",
      AML_YAML.replace(/^ {2}x-flow-id:.*\n/m, ""),
      "NOT_A_FLOW_DESCRIPTION",
    ],
    [
      "a path that is not the flow's",
      AML_YAML.replace(`/api/v1/flows/${AML_ID}/staging/sessions:`, "/api/v1/flows/other/staging/sessions:"),
      "PATH_MISMATCH",
    ],
  ];
  test.each(invalid)(
    "refuses %s with the generator's own error, and keeps serving what it served",
    async (_name, body, code) => {
      const served = (await api("/flows/staging")).json.flows;
      const answer = await control("flows", { method: "POST", body });
      expect([answer.status, answer.json.code, answer.json.generator?.code]).toEqual([400, "INVALID_FLOW", code]);
      expect(answer.json.message).toBe(`not published: ${answer.json.generator!.message}`);
      expect((await api("/flows/staging")).json.flows).toEqual(served);
      expect(() => emulator.publishFlow(body)).toThrow(EmulatorControlError);
    },
  );
});

describe("deep, odd and large control bodies", () => {
  test("a deep description is refused before it is read (400 BODY_TOO_DEEP, saying where), other calls answered meanwhile; nothing changes", async () => {
    const served = (await api("/flows/staging")).json.flows;
    // Many tokens before the deep part, so the check runs for many turns of the event loop.
    const body = `x-padding:\n${"  - {a: [1, 'two']}\n".repeat(20_000)}x-deep: ${"[".repeat(100_000)}`;
    const order: string[] = [];
    const publishing = control("flows", { method: "POST", body }).then((answer) => {
      order.push("publish");
      return answer;
    });
    // Client and emulator share this event loop: the GET needs a few turns, the check of the padding many more.
    const listing = control("faults").then((answer) => {
      order.push("faults");
      return answer;
    });
    const [published, listed] = await Promise.all([publishing, listing]);
    expect([published.status, published.json.code]).toEqual([400, "BODY_TOO_DEEP"]);
    expect(published.json.message).toMatch(
      /^the body nests more than 400 levels deep \(at line 20002, column \d+\); it is refused before it is read/,
    );
    expect([listed.status, order]).toEqual([200, ["faults", "publish"]]);
    expect((await api("/flows/staging")).json.flows).toEqual(served);
    expect(() => emulator.publishFlow("[".repeat(500))).toThrow(
      expect.objectContaining({ name: "EmulatorControlError", code: "BODY_TOO_DEEP" }),
    );
  });

  test("a description whose keys are collections is refused before it is read (400 BODY_KEY_NOT_A_NAME), at once", async () => {
    const answer = await control("flows", { method: "POST", body: `${"? ".repeat(300)}x` });
    expect([answer.status, answer.json.code]).toEqual([400, "BODY_KEY_NOT_A_NAME"]);
    expect(answer.json.message).toBe(
      "the key at line 1, column 3 is a collection or an alias; it is refused before it is read (the keys of a flow description are names)",
    );
  });

  test("a deep fault is refused the same way, before it is parsed", async () => {
    const fault = `{"path": "/x", "status": 200, "body": ${"[".repeat(100_000)}`;
    const answer = await control("faults", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: fault,
    });
    expect([answer.status, answer.json.code]).toEqual([400, "BODY_TOO_DEEP"]);
    expect(emulator.faults()).toEqual([]);
  });

  test("a description over 1 MiB is refused while it arrives (413 REQUEST_TOO_LARGE)", async () => {
    const answer = await control("flows", { method: "POST", body: `x: ${"a".repeat(1024 * 1024)}` });
    expect([answer.status, answer.json.code]).toEqual([413, "REQUEST_TOO_LARGE"]);
  });
});

describe("bounds", () => {
  test(`the webhook log keeps the last ${String(MAX_EVENTS)} events, and at most 100 attempts of each`, () => {
    const log = new WebhookLog();
    const event = (n: number) =>
      ({
        webhookId: `msg_${String(n)}`,
        type: "session.ended",
        sessionId: `s${String(n)}`,
        decision: "ACCEPTED",
        delivery: "once",
      }) as const;
    const first = log.open(event(0), true);
    for (let i = 0; i < 150; i++) first.attempted({ target: "http://127.0.0.1/hooks", at: "", status: 500 });
    expect(log.list()[0]).toMatchObject({ pending: true, attemptsNotListed: 50 });
    expect(log.list()[0]!.attempts).toHaveLength(100);
    for (let i = 1; i <= MAX_EVENTS; i++) log.open(event(i), false);
    const kept = log.list();
    expect([kept.length, kept[0]!.webhookId, kept.at(-1)!.webhookId]).toEqual([
      MAX_EVENTS,
      "msg_1",
      `msg_${String(MAX_EVENTS)}`,
    ]);
  });

  test(`at most ${String(MAX_FLOWS)} flows are served: a new id past it is 409 TOO_MANY_FLOWS, a new version of a served one is fine`, () => {
    const catalog = FlowCatalog.createOrThrow([]);
    const flowOf = (n: number) => ({
      model: { ...aml, id: `flow-${String(n)}`, path: `/api/v1/flows/flow-${String(n)}/staging/sessions` },
    });
    for (let i = 0; i < MAX_FLOWS; i++) catalog.publish(flowOf(i));
    expect(() => catalog.publish(flowOf(MAX_FLOWS))).toThrow(expect.objectContaining({ code: "TOO_MANY_FLOWS" }));
    expect(catalog.publish(flowOf(0))).toMatchObject({ flowId: "flow-0", previousVersion: aml.version });
  });
});

describe("POST /__emulator/reset", () => {
  test("clears sessions, tokens, journal, faults and pending webhooks; keeps flows, published ones too", async () => {
    const sessionId = (await createAml()).json.sessionContext.sessionId;
    const late = (await createAml("test_webhook_late_reset")).json.sessionContext.sessionId;
    clock.advance(0);
    expect(emulator.webhooks().find((event) => event.sessionId === late)).toMatchObject({ pending: true });
    emulator.addFault({ path: "/nowhere", status: 500 });
    const flows = (await api("/flows/staging")).json.flows;
    const next = emulator.requests().next;

    expect((await control("reset", { method: "POST" })).json).toEqual({ reset: true });

    expect(clock.pendingTimers).toBe(0);
    expect(emulator.webhooks()).toEqual([]);
    expect(emulator.faults()).toEqual([]);
    expect(emulator.requests()).toEqual({ requests: [], next });
    expect((await api("/flows/staging")).json.code).toBe("TOKEN_INVALID");
    token = await tokenFor(emulator, "staging");
    expect((await api(`/staging/sessions/${sessionId}`)).status).toBe(404);
    expect((await api("/flows/staging")).json.flows).toEqual(flows);
    clock.advance(60_000);
    expect(receiver.unread).toBe(0);
  });
});

describe("the control API's own answers", () => {
  test("an unknown control path is 404, a wrong method 405 with Allow", async () => {
    expect((await control("nothing")).status).toBe(404);
    const wrong = await control("reset");
    expect([wrong.status, wrong.headers.allow]).toEqual([405, "POST"]);
    expect((await control("faults", { method: "PUT" })).headers.allow).toBe("POST, GET, DELETE");
  });
});

describe("who may call it", () => {
  const TOKEN = "control-token-0123456789";

  test("with a controlToken, every control call needs it (Bearer), compared whole", async () => {
    const guarded = await startEmulator({ flows: [], controlToken: TOKEN });
    try {
      const calls: [Record<string, string>, number][] = [
        [{}, 401],
        [{ authorization: `Bearer ${TOKEN.slice(0, -1)}` }, 401],
        [{ authorization: `Bearer ${TOKEN}x` }, 401],
        [{ authorization: `Basic ${TOKEN}` }, 401],
        [{ authorization: `Bearer ${TOKEN}` }, 200],
      ];
      for (const [headers, status] of calls) {
        const answer = await call(`${guarded.baseUrl}/__emulator/requests`, { headers });
        expect(answer.status).toBe(status);
        if (status === 401)
          expect([answer.json.code, answer.text.includes(TOKEN)]).toEqual(["CONTROL_TOKEN_REQUIRED", false]);
      }
      expect((await call(`${guarded.baseUrl}/__emulator/nothing`)).status).toBe(401);
    } finally {
      await guarded.close();
    }
  });

  test("a call from a web page (Origin header) is refused, whatever it asks", async () => {
    for (const [route, method] of [
      ["reset", "POST"],
      ["faults", "DELETE"],
      ["requests", "GET"],
    ] as const) {
      const answer = await control(route, { method, headers: { origin: "http://evil.example.test" } });
      expect([answer.status, answer.json.code]).toEqual([403, "CONTROL_FROM_BROWSER"]);
    }
  });

  test("bound to a non-loopback host it does not start without a token, and says what to do; a short token is refused unechoed", async () => {
    await expect(startEmulator({ flows: [], host: "0.0.0.0" })).rejects.toThrow(
      "the control API (/__emulator/) would be open to the network on host 0.0.0.0: set emulator option controlToken (--control-token), or turn it off with control: false (--no-control)",
    );
    await expect(startEmulator({ flows: [], controlToken: "short-secret" })).rejects.toThrow(
      /^emulator option controlToken \(--control-token\) must be at least 16 characters/,
    );
    await expect(startEmulator({ flows: [], controlToken: "short-secret" })).rejects.not.toThrow("short-secret");
    for (const host of ["::1", "localhost", "127.0.0.2"]) {
      const loopback = await startEmulator({ flows: [], host });
      await loopback.close();
    }
  });

  test("off (control: false), /__emulator/ is a path like any other (404, journaled); the handle's methods still work", async () => {
    const off = await startEmulator({ flows: [], control: false });
    try {
      const answer = await call(`${off.baseUrl}/__emulator/requests`);
      expect([answer.status, answer.json.code]).toEqual([404, "NOT_FOUND"]);
      expect(off.requests().requests).toEqual([expect.objectContaining({ path: "/__emulator/requests", status: 404 })]);
      expect(off.addFault({ path: "/x", status: 500 }).id).toEqual(expect.any(String));
    } finally {
      await off.close();
    }
  });
});
