import { existsSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { ALL_FLOWS, AML_ID, SIGNING_ID, bearer, call, signingForm, sleep, tokenFor, type Answer } from "./fixtures.js";
import { ManualClock } from "./manual-clock.js";

describe("maxSessions", () => {
  const clock = new ManualClock();
  let emulator: RunningEmulator;
  let token: string;
  beforeAll(async () => {
    emulator = await startEmulator({ flows: ALL_FLOWS, createdMs: 10, stepMs: 10, maxSessions: 3, clock });
    token = await tokenFor(emulator, "staging");
  });
  afterAll(() => emulator.close());

  const api = (
    route: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Answer> => call(`${emulator.baseUrl}/api/v1${route}`, { ...init, headers: bearer(token, init.headers) });
  const createAml = async (): Promise<string> => {
    const answer = await api(`/flows/${AML_ID}/staging/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        input: { basicIdentity: { givenName: "Ada", birthDate: "1815-12-10" } },
        metadata: { subjectId: "x" },
      }),
    });
    expect(answer.status).toBe(201);
    return answer.json.sessionContext.sessionId;
  };
  const statusOf = async (sessionId: string): Promise<number> => (await api(`/staging/sessions/${sessionId}`)).status;

  test("past the cap, the session that ended longest ago goes first, then the oldest; an evicted session's files are deleted", async () => {
    const withFile = await call(`${emulator.baseUrl}/api/v1/flows/${SIGNING_ID}/staging/sessions`, {
      method: "POST",
      headers: bearer(token),
      body: signingForm(1),
    });
    expect(withFile.status).toBe(201);
    const oldest = withFile.json.sessionContext.sessionId;
    const blocks = await api(`/staging/sessions/${oldest}/datablocks`);
    const vaultEntryId = blocks.json.dataBlocks.documentsToSign.documents[0]!.source.vaultEntryId;
    const stored = storedFile(vaultEntryId);
    expect(stored && existsSync(stored)).toBe(true);

    const endsFirst = await createAml();
    const running = await createAml();
    clock.advance(100);
    const ticketId = (await api(`/staging/sessions/${endsFirst}/step`)).json.ticketId!;
    const ended = await api(`/staging/sessions/${endsFirst}/actions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-ticket-id": ticketId },
      body: JSON.stringify({ type: "VALIDATE_OTP", code: "123456" }),
    });
    expect(ended.json.step.stepType).toBe("END");

    // A fourth session: the ended one is evicted, although the one with a file is older.
    const fourth = await createAml();
    expect([
      await statusOf(oldest),
      await statusOf(endsFirst),
      await statusOf(running),
      await statusOf(fourth),
    ]).toEqual([200, 404, 200, 200]);
    const gone = await api(`/staging/sessions/${endsFirst}`);
    expect(gone.json.message).toContain("evicted to stay within maxSessions of 3");

    // A fifth: none has ended, so the oldest goes, with its file.
    const fifth = await createAml();
    expect([await statusOf(oldest), await statusOf(running), await statusOf(fourth), await statusOf(fifth)]).toEqual([
      404, 200, 200, 200,
    ]);
    expect((await api(`/staging/files/${vaultEntryId}`)).status).toBe(404);
    // The file is deleted in the background: bounded at 5 s, which a loaded machine still meets; usually one pass.
    for (let attempt = 0; attempt < 500 && existsSync(stored!); attempt++) await sleep(10);
    expect(existsSync(stored!)).toBe(false);
    expect((await api(`/flows/${AML_ID}/staging/sessions`)).json.sessions).toHaveLength(3);
  });
});

describe("tokens expire and are dropped", () => {
  test("an expired token is 401 TOKEN_EXPIRED for an hour, then unknown (TOKEN_INVALID): it was dropped", async () => {
    const clock = new ManualClock();
    const emulator = await startEmulator({ flows: ALL_FLOWS, tokenTtlSeconds: 60, clock });
    try {
      const token = await tokenFor(emulator, "staging");
      const flows = () => call(`${emulator.baseUrl}/api/v1/flows/staging`, { headers: bearer(token) });
      clock.advance(59_999);
      expect((await flows()).status).toBe(200);
      clock.advance(1);
      expect([(await flows()).status, (await flows()).json.code]).toEqual([401, "TOKEN_EXPIRED"]);
      clock.advance(3_600_000);
      expect((await flows()).json.code).toBe("TOKEN_INVALID");
      const fresh = await tokenFor(emulator, "staging");
      expect((await call(`${emulator.baseUrl}/api/v1/flows/staging`, { headers: bearer(fresh) })).status).toBe(200);
    } finally {
      await emulator.close();
    }
  });

  test("past maxTokens unexpired tokens, the oldest is dropped", async () => {
    const emulator = await startEmulator({ flows: ALL_FLOWS, maxTokens: 2 });
    try {
      const [first, second, third] = [
        await tokenFor(emulator, "staging"),
        await tokenFor(emulator, "staging"),
        await tokenFor(emulator, "live"),
      ];
      const codes = await Promise.all(
        [
          [first, "staging"],
          [second, "staging"],
          [third, "live"],
        ].map(async ([token, environment]) => {
          const answer = await call(`${emulator.baseUrl}/api/v1/flows/${environment}`, { headers: bearer(token!) });
          return answer.json.code ?? answer.status;
        }),
      );
      expect(codes).toEqual(["TOKEN_INVALID", 200, 200]);
    } finally {
      await emulator.close();
    }
  });

  test.each([
    [{ maxSessions: 0 }, "maxSessions must be a whole number >= 1, got 0"],
    [{ maxTokens: 1.5 }, "maxTokens must be a whole number >= 1, got 1.5"],
  ])("%j is refused at start", async (options, message) => {
    await expect(startEmulator({ flows: ALL_FLOWS, ...options })).rejects.toThrow(message);
  });
});

/** Where the vault keeps a file: a folder of this machine's temp dir named for the emulator. */
function storedFile(vaultEntryId: string): string | undefined {
  for (const folder of readdirSync(tmpdir()).filter((name) => name.startsWith("flowsmith-emulator-"))) {
    const candidate = path.join(tmpdir(), folder, vaultEntryId);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
