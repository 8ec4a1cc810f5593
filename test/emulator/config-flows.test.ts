import { expect } from "@jest/globals";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { FormData } from "undici";
import { run as runEmulator } from "../../cli/commands/emulator.js";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { JPEG, aml, bearer, call, sleep, tokenFor, type ReadyLine } from "./fixtures.js";

const SIGNING_ID = "6f1c2a9e-3b7d-4e58-9c41-0a2d7e5b8f13";
const DOCS_ID = "2d8e4b17-90af-4c3e-b6d2-5e7f1a0c9b34";
const AML_ID = "a41f0c6d-5e2b-47c9-8d13-b9e60f27c8a5";

describe("the repository's flows (codegen.config.json, read through the generator's model)", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ configPath: "codegen.config.json", createdMs: 10, stepMs: 10 });
  });
  afterAll(() => emulator.close());

  test("lists flows per environment and serves each description", async () => {
    const staging = await tokenFor(emulator, "staging");
    const flows = await call(`${emulator.baseUrl}/api/v1/flows/staging`, { headers: bearer(staging) });
    expect(flows.json.flows.map((flow: { id: string }) => flow.id).sort()).toEqual([AML_ID, SIGNING_ID].sort());
    const description = await call(`${emulator.baseUrl}/api/v1/flows/${SIGNING_ID}/staging/openapi`, {
      headers: bearer(staging),
    });
    expect(description.json).toMatchObject({
      openapi: "3.0.3",
      info: { "x-flow-id": SIGNING_ID, "x-environment": "staging" },
    });
  });

  test("signing: the declared `[]` part names create a session", async () => {
    const staging = await tokenFor(emulator, "staging");
    const form = new FormData();
    form.append("input[basicIdentity][givenName]", "Ada");
    form.append("input[basicIdentity][familyName]", "Lovelace");
    form.append("input[documentsToSign][documents][][templateId]", "t1");
    form.append(
      "input[documentsToSign][documents][][source]",
      new Blob(["%PDF"], { type: "application/pdf" }),
      "a.pdf",
    );
    form.append("metadata[subjectId]", "cust-1");
    const answer = await call(`${emulator.baseUrl}/api/v1/flows/${SIGNING_ID}/staging/sessions`, {
      method: "POST",
      headers: bearer(staging),
      body: form,
    });
    expect(answer.status).toBe(201);
  });

  test("document verification: the description's 10 MB maxLength gives 422, its locales 400", async () => {
    const live = await tokenFor(emulator, "live");
    const post = (front: Buffer, locale = "en") => {
      const form = new FormData();
      form.append("input[documentImages][documentType]", "BANK_STATEMENT");
      form.append("input[documentImages][frontSide]", new Blob([front], { type: "image/jpeg" }), "front.jpg");
      form.append("metadata[subjectId]", "cust-1");
      form.append("metadata[locale]", locale);
      return call(`${emulator.baseUrl}/api/v1/flows/${DOCS_ID}/live/sessions`, {
        method: "POST",
        headers: bearer(live),
        body: form,
      });
    };
    const tooLarge = await post(Buffer.concat([JPEG, Buffer.alloc(10_485_760)]));
    expect([tooLarge.status, tooLarge.json.code]).toEqual([422, "FILE_TOO_LARGE"]);
    const french = await post(JPEG, "fr");
    expect([french.status, french.json.code]).toEqual([400, "LOCALE_NOT_SUPPORTED"]);
    expect((await post(JPEG, "de")).status).toBe(201);
  });

  test("an upload cut off midway does not take the emulator down", async () => {
    const staging = await tokenFor(emulator, "staging");
    const url = new URL(emulator.baseUrl);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(
      [
        `POST /api/v1/flows/${SIGNING_ID}/staging/sessions HTTP/1.1`,
        `host: ${url.host}`,
        "user-agent: cut-off-test",
        `authorization: Bearer ${staging}`,
        "content-type: multipart/form-data; boundary=b",
        "content-length: 100000",
        "",
        '--b\r\ncontent-disposition: form-data; name="input[documentsToSign][documents][][source]"; filename="a.pdf"\r\ncontent-type: application/pdf\r\n\r\n%PDF-partial',
      ].join("\r\n"),
    );
    await sleep(50);
    socket.destroy();
    await sleep(50);
    const answer = await call(`${emulator.baseUrl}/api/v1/flows/${AML_ID}/staging/sessions`, {
      method: "POST",
      headers: bearer(staging, { "content-type": "application/json" }),
      body: JSON.stringify({
        input: { basicIdentity: { givenName: "A", familyName: "B", birthDate: "2000-01-01" } },
        metadata: { subjectId: "x" },
      }),
    });
    expect(answer.status).toBe(201);
  });
});

describe("flowsmith emulator (CLI)", () => {
  const capture = () => {
    let text = "";
    return {
      write: (chunk: string) => (text += chunk),
      get text() {
        return text;
      },
    };
  };

  test("prints one JSON ready line, serves, and stops with exit code 0", async () => {
    const stdout = capture();
    const stderr = capture();
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const exit = runEmulator(
      [
        "--config",
        "codegen.config.json",
        "--created-ms",
        "5",
        "--step-ms",
        "5",
        "--max-sessions",
        "50",
        "--webhook-secret",
        "whsec_c2VjcmV0LWZvci10ZXN0cy10aGlydHktdHdvLWJ5dGVzLWxvbmc=",
      ],
      { stdout, stderr, stopped },
    );
    for (let i = 0; i < 500 && !stdout.text.includes("\n"); i++) await sleep(10);
    const ready = JSON.parse(stdout.text) as ReadyLine;
    expect(ready).toEqual({
      baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      authUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      clients: {
        staging: { clientId: "staging-client", clientSecret: "staging-secret" },
        live: { clientId: "live-client", clientSecret: "live-secret" },
      },
    });
    expect(ready.baseUrl).not.toBe(ready.authUrl);
    expect(stdout.text.split("\n")).toHaveLength(2);
    expect(stdout.text).not.toContain("whsec_");
    const token = await tokenFor(ready, "live");
    expect((await call(`${ready.baseUrl}/api/v1/flows/live`, { headers: bearer(token) })).json.flows).toEqual([
      expect.objectContaining({ id: DOCS_ID }),
    ]);
    stop();
    expect(await exit).toBe(0);
    expect(stderr.text).toBe("");
  });

  test("FLOWSMITH_WEBHOOK_SECRET is read when --webhook-secret is not given; a malformed one is a usage error naming the variable, not its value", async () => {
    const stdout = capture();
    const stderr = capture();
    const env = { FLOWSMITH_WEBHOOK_SECRET: "whsec_not base64 hunter2" };
    expect(
      await runEmulator(["--config", "codegen.config.json"], { stdout, stderr, stopped: Promise.resolve(), env }),
    ).toBe(2);
    expect(stderr.text).toContain("FLOWSMITH_WEBHOOK_SECRET must be a Standard Webhooks secret");
    expect(stderr.text).not.toContain("hunter2");
    expect(stdout.text).toBe("");
    // The flag wins over the variable: the same bad variable is not read.
    const flagged = capture();
    const flaggedErrors = capture();
    const args = [
      "--config",
      "codegen.config.json",
      "--webhook-secret",
      "whsec_c2VjcmV0LWZvci10ZXN0cy10aGlydHktdHdvLWJ5dGVzLWxvbmc=",
    ];
    expect(await runEmulator(args, { stdout: flagged, stderr: flaggedErrors, stopped: Promise.resolve(), env })).toBe(
      0,
    );
    expect(flaggedErrors.text).toBe("");
  });

  test.each([
    [["--api-port", "abc"], 2, "--api-port must be a whole number"],
    [["--nope"], 2, "Unknown option"],
    [["--config", "missing.json"], 1, "config file not found"],
    [["--max-sessions", "many"], 2, "--max-sessions must be a whole number"],
    // A bad flag value is a usage error (2), found before the config is read.
    [["--config", "codegen.config.json", "--max-sessions", "0"], 2, "--max-sessions must be a whole number >= 1"],
    [
      ["--config", "codegen.config.json", "--webhook-secret", "hunter2"],
      2,
      "--webhook-secret must be a Standard Webhooks secret",
    ],
    [
      ["--config", "codegen.config.json", "--api-port", "99999"],
      2,
      "--api-port must be a port number from 0 (any free port) to 65535",
    ],
    [
      ["--config", "codegen.config.json", "--webhook-url", "ftp://example.test/hook"],
      2,
      "--webhook-url must be an absolute http(s) URL",
    ],
  ])("%j exits %d with a message", async (args, code, message) => {
    const stdout = capture();
    const stderr = capture();
    expect(await runEmulator(args, { stdout, stderr, stopped: Promise.resolve() })).toBe(code);
    expect(stderr.text).toContain(message);
    expect(stderr.text).not.toContain("hunter2");
    expect(stdout.text).toBe("");
  });
});

test("startEmulator refuses a webhookUrl that is not http(s), before listening", async () => {
  await expect(startEmulator({ flows: [], webhookUrl: "ftp://example.test/hook" })).rejects.toThrow(
    'webhookUrl must be an absolute http(s) URL, got "ftp://example.test/hook"',
  );
});

describe("one version per flow and environment", () => {
  test("a config with two entries of the same x-flow-id and x-environment is refused at start, naming both entries and files", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "flowsmith-duplicate-"));
    try {
      const document = readFileSync("flows/aml-screening.yaml", "utf8");
      writeFileSync(path.join(dir, "aml-v3.yaml"), document);
      writeFileSync(path.join(dir, "aml-v4.yaml"), document.replace(/x-flow-version: \d+/, "x-flow-version: 8"));
      const flows = [
        { name: "aml-v3", source: { file: "aml-v3.yaml" } },
        { name: "aml-v4", source: { file: "aml-v4.yaml" } },
      ];
      writeFileSync(path.join(dir, "codegen.config.json"), JSON.stringify({ outputDir: "generated", flows }));
      const error = await startEmulator({ configPath: path.join(dir, "codegen.config.json") }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ name: "CodegenError", code: "DUPLICATE_FLOW" });
      const message = (error as Error).message;
      for (const part of [
        'entry "aml-v3" (aml-v3.yaml, version 7)',
        'entry "aml-v4" (aml-v4.yaml, version 8)',
        `flow "${AML_ID}" in staging`,
      ])
        expect(message).toContain(part);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("so are two flows given programmatically; the same id in the other environment is fine", async () => {
    const v4 = { ...aml, name: "aml-v4", version: 4, source: { file: "flows/aml-v4.yaml", sha256: "1".repeat(64) } };
    await expect(startEmulator({ flows: [aml, v4] })).rejects.toMatchObject({
      code: "DUPLICATE_FLOW",
      message: expect.stringContaining(
        'entry "aml" (flows/aml.yaml, version 3) and entry "aml-v4" (flows/aml-v4.yaml, version 4)',
      ),
    });
    const live = { ...v4, environment: "live" as const, path: v4.path.replace("/staging/", "/live/") };
    const emulator = await startEmulator({ flows: [aml, live] });
    await emulator.close();
  });
});
