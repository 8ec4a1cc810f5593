import { expect } from "@jest/globals";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { ALL_FLOWS, AML_ID, SIGNING_ID, bearer, call, signingForm, tokenFor, type Answer } from "./fixtures.js";
import { ManualClock } from "./manual-clock.js";

const CREATED_MS = 150;
const STEP_MS = 100;

let emulator: RunningEmulator;
let staging: string;
const clock = new ManualClock();

beforeAll(async () => {
  emulator = await startEmulator({ flows: ALL_FLOWS, createdMs: CREATED_MS, stepMs: STEP_MS, clock });
  staging = await tokenFor(emulator, "staging");
});
afterAll(() => emulator.close());

const api = (
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> => call(`${emulator.baseUrl}/api/v1${path}`, { ...init, headers: bearer(staging, init.headers) });

async function createAmlSession(subjectId = "cust-1"): Promise<string> {
  const answer = await api(`/flows/${AML_ID}/staging/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      input: { basicIdentity: { givenName: "Ada", birthDate: "1815-12-10" } },
      metadata: { subjectId },
    }),
  });
  expect(answer.status).toBe(201);
  return answer.json.sessionContext.sessionId;
}

/** Moves the clock past CREATED, START and the step without a ticket: the step then waits with one. */
async function ticketOf(sessionId: string): Promise<Answer> {
  clock.advance(CREATED_MS + 2 * STEP_MS);
  const step = await api(`/staging/sessions/${sessionId}/step`);
  expect(step.json.ticketId).toEqual(expect.any(String));
  return step;
}

const act = (sessionId: string, ticketId: string | undefined, body: unknown): Promise<Answer> =>
  api(`/staging/sessions/${sessionId}/actions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(ticketId === undefined ? {} : { "x-ticket-id": ticketId }) },
    body: JSON.stringify(body),
  });

describe("session life", () => {
  test("CREATED (step 400), then START, then the OTP step without and with a ticket, as the clock moves", async () => {
    const sessionId = await createAmlSession();
    const label = async (): Promise<string> => {
      const step = await api(`/staging/sessions/${sessionId}/step`);
      return step.status === 400
        ? `CREATED/${step.json.code}`
        : `${step.json.stepType}/${step.json.ticketId ? "ticket" : "null"}`;
    };
    const seen = [await label()];
    expect((await api(`/staging/sessions/${sessionId}`)).json.sessionStatus).toBe("CREATED");
    clock.advance(CREATED_MS - 1);
    seen.push(await label());
    clock.advance(1);
    seen.push(await label());
    clock.advance(STEP_MS);
    seen.push(await label());
    clock.advance(STEP_MS);
    seen.push(await label());
    expect(seen).toEqual([
      "CREATED/SESSION_NOT_RUNNING",
      "CREATED/SESSION_NOT_RUNNING",
      "START/null",
      "OTP_VERIFICATION:v1/null",
      "OTP_VERIFICATION:v1/ticket",
    ]);
    const step = await api(`/staging/sessions/${sessionId}/step`);
    expect(step.json.actions.map((action: { type: string }) => action.type)).toEqual(["VALIDATE_OTP", "RESEND_OTP"]);
    expect(step.json.actions[0]!.schema).toMatchObject({
      required: ["type", "code"],
      properties: { type: { const: "VALIDATE_OTP" } },
    });
    const session = await api(`/staging/sessions/${sessionId}`);
    expect(session.json).toMatchObject({ sessionStatus: "RUNNING", metadata: { subjectId: "cust-1" } });
    expect(session.json.outcome).toBeUndefined();
    expect(Date.parse(session.json.createdAt)).toBe(clock.now() - CREATED_MS - 2 * STEP_MS);
  });

  test("code 123456 accepts: stepType END, outcome ACCEPTED at the clock's time", async () => {
    const sessionId = await createAmlSession();
    const ticket = (await ticketOf(sessionId)).json.ticketId!;
    const answer = await act(sessionId, ticket, { type: "VALIDATE_OTP", code: "123456" });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ result: "CODE_ACCEPTED", step: { stepType: "END", ticketId: null } });
    expect((await api(`/staging/sessions/${sessionId}/step`)).json).toEqual({ stepType: "END", ticketId: null });
    const session = await api(`/staging/sessions/${sessionId}`);
    expect(session.json).toMatchObject({
      sessionStatus: "COMPLETED",
      outcome: { decision: "ACCEPTED" },
      metadata: { subjectId: "cust-1" },
    });
    expect(Date.parse(session.json.outcome!.decidedAt)).toBe(clock.now());
  });

  test("three wrong codes reject; every answer issues a new ticket; stale tickets are 400", async () => {
    const sessionId = await createAmlSession();
    let ticket = (await ticketOf(sessionId)).json.ticketId as string;
    const used: string[] = [ticket];
    for (const [attempt, left] of [
      [1, 2],
      [2, 1],
    ] as const) {
      const wrong = await act(sessionId, ticket, { type: "VALIDATE_OTP", code: "000000" });
      expect(wrong.json).toMatchObject({
        result: "CODE_REJECTED",
        attemptsLeft: left,
        step: { stepType: "OTP_VERIFICATION:v1" },
      });
      expect(used).not.toContain(wrong.json.step.ticketId);
      const stale = await act(sessionId, ticket, { type: "VALIDATE_OTP", code: "123456" });
      expect([attempt, stale.status, stale.json.code]).toEqual([attempt, 400, "TICKET_STALE"]);
      ticket = wrong.json.step.ticketId!;
      used.push(ticket);
    }
    const resent = await act(sessionId, ticket, { type: "RESEND_OTP" });
    expect(resent.json).toMatchObject({ result: "CODE_SENT", attemptsLeft: 1 });
    expect(resent.json.step.ticketId).not.toBe(ticket);
    const last = await act(sessionId, resent.json.step.ticketId!, { type: "VALIDATE_OTP", code: "999999" });
    expect(last.json).toMatchObject({
      result: "CODE_REJECTED",
      attemptsLeft: 0,
      step: { stepType: "END", ticketId: null },
    });
    expect((await api(`/staging/sessions/${sessionId}`)).json.outcome).toMatchObject({ decision: "REJECTED" });
    const after = await act(sessionId, resent.json.step.ticketId!, { type: "VALIDATE_OTP", code: "123456" });
    expect([after.status, after.json.code]).toEqual([400, "NO_ACTION_EXPECTED"]);
  });

  test.each([
    ["no x-ticket-id", undefined, { type: "VALIDATE_OTP", code: "123456" }, "TICKET_MISSING"],
    ["a five-digit code", "current", { type: "VALIDATE_OTP", code: "12345" }, "INVALID_ACTION"],
    ["a code with letters", "current", { type: "VALIDATE_OTP", code: "12345a" }, "INVALID_ACTION"],
    ["no code", "current", { type: "VALIDATE_OTP" }, "INVALID_ACTION"],
    ["an unknown type", "current", { type: "SKIP" }, "INVALID_ACTION"],
    ["an extra field", "current", { type: "RESEND_OTP", to: "x" }, "INVALID_ACTION"],
    ["a made-up ticket", "made-up", { type: "RESEND_OTP" }, "TICKET_STALE"],
  ])("an action with %s is 400", async (_name, ticket, body, code) => {
    const sessionId = await createAmlSession();
    const current = (await ticketOf(sessionId)).json.ticketId as string;
    const answer = await act(sessionId, ticket === "current" ? current : ticket, body);
    expect([answer.status, answer.json.code]).toEqual([400, code]);
    // A refused action leaves the ticket as it was.
    expect((await api(`/staging/sessions/${sessionId}/step`)).json.ticketId).toBe(current);
  });

  test("an action before the step waits is 400 NO_ACTION_EXPECTED; malformed JSON is 400", async () => {
    const sessionId = await createAmlSession();
    const early = await act(sessionId, "anything", { type: "RESEND_OTP" });
    expect([early.status, early.json.code]).toEqual([400, "NO_ACTION_EXPECTED"]);
    const broken = await api(`/staging/sessions/${sessionId}/actions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-ticket-id": "t" },
      body: "{nope",
    });
    expect([broken.status, broken.json.code]).toEqual([400, "MALFORMED_BODY"]);
  });

  test("two concurrent sessions are independent", async () => {
    const [first, second] = await Promise.all([createAmlSession("first"), createAmlSession("second")]);
    clock.advance(CREATED_MS + 2 * STEP_MS);
    const [ticketA, ticketB] = await Promise.all([
      api(`/staging/sessions/${first}/step`),
      api(`/staging/sessions/${second}/step`),
    ]);
    expect(ticketA.json.ticketId).not.toBe(ticketB.json.ticketId);
    const crossed = await act(first, ticketB.json.ticketId!, { type: "VALIDATE_OTP", code: "123456" });
    expect(crossed.json.code).toBe("TICKET_STALE");
    await act(first, ticketA.json.ticketId!, { type: "VALIDATE_OTP", code: "000000" });
    await act(second, ticketB.json.ticketId!, { type: "VALIDATE_OTP", code: "123456" });
    const [a, b] = await Promise.all([api(`/staging/sessions/${first}`), api(`/staging/sessions/${second}`)]);
    expect(a.json).toMatchObject({ sessionStatus: "RUNNING", metadata: { subjectId: "first" } });
    expect(a.json.outcome).toBeUndefined();
    expect(b.json).toMatchObject({
      sessionStatus: "COMPLETED",
      outcome: { decision: "ACCEPTED" },
      metadata: { subjectId: "second" },
    });
  });
});

describe("data blocks and files", () => {
  test("data blocks carry the input and UserReference; files are read back by vaultEntryId", async () => {
    const form = signingForm(0);
    form.append("input[documentsToSign][documents][][templateId]", "contract");
    form.append(
      "input[documentsToSign][documents][][source]",
      new Blob([Buffer.from("%PDF-1.7 hello")], { type: "application/pdf" }),
      "contract.pdf",
    );
    const created = await call(`${emulator.baseUrl}/api/v1/flows/${SIGNING_ID}/staging/sessions`, {
      method: "POST",
      headers: bearer(staging),
      body: form,
    });
    expect(created.status).toBe(201);
    const sessionId = created.json.sessionContext.sessionId;
    const blocks = await api(`/staging/sessions/${sessionId}/datablocks`);
    expect(blocks.json.dataBlocks).toEqual({
      UserReference: { subjectId: "cust-42" },
      basicIdentity: { givenName: "Ada", familyName: "Lovelace" },
      documentsToSign: {
        documents: [
          {
            templateId: "contract",
            source: {
              vaultEntryId: expect.any(String),
              filename: "contract.pdf",
              mediaType: "application/pdf",
              size: 14,
            },
          },
        ],
      },
    });
    const vaultEntryId = blocks.json.dataBlocks.documentsToSign.documents[0]!.source.vaultEntryId;
    const fileAnswer = await api(`/staging/files/${vaultEntryId}`);
    expect(fileAnswer.status).toBe(200);
    expect(fileAnswer.headers["content-type"]).toBe("application/pdf");
    expect(fileAnswer.text).toBe("%PDF-1.7 hello");
  });

  test("unknown sessions and files are 404; another environment's are not visible", async () => {
    for (const path of [
      "/staging/sessions/nope",
      "/staging/sessions/nope/datablocks",
      "/staging/sessions/nope/step",
      "/staging/files/nope",
    ]) {
      const answer = await api(path);
      expect([path, answer.status, answer.json.code]).toEqual([path, 404, "NOT_FOUND"]);
    }
    const sessionId = await createAmlSession();
    const live = await tokenFor(emulator, "live");
    const answer = await call(`${emulator.baseUrl}/api/v1/live/sessions/${sessionId}`, { headers: bearer(live) });
    expect(answer.status).toBe(404);
  });

  test("GET /api/v1/flows/{flowId}/{environment}/sessions lists the flow's sessions", async () => {
    const sessionId = await createAmlSession();
    const answer = await api(`/flows/${AML_ID}/staging/sessions`);
    expect(answer.status).toBe(200);
    expect(answer.json.sessions).toEqual(expect.arrayContaining([expect.objectContaining({ sessionId })]));
  });
});
