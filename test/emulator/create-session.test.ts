import { expect } from "@jest/globals";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { FormData } from "undici";
import {
  ALL_FLOWS,
  AML_ID,
  DOCS_ID,
  FILE_LIMIT,
  INDEXED_ID,
  JPEG,
  PNG,
  SIGNING_ID,
  bearer,
  call,
  signingForm,
  tokenFor,
  type Body,
} from "./fixtures.js";

let emulator: RunningEmulator;
let staging: string;
let live: string;
beforeAll(async () => {
  emulator = await startEmulator({ flows: ALL_FLOWS, createdMs: 50, stepMs: 50 });
  staging = await tokenFor(emulator, "staging");
  live = await tokenFor(emulator, "live");
});
afterAll(() => emulator.close());

const amlBody = (
  extra: Record<string, unknown> = {},
  metadata: Record<string, unknown> = { subjectId: "cust-1" },
): string =>
  JSON.stringify({ input: { basicIdentity: { givenName: "Ada", birthDate: "1815-12-10" } }, metadata, ...extra });

function post(flowId: string, environment: "staging" | "live", body: Body, headers: Record<string, string> = {}) {
  const token = environment === "staging" ? staging : live;
  return call(`${emulator.baseUrl}/api/v1/flows/${flowId}/${environment}/sessions`, {
    method: "POST",
    headers: bearer(token, headers),
    body,
  });
}
const JSON_TYPE = { "content-type": "application/json" };

function docsForm(front: { bytes: Buffer; type: string }, extra: [string, string][] = []): FormData {
  const form = new FormData();
  form.append("input[documentImages][documentType]", "BANK_STATEMENT");
  form.append("input[documentImages][frontSide]", new Blob([front.bytes], { type: front.type }), "front.img");
  form.append("metadata[subjectId]", "cust-7");
  for (const [name, value] of extra) form.append(name, value);
  return form;
}

describe("JSON bodies", () => {
  test("a valid body is 201 with the response of docs/service.md 2.3", async () => {
    const answer = await post(AML_ID, "staging", amlBody({}, { subjectId: "cust-1", locale: "fr" }), JSON_TYPE);
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({
      flowId: AML_ID,
      environment: "staging",
      flowVersion: 3,
      playerUrl: expect.stringMatching(/\/player\/[0-9a-f-]+\?token=[\w-]{20,}$/),
      sessionContext: { sessionId: expect.any(String), sessionStatus: "CREATED", createdAt: expect.any(String) },
      metadata: { subjectId: "cust-1", locale: "fr" },
    });
    const player = await call(answer.json.playerUrl);
    expect(player.status).toBe(200);
  });

  test.each([
    ["malformed JSON", '{"input":', "MALFORMED_BODY", "not valid JSON"],
    ["empty body", "", "MALFORMED_BODY", "not valid JSON"],
    ["an array", "[]", "VALIDATION_FAILED", "must be a JSON object"],
    [
      "missing metadata",
      JSON.stringify({ input: { basicIdentity: { givenName: "A", birthDate: "2000-01-01" } } }),
      "VALIDATION_FAILED",
      "metadata is required",
    ],
    ["missing subjectId", amlBody({}, {}), "VALIDATION_FAILED", "metadata.subjectId is required"],
    [
      "a wrong date",
      amlBody().replace("1815-12-10", "10.12.1815"),
      "VALIDATION_FAILED",
      'input.basicIdentity.birthDate must match format "date"',
    ],
    [
      "a name over 150 characters",
      amlBody().replace("Ada", "A".repeat(151)),
      "VALIDATION_FAILED",
      "input.basicIdentity.givenName must NOT have more than 150 characters",
    ],
    [
      "an unknown data block",
      JSON.stringify({
        input: { basicIdentity: { givenName: "A", birthDate: "2000-01-01" }, extra: {} },
        metadata: { subjectId: "x" },
      }),
      "VALIDATION_FAILED",
      "input.extra is not allowed",
    ],
    [
      "state over 2048 characters",
      amlBody({ state: "s".repeat(2049) }),
      "VALIDATION_FAILED",
      "state must NOT have more than 2048 characters",
    ],
    [
      "a metadata key other than subjectId and locale",
      amlBody({}, { subjectId: "x", email: "a@b.c" }),
      "METADATA_KEY_NOT_ALLOWED",
      '"email"',
    ],
    ["a locale the flow does not list", amlBody({}, { subjectId: "x", locale: "nl" }), "LOCALE_NOT_SUPPORTED", '"nl"'],
  ])("%s is 400", async (_name, body, code, fragment) => {
    const answer = await post(AML_ID, "staging", body, JSON_TYPE);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ status: 400, code });
    expect(answer.json.message).toContain(fragment);
  });

  test("a bad metadata key, a bad locale and a 3000-character state: one 400 naming all three (issue 20)", async () => {
    const answer = await post(
      AML_ID,
      "staging",
      amlBody({ state: "s".repeat(3000) }, { subjectId: "x", email: "a@b.c", locale: "nl" }),
      JSON_TYPE,
    );
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ status: 400, code: "METADATA_KEY_NOT_ALLOWED" });
    expect(answer.json.message).toMatch(
      /^3 problems: \(1\) metadata key "email" not allowed.* \(2\) metadata\.locale "nl" is not supported.* \(3\) invalid request: state must NOT have more than 2048 characters\.$/,
    );
    expect((answer.json.errors as readonly { path: string }[]).map((issue) => issue.path)).toEqual([
      "metadata.email",
      "metadata.locale",
      "state",
    ]);
  });

  test.each([
    ["no content type", {}],
    ["text/plain", { "content-type": "text/plain" }],
  ])("%s is 400 UNSUPPORTED_CONTENT_TYPE", async (_name, headers) => {
    const answer = await post(AML_ID, "staging", amlBody(), headers);
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe("UNSUPPORTED_CONTENT_TYPE");
  });

  test("a flow with files refuses JSON", async () => {
    const answer = await post(SIGNING_ID, "staging", "{}", JSON_TYPE);
    expect(answer.status).toBe(400);
    expect(answer.json.message).toContain("multipart/form-data only");
  });

  test("an unknown flow is 404", async () => {
    expect((await post("no-such-flow", "staging", amlBody(), JSON_TYPE)).status).toBe(404);
  });
});

describe("multipart bodies", () => {
  test("`[]` parts group into elements, files become vault references", async () => {
    const created = await post(SIGNING_ID, "staging", signingForm(2));
    expect(created.status).toBe(201);
    const blocks = await call(
      `${emulator.baseUrl}/api/v1/staging/sessions/${created.json.sessionContext.sessionId}/datablocks`,
      { headers: bearer(staging) },
    );
    expect(blocks.json.dataBlocks.documentsToSign.documents).toEqual([
      {
        templateId: "tpl-0",
        source: { vaultEntryId: expect.any(String), filename: "doc-0.pdf", mediaType: "application/pdf", size: 10 },
      },
      {
        templateId: "tpl-1",
        source: { vaultEntryId: expect.any(String), filename: "doc-1.pdf", mediaType: "application/pdf", size: 10 },
      },
    ]);
  });

  test("indexed part names fill the array by index", async () => {
    const form = new FormData();
    form.append("input[items][list][0][code]", "a");
    form.append("input[items][list][1][code]", "b");
    form.append("metadata[subjectId]", "x");
    const created = await post(INDEXED_ID, "staging", form);
    expect(created.status).toBe(201);
    const gap = new FormData();
    gap.append("input[items][list][2][code]", "a");
    gap.append("metadata[subjectId]", "x");
    const refused = await post(INDEXED_ID, "staging", gap);
    expect(refused.status).toBe(400);
    expect(refused.json.message).toContain("index 2 skips elements");
  });

  test.each([
    ["an undeclared part", [["input[basicIdentity][nickname]", "x"]], "UNKNOWN_PART", "input[basicIdentity][nickname]"],
    [
      "a metadata key other than subjectId and locale",
      [["metadata[email]", "a@b.c"]],
      "METADATA_KEY_NOT_ALLOWED",
      '"email"',
    ],
    ["a locale outside the flow's list", [["metadata[locale]", "xx"]], "LOCALE_NOT_SUPPORTED", '"xx"'],
    ["a scalar part sent twice", [["input[basicIdentity][givenName]", "again"]], "DUPLICATE_PART", "more than once"],
  ] as const)("%s is 400", async (_name, extra, code, fragment) => {
    const answer = await post(SIGNING_ID, "staging", signingForm(1, { extra: extra.map(([a, b]) => [a, b]) }));
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe(code);
    expect(answer.json.message).toContain(fragment);
  });

  test("a missing required part is 400 naming it", async () => {
    const form = new FormData();
    form.append("input[basicIdentity][givenName]", "Ada");
    form.append("metadata[subjectId]", "x");
    const answer = await post(SIGNING_ID, "staging", form);
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe("VALIDATION_FAILED");
    expect(answer.json.errors).toEqual(
      expect.arrayContaining([
        { path: "input.basicIdentity.familyName", message: "is required" },
        { path: "input.documentsToSign", message: "is required" },
      ]),
    );
  });

  test("a text value where the flow wants a file is 400", async () => {
    const form = docsForm({ bytes: JPEG, type: "image/jpeg" });
    form.append("input[documentImages][backSide]", "not a file");
    const answer = await post(DOCS_ID, "live", form);
    expect(answer.status).toBe(400);
    expect(answer.json.message).toContain("must be a file part");
  });

  test("images: JPEG and PNG pass; another media type or content that is not the image is 400", async () => {
    expect((await post(DOCS_ID, "live", docsForm({ bytes: JPEG, type: "image/jpeg" }))).status).toBe(201);
    expect(
      (await post(DOCS_ID, "live", docsForm({ bytes: PNG, type: "image/png" }, [["metadata[locale]", "de"]]))).status,
    ).toBe(201);
    const gif = await post(DOCS_ID, "live", docsForm({ bytes: Buffer.from("GIF89a"), type: "image/gif" }));
    expect([gif.status, gif.json.code]).toEqual([400, "UNSUPPORTED_FILE_TYPE"]);
    const fake = await post(DOCS_ID, "live", docsForm({ bytes: Buffer.from("%PDF-1.7 ....."), type: "image/jpeg" }));
    expect([fake.status, fake.json.code]).toEqual([400, "UNSUPPORTED_FILE_TYPE"]);
    expect(fake.json.message).toContain("not a JPEG image");
  });

  test("a file over its limit is 422 FILE_TOO_LARGE", async () => {
    const answer = await post(SIGNING_ID, "staging", signingForm(1, { fileBytes: FILE_LIMIT + 1 }));
    expect(answer.status).toBe(422);
    expect(answer.json).toMatchObject({ status: 422, code: "FILE_TOO_LARGE" });
    expect(answer.json.message).toContain(`${FILE_LIMIT} bytes`);
    expect((await post(SIGNING_ID, "staging", signingForm(1, { fileBytes: FILE_LIMIT }))).status).toBe(201);
  });

  test("30 files pass, 31 files are 400 TOO_MANY_FILES", async () => {
    expect((await post(SIGNING_ID, "staging", signingForm(30))).status).toBe(201);
    const answer = await post(SIGNING_ID, "staging", signingForm(31));
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe("TOO_MANY_FILES");
  });

  test("a multipart content type without a boundary is 400", async () => {
    const answer = await post(SIGNING_ID, "staging", "x", { "content-type": "multipart/form-data" });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe("MALFORMED_BODY");
  });

  test("a truncated multipart body is 400", async () => {
    const body = '--b\r\ncontent-disposition: form-data; name="metadata[subjectId]"\r\n\r\nx\r\n--b\r\ncontent-disp';
    const answer = await post(SIGNING_ID, "staging", body, { "content-type": "multipart/form-data; boundary=b" });
    expect(answer.status).toBe(400);
    expect(answer.json.code).toBe("MALFORMED_BODY");
  });
});
