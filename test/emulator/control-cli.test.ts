/**
 * The scenarios, the control API, webhook URLs and --watch of the emulator
 * as users start it (`flowsmith emulator`, a process of its own, the built
 * dist/), over real HTTP with curl's requests. Its clock is the real one:
 * sessions are made to end at once (--created-ms 0 --step-ms 0), and waits
 * for what happens beside the API (webhooks, reloads) are bounded.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "@jest/globals";
import { bearer, call, tokenFor, type Answer } from "./fixtures.js";
import { runChildEmulatorToExit, startChildEmulator, type ChildEmulator } from "./child-emulator.js";
import { Receiver, settledWebhook } from "./webhook-receiver.js";
import type { WebhookRecord } from "../../emulator/index.js";

const REPO = path.join(__dirname, "..", "..");
const AML_YAML = readFileSync(path.join(REPO, "flows", "aml-screening.yaml"), "utf8");
const AML_ID = "a41f0c6d-5e2b-47c9-8d13-b9e60f27c8a5";
const SIGNING_ID = "6f1c2a9e-3b7d-4e58-9c41-0a2d7e5b8f13";
const versioned = (version: number): string =>
  AML_YAML.replace('version: "7"', `version: "${String(version)}"`).replace(
    "x-flow-version: 7",
    `x-flow-version: ${String(version)}`,
  );
const LATE_MS = 300;

type Target = Pick<ChildEmulator, "baseUrl" | "authUrl" | "clients">;

const control = (
  emulator: Target,
  route: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> =>
  call(`${emulator.baseUrl}/__emulator/${route}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", ...init.headers },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });

async function createAml(emulator: Target, token: string, subjectId: string): Promise<string> {
  const answer = await call(`${emulator.baseUrl}/api/v1/flows/${AML_ID}/staging/sessions`, {
    method: "POST",
    headers: bearer(token, { "content-type": "application/json" }),
    body: JSON.stringify({
      input: { basicIdentity: { givenName: "Ada", familyName: "Lovelace", birthDate: "1815-12-10" } },
      metadata: { subjectId },
    }),
  });
  expect(answer.status).toBe(201);
  return answer.json.sessionContext.sessionId;
}

describe("flowsmith emulator with two webhook URLs", () => {
  const receivers = [new Receiver(), new Receiver()] as const;
  let urls: string[];
  let child: ChildEmulator;
  let token: string;

  beforeAll(async () => {
    urls = await Promise.all(receivers.map((receiver) => receiver.listen()));
    child = await startChildEmulator([
      "--created-ms",
      "0",
      "--step-ms",
      "0",
      "--late-webhook-ms",
      String(LATE_MS),
      ...urls.flatMap((url) => ["--webhook-url", url]),
    ]);
    token = await tokenFor(child, "staging");
  });
  afterAll(async () => {
    await child.stop();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  /** The child's webhook log, read over HTTP. */
  const settled = (sessionId: string): Promise<WebhookRecord> =>
    settledWebhook({ webhooks: async () => [...(await control(child, "webhooks")).json.webhooks] }, sessionId);
  const session = async (sessionId: string): Promise<Answer> =>
    call(`${child.baseUrl}/api/v1/staging/sessions/${sessionId}`, { headers: bearer(token) });
  const step = async (sessionId: string): Promise<Answer> =>
    call(`${child.baseUrl}/api/v1/staging/sessions/${sessionId}/step`, { headers: bearer(token) });

  test("every scenario plays as its table row says", async () => {
    const ids = Object.fromEntries(
      await Promise.all(
        [
          "test_accepted_cli",
          "test_rejected_cli",
          "test_never_ends_cli",
          "test_webhook_duplicate_cli",
          "test_webhook_late_cli",
          "test_webhook_lost_cli",
          "cust-cli",
        ].map(async (subject) => [subject, await createAml(child, token, subject)] as const),
      ),
    );
    expect((await session(ids.test_accepted_cli!)).json.outcome?.decision).toBe("ACCEPTED");
    expect((await session(ids.test_rejected_cli!)).json.outcome?.decision).toBe("REJECTED");
    expect((await step(ids.test_never_ends_cli!)).json).toEqual({ stepType: "START", ticketId: null });
    expect((await step(ids["cust-cli"]!)).json).toMatchObject({
      stepType: "OTP_VERIFICATION:v1",
      ticketId: expect.any(String),
    });

    const once = await settled(ids.test_accepted_cli!);
    expect(once).toMatchObject({ delivery: "once", decision: "ACCEPTED", attempts: [{ status: 204 }] });
    const twice = await settled(ids.test_webhook_duplicate_cli!);
    expect(twice.attempts.map((attempt) => ("status" in attempt ? attempt.status : attempt.error))).toEqual([204, 204]);
    expect(new Set(twice.attempts.map((attempt) => attempt.target))).toEqual(new Set(urls));
    const late = await settled(ids.test_webhook_late_cli!);
    const decidedAt = Date.parse((await session(ids.test_webhook_late_cli!)).json.outcome!.decidedAt);
    expect(Date.parse(late.attempts[0]!.at) - decidedAt).toBeGreaterThanOrEqual(LATE_MS);
    expect(await settled(ids.test_webhook_lost_cli!)).toMatchObject({ delivery: "never", attempts: [] });
    expect(
      (await control(child, "webhooks")).json.webhooks.some((event) => event.sessionId === ids.test_never_ends_cli),
    ).toBe(false);
    // 2 (accepted, rejected) + 2 copies + 1 late: every POST went to one of the two receivers.
    expect(receivers[0].unread + receivers[1].unread).toBe(5);
    for (const receiver of receivers) while (receiver.unread > 0) await receiver.next();
  });

  test("every control endpoint: faults, requests, webhooks, flows, reset", async () => {
    const added = await control(child, "faults", {
      method: "POST",
      body: JSON.stringify({
        method: "GET",
        path: "/api/v1/flows/staging",
        status: 429,
        headers: { "retry-after": "1" },
      }),
    });
    expect(added.status).toBe(201);
    expect((await control(child, "faults")).json.faults).toEqual([
      expect.objectContaining({ id: added.json.id, timesLeft: 1 }),
    ]);
    const start = (await control(child, "requests")).json.next;
    const limited = await call(`${child.baseUrl}/api/v1/flows/staging`, { headers: bearer(token) });
    expect([limited.status, limited.headers["retry-after"]]).toEqual([429, "1"]);
    expect((await control(child, `requests?since=${String(start)}`)).json.requests).toEqual([
      expect.objectContaining({
        host: "api",
        method: "GET",
        path: "/api/v1/flows/staging",
        status: 429,
        fault: added.json.id,
      }),
    ]);
    await control(child, "faults", { method: "POST", body: JSON.stringify({ path: "/x", status: 500 }) });
    expect((await control(child, "faults", { method: "DELETE" })).json).toEqual({ cleared: 1 });
    expect(
      (await control(child, "faults", { method: "POST", body: JSON.stringify({ path: "/x", times: -1, status: 500 }) }))
        .json.field,
    ).toBe("times");

    const published = await control(child, "flows", {
      method: "POST",
      headers: { "content-type": "application/yaml" },
      body: versioned(8),
    });
    expect(published.json).toEqual({ flowId: AML_ID, environment: "staging", flowVersion: 8, previousVersion: 7 });
    expect((await control(child, "flows", { method: "POST", body: "openapi: [" })).json).toMatchObject({
      code: "INVALID_FLOW",
      generator: { code: "SYNTAX_ERROR" },
    });

    expect((await control(child, "reset", { method: "POST" })).json).toEqual({ reset: true });
    expect((await control(child, "requests")).json.requests).toEqual([]);
    expect((await control(child, "webhooks")).json.webhooks).toEqual([]);
    expect((await call(`${child.baseUrl}/api/v1/flows/staging`, { headers: bearer(token) })).json.code).toBe(
      "TOKEN_INVALID",
    );
    token = await tokenFor(child, "staging");
    const flows = (await call(`${child.baseUrl}/api/v1/flows/staging`, { headers: bearer(token) })).json.flows;
    expect(flows.find((flow) => flow.id === AML_ID)?.version).toBe(8);
  });
});

describe("who may call the CLI's control API", () => {
  test("--no-control: /__emulator/ is not there", async () => {
    const child = await startChildEmulator(["--no-control"]);
    try {
      expect((await control(child, "requests")).status).toBe(404);
    } finally {
      await child.stop();
    }
  });

  test("a non-loopback --host without a control token is a usage error naming both ways out", async () => {
    const { code, stdout, stderr } = await runChildEmulatorToExit(["--host", "0.0.0.0"], {
      env: { FLOWSMITH_CONTROL_TOKEN: "" },
    });
    expect([code, stdout]).toEqual([2, ""]);
    expect(stderr).toContain(
      "the control API (/__emulator/) would be open to the network on host 0.0.0.0: set --control-token (or FLOWSMITH_CONTROL_TOKEN), or turn it off with --no-control",
    );
  });

  test("with FLOWSMITH_CONTROL_TOKEN it starts on 0.0.0.0, and every control call needs the token", async () => {
    const secret = "cli-control-token-0123456789";
    const child = await startChildEmulator(["--host", "0.0.0.0"], { env: { FLOWSMITH_CONTROL_TOKEN: secret } });
    try {
      expect((await control(child, "requests")).status).toBe(401);
      expect((await control(child, "requests", { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
    } finally {
      await child.stop();
    }
  });
});

describe("flowsmith emulator --watch", () => {
  let dir: string;
  let child: ChildEmulator;
  let token: string;
  const writeConfig = (names: readonly string[]): void => {
    writeFileSync(
      path.join(dir, "codegen.config.json"),
      JSON.stringify({ outputDir: "out", flows: names.map((name) => ({ name, source: { file: `${name}.yaml` } })) }),
    );
  };
  const servedVersion = async (): Promise<number | undefined> =>
    (await call(`${child.baseUrl}/api/v1/flows/staging`, { headers: bearer(token) })).json.flows.find(
      (flow) => flow.id === AML_ID,
    )?.version;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "flowsmith-watch-"));
    writeFileSync(path.join(dir, "aml.yaml"), AML_YAML);
    writeFileSync(path.join(dir, "signing.yaml"), readFileSync(path.join(REPO, "flows", "signing.yaml")));
    writeConfig(["aml", "signing"]);
    child = await startChildEmulator(["--config", path.join(dir, "codegen.config.json"), "--watch"]);
    token = await tokenFor(child, "staging");
  });
  afterAll(async () => {
    await child.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a changed description is published as a new version, with one line saying so", async () => {
    writeFileSync(path.join(dir, "aml.yaml"), versioned(8));
    // Matched by what it must say: an editor's save may come as two events, and a second reload says "unchanged".
    expect(await child.nextStderrLine(/ v8/)).toBe(
      `flowsmith emulator: reloaded: changed ${AML_ID} (staging) v8, 1 unchanged`,
    );
    expect(await servedVersion()).toBe(8);
  });

  test("an invalid description is refused with the reason, and the previous set is kept", async () => {
    writeFileSync(path.join(dir, "aml.yaml"), "openapi: [3.0.3\n");
    expect(await child.nextStderrLine(/refused/)).toMatch(
      /^flowsmith emulator: reload refused, still serving the previous flows: .*aml\.yaml/,
    );
    expect(await servedVersion()).toBe(8);
    writeFileSync(path.join(dir, "aml.yaml"), versioned(9));
    expect(await child.nextStderrLine(/ v9/)).toBe(
      `flowsmith emulator: reloaded: changed ${AML_ID} (staging) v9, 1 unchanged`,
    );
  });

  test("a flow taken out of the config is withdrawn; the others are unchanged", async () => {
    writeConfig(["aml"]);
    expect(await child.nextStderrLine(/removed/)).toBe(
      `flowsmith emulator: reloaded: removed ${SIGNING_ID} (staging) v1, 1 unchanged`,
    );
    expect(
      (await call(`${child.baseUrl}/api/v1/flows/staging`, { headers: bearer(token) })).json.flows.map(
        (flow) => flow.id,
      ),
    ).toEqual([AML_ID]);
  });
});
