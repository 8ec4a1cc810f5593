/**
 * Faults over the control API (POST, GET, DELETE /__emulator/faults), on a
 * started emulator over real HTTP: what they match, what they do to the
 * requests they match, and how bad fault bodies are refused, field by field.
 * How the runtime copes with them is in faults-runtime.test.ts.
 */
import { expect } from "@jest/globals";
import { EmulatorControlError, startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { systemClock } from "../../emulator/clock.js";
import { MAX_FAULTS, type FaultSpec } from "../../emulator/faults.js";
import { Traffic } from "../../emulator/traffic.js";
import { ALL_FLOWS, AML_ID, bearer, call, tokenFor, type Answer } from "./fixtures.js";
import { ManualClock } from "./manual-clock.js";

const clock = new ManualClock();
let emulator: RunningEmulator;
let token: string;

beforeAll(async () => {
  emulator = await startEmulator({ flows: ALL_FLOWS, createdMs: 0, stepMs: 0, clock });
  token = await tokenFor(emulator, "staging");
});
afterEach(() => {
  emulator.clearFaults();
});
afterAll(() => emulator.close());

const control = (path: string, init: { method?: string; body?: unknown } = {}): Promise<Answer> =>
  call(`${emulator.baseUrl}/__emulator/${path}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json" },
    ...(init.body !== undefined ? { body: typeof init.body === "string" ? init.body : JSON.stringify(init.body) } : {}),
  });
const addFault = async (fault: Record<string, unknown>): Promise<string> => {
  const answer = await control("faults", { method: "POST", body: fault });
  expect(answer.status).toBe(201);
  return answer.json.id;
};
const api = (
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> => call(`${emulator.baseUrl}/api/v1${path}`, { ...init, headers: bearer(token, init.headers) });
const createBody = JSON.stringify({
  input: { basicIdentity: { givenName: "Ada", birthDate: "1815-12-10" } },
  metadata: { subjectId: "cust-1" },
});
const createSession = (): Promise<Answer> =>
  api(`/flows/${AML_ID}/staging/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: createBody,
  });

describe("a fault", () => {
  test("answers its status, headers and body instead of the endpoint, `times` times, then stops", async () => {
    const id = await addFault({
      host: "api",
      method: "GET",
      path: "/api/v1/flows/staging",
      times: 2,
      status: 429,
      headers: { "retry-after": "1" },
      body: { slow: "down" },
    });
    expect(id).toMatch(/^fault_\d+$/);
    for (const timesLeft of [1, 0]) {
      const answer = await api("/flows/staging");
      expect([answer.status, answer.headers["retry-after"], answer.json]).toEqual([429, "1", { slow: "down" }]);
      expect((await control("faults")).json.faults.map((fault) => fault.timesLeft)).toEqual(
        timesLeft > 0 ? [timesLeft] : [],
      );
    }
    expect((await api("/flows/staging")).status).toBe(200);
  });

  test("without a body answers the emulator's error body naming the fault; a string body is sent as it is", async () => {
    const id = await addFault({ path: "/api/v1/flows/staging", status: 503 });
    expect((await api("/flows/staging")).json).toEqual({
      status: 503,
      code: "INJECTED_FAULT",
      message: `answered by ${id} (POST /__emulator/faults)`,
    });
    await addFault({
      path: "/api/v1/flows/staging",
      status: 502,
      body: "<html>bad gateway</html>",
      headers: { "content-type": "text/html" },
    });
    const answer = await api("/flows/staging");
    expect([answer.status, answer.headers["content-type"], answer.text]).toEqual([
      502,
      "text/html",
      "<html>bad gateway</html>",
    ]);
  });

  test("a JSON body that is null, false or 0 is sent as that JSON, as GET /faults lists it", async () => {
    for (const body of [null, false, 0]) {
      await addFault({ path: "/api/v1/flows/staging", status: 200, body });
      expect((await control("faults")).json.faults.map((fault) => fault.body)).toEqual([body]);
      const answer = await api("/flows/staging");
      expect([answer.status, answer.headers["content-type"], answer.text]).toEqual([
        200,
        "application/json; charset=utf-8",
        JSON.stringify(body),
      ]);
    }
  });

  test("`*` matches one whole segment; method and host must match when given", async () => {
    const created = await createSession();
    const sessionId = created.json.sessionContext.sessionId;
    await addFault({ method: "GET", path: "/api/v1/staging/sessions/*", status: 500, times: 10 });
    expect((await api(`/staging/sessions/${sessionId}`)).status).toBe(500);
    expect((await api(`/staging/sessions/${sessionId}/step`)).status).toBe(200);
    expect((await api(`/staging/sessions/${sessionId}`, { method: "POST" })).status).toBe(405);
    emulator.clearFaults();
    await addFault({ host: "auth", path: "/api/v1/flows/staging", status: 500 });
    expect((await api("/flows/staging")).status).toBe(200);
  });

  test("applies to the auth host: a token request answered 503", async () => {
    await addFault({ host: "auth", method: "POST", path: "/oidc/token", status: 503 });
    await expect(tokenFor(emulator, "staging")).rejects.toThrow("token request failed: 503");
    await expect(tokenFor(emulator, "staging")).resolves.toEqual(expect.any(String));
  });

  test("faults are tried in the order they were added; the first that matches is used", async () => {
    const first = await addFault({ path: "/api/v1/flows/*", status: 502 });
    const second = await addFault({ path: "/api/v1/flows/staging", status: 503 });
    expect((await api("/flows/staging")).status).toBe(502);
    expect((await api("/flows/staging")).status).toBe(503);
    expect(
      emulator
        .requests()
        .requests.slice(-2)
        .map((entry) => entry.fault),
    ).toEqual([first, second]);
  });

  test("delayMs holds the request for that long on the emulator's clock, then it is processed", async () => {
    await addFault({ path: "/api/v1/flows/staging", delayMs: 5000 });
    let answered = false;
    const pending = api("/flows/staging").then((answer) => {
      answered = true;
      return answer;
    });
    await clock.timerScheduled();
    clock.advance(4999);
    expect(answered).toBe(false);
    clock.advance(1);
    expect((await pending).status).toBe(200);
  });

  test('reset "before": the connection is dropped and nothing is processed', async () => {
    const id = await addFault({ method: "POST", path: `/api/v1/flows/${AML_ID}/staging/sessions`, reset: "before" });
    const before = (await api(`/flows/${AML_ID}/staging/sessions`)).json.sessions.length;
    await expect(createSession()).rejects.toThrow();
    expect((await api(`/flows/${AML_ID}/staging/sessions`)).json.sessions).toHaveLength(before);
    const entry = emulator.requests().requests.find((candidate) => candidate.fault === id);
    expect(entry).toMatchObject({ method: "POST", status: null, dropped: true });
  });

  test('reset "after": the session is created, the client gets no answer, the journal shows the 201 it never got', async () => {
    const id = await addFault({ method: "POST", path: `/api/v1/flows/${AML_ID}/staging/sessions`, reset: "after" });
    const before = (await api(`/flows/${AML_ID}/staging/sessions`)).json.sessions.length;
    await expect(createSession()).rejects.toThrow();
    expect((await api(`/flows/${AML_ID}/staging/sessions`)).json.sessions).toHaveLength(before + 1);
    expect(emulator.requests().requests.find((candidate) => candidate.fault === id)).toMatchObject({
      status: 201,
      dropped: true,
    });
  });
});

describe("the faults endpoint", () => {
  test("GET lists the active faults with what is left of them; DELETE clears them and says how many", async () => {
    await addFault({ path: "/a/*", status: 500, times: 3 });
    await addFault({ host: "auth", method: "post", path: "/oidc/token", reset: "after", delayMs: 10 });
    expect((await control("faults")).json.faults).toEqual([
      {
        id: expect.any(String),
        host: "api",
        method: null,
        path: "/a/*",
        timesLeft: 3,
        status: 500,
        headers: {},
        delayMs: 0,
        reset: null,
      },
      {
        id: expect.any(String),
        host: "auth",
        method: "POST",
        path: "/oidc/token",
        timesLeft: 1,
        status: null,
        headers: {},
        delayMs: 10,
        reset: "after",
      },
    ]);
    expect((await control("faults", { method: "DELETE" })).json).toEqual({ cleared: 2 });
    expect((await control("faults")).json.faults).toEqual([]);
  });

  const refused: [string, unknown, string][] = [
    ["not an object", [1], "(body)"],
    ["an unknown field", { path: "/x", status: 500, statuss: 1 }, "statuss"],
    ["no path", { status: 500 }, "path"],
    ["a relative path", { path: "api/v1", status: 500 }, "path"],
    ["a path with a query", { path: "/x?y=1", status: 500 }, "path"],
    ["a partial wildcard", { path: "/api/v1/sess*", status: 500 }, "path"],
    ["a control path, which would never apply", { path: "/__emulator/requests", status: 500 }, "path"],
    ["an unknown host", { host: "player", path: "/x", status: 500 }, "host"],
    ["a method that is no token", { method: "GET /", path: "/x", status: 500 }, "method"],
    ["times 0", { path: "/x", status: 500, times: 0 }, "times"],
    ["times 1.5", { path: "/x", status: 500, times: 1.5 }, "times"],
    ["a status below 200", { path: "/x", status: 101 }, "status"],
    ["a status as a string", { path: "/x", status: "500" }, "status"],
    ["nothing to do", { path: "/x" }, "status"],
    ["status and reset", { path: "/x", status: 500, reset: "after" }, "reset"],
    ["an unknown reset", { path: "/x", reset: "during" }, "reset"],
    ["headers without status", { path: "/x", reset: "before", headers: { a: "b" } }, "headers"],
    ["a body without status", { path: "/x", delayMs: 1, body: {} }, "body"],
    [
      "a header value that is a number",
      { path: "/x", status: 429, headers: { "retry-after": 1 } },
      "headers.retry-after",
    ],
    [
      "a header with a line break",
      { path: "/x", status: 429, headers: { "x-a": "1\r\nset-cookie: a=b" } },
      "headers.x-a",
    ],
    ["a framing header", { path: "/x", status: 200, headers: { "Content-Length": "5" } }, "headers.Content-Length"],
    ...["transfer-encoding", "Trailer", "te", "connection", "keep-alive", "proxy-connection", "upgrade"].map(
      (name): [string, unknown, string] => [
        `the header ${name}, the emulator's to set`,
        { path: "/x", status: 200, headers: { [name]: "x-foo" } },
        `headers.${name}`,
      ],
    ),
    ["a header name that is no token", { path: "/x", status: 200, headers: { "x a": "1" } }, "headers.x a"],
    ["an empty header name", { path: "/x", status: 200, headers: { "": "1" } }, "headers."],
    ["a header value beyond Latin-1", { path: "/x", status: 200, headers: { "x-price": "5 €" } }, "headers.x-price"],
    ["a header value with a NUL", { path: "/x", status: 200, headers: { "x-a": "a\u0000b" } }, "headers.x-a"],
    ["a negative delay", { path: "/x", delayMs: -1 }, "delayMs"],
    ["a delay over 10 minutes", { path: "/x", delayMs: 600_001 }, "delayMs"],
  ];
  test.each(refused)("refuses %s: 400 INVALID_FIELD naming the field", async (_name, fault, field) => {
    const answer = await control("faults", { method: "POST", body: fault });
    expect([answer.status, answer.json.code, answer.json.field]).toEqual([400, "INVALID_FIELD", field]);
    expect(answer.json.message).toMatch(new RegExp(`^${field.replace(/[.()]/g, "\\$&")}: `));
    expect(() => emulator.addFault(fault as never)).toThrow(EmulatorControlError);
    expect(emulator.faults()).toEqual([]);
  });

  test("refuses a body that is not JSON (400 MALFORMED_BODY) and more than MAX_FAULTS faults (409 TOO_MANY_FAULTS)", async () => {
    expect((await control("faults", { method: "POST", body: "{path:" })).json.code).toBe("MALFORMED_BODY");
    for (let i = 0; i < MAX_FAULTS; i++) emulator.addFault({ path: `/x/${String(i)}`, status: 500 });
    const answer = await control("faults", { method: "POST", body: { path: "/y", status: 500 } });
    expect([answer.status, answer.json.code]).toEqual([409, "TOO_MANY_FAULTS"]);
    expect(emulator.clearFaults()).toEqual({ cleared: MAX_FAULTS });
  });
});

describe("a fault's answer that node refuses to write", () => {
  // fault-input.ts refuses such headers; a spec given to the store directly is the net under that check.
  const spec: FaultSpec = {
    host: "api",
    method: undefined,
    path: "/hooks",
    times: 2,
    status: 200,
    headers: { trailer: "x-foo" },
    body: { ok: true },
    delayMs: 0,
    reset: undefined,
  };
  let traffic: Traffic;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    traffic = new Traffic(systemClock);
    server = createServer(traffic.observe("api", (_req, res) => res.writeHead(204).end()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test("is answered 500 naming the fault, with or without a request body, and the server goes on", async () => {
    const { id } = traffic.faults.add(spec);
    for (const init of [{ method: "POST", body: "a body read to its end first" }, { method: "GET" }]) {
      const answer = await call(`${base}/hooks`, init);
      expect([answer.status, answer.json.code, answer.headers.trailer]).toEqual([500, "INTERNAL_ERROR", undefined]);
      expect(answer.json.message).toContain(`${id} could not be answered as given`);
    }
    expect((await call(`${base}/hooks`)).status).toBe(204);
    expect(traffic.journal.read().requests.map((entry) => [entry.status, entry.fault])).toEqual([
      [500, id],
      [500, id],
      [204, null],
    ]);
  });
});
