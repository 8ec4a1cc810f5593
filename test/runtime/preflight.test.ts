import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RequestValidationError, type Client, type RequestValidationCode } from "../../runtime/index.js";
import { uploadOf } from "./support/platform.js";
import type { FlowSpec } from "../../runtime/flow-module.js";
import { clientFor } from "./support/clients.js";
import { createdSession, json, startFakeService, subjectIdOfJson, type FakeService } from "./support/fake-service.js";
import {
  AML_SPEC,
  amlValidator,
  acceptAll,
  createSession,
  imageSpec,
  SIGNING_SPEC,
  createSessionFor,
} from "./support/specs.js";

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const GIF = Buffer.from("GIF89a......");

let service: FakeService;
let staging: Client<"staging">;
let live: Client<"live">;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "flowsmith-preflight-"));
  service = await startFakeService();
  service.onApi((req, res, recorded) => {
    // Multipart bodies are not parsed here: their subjectId is read from the raw form text.
    const subjectId =
      subjectIdOfJson(recorded.body) ??
      /name="metadata\[subjectId\]"\r\n\r\n([^\r]*)/.exec(recorded.body.toString("latin1"))?.[1];
    json(res, 201, createdSession(req.url ?? "", subjectId));
  });
  staging = clientFor(service);
  live = clientFor<"live">(service, { environment: "live" });
});
afterAll(async () => {
  await Promise.all([staging.close(), live.close()]);
  await service.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  service.authRequests.length = 0;
  service.apiRequests.length = 0;
});

const amlRequest = (extra: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) => ({
  input: { basicIdentity: { givenName: "Ada", familyName: "Lovelace" } },
  metadata: { subjectId: "cust-42", ...metadata },
  ...extra,
});
const images = (front: unknown, back?: unknown, locale?: string) => ({
  input: { documentImages: { documentType: "ID_CARD", frontSide: front, ...(back ? { backSide: back } : {}) } },
  metadata: { subjectId: "s", ...(locale ? { locale } : {}) },
});
const docs = (count: number, source: () => unknown) => ({
  input: {
    documentsToSign: {
      documents: Array.from({ length: count }, (_, i) => ({ templateId: `t${String(i)}`, source: source() })),
    },
  },
  metadata: { subjectId: "s" },
});
const amlOnStaging = { ...AML_SPEC, environment: "staging" } as unknown as FlowSpec<"staging">;

/** [name, attempt, code, message, a path among the issues or ""] */
type Case = [string, () => Promise<unknown>, RequestValidationCode, RegExp, string];
const cases: Case[] = [
  [
    "a flow of the other environment",
    () => createSessionFor(staging, AML_SPEC as unknown as FlowSpec<"staging">, amlValidator, amlRequest()),
    "ENVIRONMENT_MISMATCH",
    /published to live, but the client belongs to staging/,
    "",
  ],
  [
    "a metadata key other than subjectId and locale",
    () => createSessionFor(live, AML_SPEC, amlValidator, amlRequest({}, { email: "a@b.c" })),
    "INVALID_METADATA",
    /remove "email"/,
    "metadata.email",
  ],
  [
    "a locale the flow does not list",
    () => createSessionFor(live, AML_SPEC, amlValidator, amlRequest({}, { locale: "fr" })),
    "UNSUPPORTED_LOCALE",
    /"fr" is not offered by flow aml-flow; it accepts en, de/,
    "metadata.locale",
  ],
  [
    "state over 2048 characters",
    () => createSessionFor(live, AML_SPEC, amlValidator, amlRequest({ state: "x".repeat(2049) })),
    "STATE_TOO_LONG",
    /2049 characters; at most 2048/,
    "state",
  ],
  [
    "a request the flow's validator rejects",
    () =>
      createSessionFor(live, AML_SPEC, amlValidator, {
        input: { basicIdentity: { givenName: "x".repeat(151) } },
        metadata: {},
      }),
    "VALIDATION_FAILED",
    /input\.basicIdentity\.familyName is required/,
    "input.basicIdentity.familyName",
  ],
  [
    "a value where a file belongs",
    () => createSession(staging, imageSpec(), images("not a file")),
    "VALIDATION_FAILED",
    /input\.documentImages\.frontSide must be a file/,
    "input.documentImages.frontSide",
  ],
  [
    "a file over the flow's maxLength",
    () => createSession(staging, imageSpec(8), images(JPEG)),
    "FILE_TOO_LARGE",
    /frontSide has 10 bytes; this flow accepts at most 8/,
    "input.documentImages.frontSide",
  ],
  [
    "a file over the 25 MB default",
    async () => {
      const path = join(dir, "big.pdf");
      await writeFile(path, "");
      await truncate(path, 26_214_401);
      const file = await uploadOf(path);
      return createSession(
        staging,
        SIGNING_SPEC,
        docs(1, () => file),
      );
    },
    "FILE_TOO_LARGE",
    /has 26214401 bytes; this flow accepts at most 26214400/,
    "input.documentsToSign.documents[0].source",
  ],
  [
    "a GIF where the flow asks for JPEG or PNG",
    () => createSession(staging, imageSpec(), images(JPEG, { data: GIF, filename: "back.gif" })),
    "UNSUPPORTED_MEDIA_TYPE",
    /backSide is not a JPEG or PNG image/,
    "input.documentImages.backSide",
  ],
  [
    "bytes that are not an image, named .jpg",
    () => createSession(staging, imageSpec(), images({ data: Buffer.from("%PDF-1.7"), filename: "front.jpg" })),
    "UNSUPPORTED_MEDIA_TYPE",
    /frontSide is not a/,
    "",
  ],
  [
    "a JPEG declared as PNG",
    () => createSession(staging, imageSpec(), images({ data: JPEG, contentType: "image/png" })),
    "UNSUPPORTED_MEDIA_TYPE",
    /declared as image\/png, but its bytes are image\/jpeg/,
    "",
  ],
  [
    "more than 30 files",
    () =>
      createSession(
        staging,
        SIGNING_SPEC,
        docs(31, () => Buffer.from("doc")),
      ),
    "TOO_MANY_FILES",
    /31 files; at most 30/,
    "",
  ],
  [
    "a body over 50 MB",
    async () => {
      const path = join(dir, "25mb.pdf");
      await writeFile(path, "");
      await truncate(path, 26_214_400);
      const file = await uploadOf(path);
      return createSession(
        staging,
        SIGNING_SPEC,
        docs(2, () => file),
      );
    },
    "REQUEST_TOO_LARGE",
    /would be \d+ bytes; the service accepts at most 52428800/,
    "",
  ],
  [
    "a JSON body over 50 MB",
    () => createSessionFor(live, AML_SPEC, acceptAll, amlRequest({ redirectUrl: "x".repeat(52_428_800) })),
    "REQUEST_TOO_LARGE",
    /at most 52428800/,
    "",
  ],
];

test.each(cases)("%s is refused before anything is sent", async (_name, attempt, code, message, path) => {
  const error = await attempt().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RequestValidationError);
  const validation = error as RequestValidationError;
  expect(validation.name).toBe("RequestValidationError");
  expect(validation.code).toBe(code);
  expect(validation.message).toMatch(message);
  if (path) expect(validation.issues.map((issue) => issue.path)).toContain(path);
  expect(service.authRequests).toHaveLength(0);
  expect(service.apiRequests).toHaveLength(0);
});

test("the checks give the most specific code first: metadata before the validator", async () => {
  const error = await createSessionFor(live, AML_SPEC, amlValidator, { metadata: { subjectId: "x", extra: 1 } }).catch(
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ code: "INVALID_METADATA" });
});

describe("every problem at once (issue 20)", () => {
  test("a bad metadata key, a bad locale and a 3000-character state: one error naming all three, each once", async () => {
    const error = (await createSessionFor(
      live,
      AML_SPEC,
      amlValidator,
      amlRequest({ state: "s".repeat(3000) }, { email: "a@b.c", locale: "xx" }),
    ).catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.code).toBe("INVALID_METADATA");
    expect(error.message).toBe(
      'The request has 3 problems: (1) metadata may only have subjectId and locale; remove "email". ' +
        '(2) metadata.locale "xx" is not offered by flow aml-flow; it accepts en, de. (3) state has 3000 characters; at most 2048 are allowed.',
    );
    expect(error.issues.map((issue) => issue.path)).toEqual(["metadata.email", "metadata.locale", "state"]);
    expect(service.apiRequests).toHaveLength(0);
  });

  test("the flow's validator's own findings join them, the paths already named left out", async () => {
    const request = {
      input: { basicIdentity: { givenName: "Ada" } },
      metadata: { subjectId: "s", locale: "fr", other: 1 },
    };
    const error = (await createSessionFor(live, AML_SPEC, amlValidator, request).catch(
      (e: unknown) => e,
    )) as RequestValidationError;
    expect(error.code).toBe("INVALID_METADATA");
    expect(error.message).toMatch(
      /^The request has 3 problems: \(1\) metadata may only have .* \(2\) metadata\.locale "fr" .* \(3\) Request is invalid: input\.basicIdentity\.familyName is required\.$/,
    );
    expect(error.issues.map((issue) => issue.path)).toEqual([
      "metadata.other",
      "metadata.locale",
      "input.basicIdentity.familyName",
    ]);
  });

  test("multipart: a bad locale, a file over the limit and one that is not an image, in one error", async () => {
    const error = (await createSession(
      staging,
      imageSpec(8),
      images(JPEG, { data: GIF, filename: "back.gif" }, "xx"),
    ).catch((e: unknown) => e)) as RequestValidationError;
    expect(error.code).toBe("UNSUPPORTED_LOCALE");
    expect(error.message).toMatch(
      /^The request has 4 problems: \(1\) metadata\.locale "xx" .* \(2\) input\.documentImages\.frontSide has 10 bytes; this flow accepts at most 8\. \(3\) input\.documentImages\.backSide has 12 bytes; .* \(4\) input\.documentImages\.backSide is not a JPEG or PNG image/,
    );
    expect(service.apiRequests).toHaveLength(0);
  });

  test("one problem reads as it always did", async () => {
    const error = (await createSessionFor(live, AML_SPEC, amlValidator, amlRequest({}, { locale: "fr" })).catch(
      (e: unknown) => e,
    )) as RequestValidationError;
    expect(error.message).toBe('metadata.locale "fr" is not offered by flow aml-flow; it accepts en, de');
  });
});

test("valid images pass: JPEG and PNG by their bytes, sent with the sniffed media type", async () => {
  await expect(
    createSession(staging, imageSpec(), images(new Blob([JPEG]), { data: PNG, filename: "back" })),
  ).resolves.toMatchObject({ sessionContext: { sessionId: "s-1" } });
  const body = service.apiRequests[0]?.body.toString("latin1") ?? "";
  expect(body).toContain('name="input[documentImages][frontSide]"; filename="file.jpg"\r\nContent-Type: image/jpeg');
  expect(body).toContain('name="input[documentImages][backSide]"; filename="back"\r\nContent-Type: image/png');
});

test("a valid JSON request is sent as application/json, body as given", async () => {
  const request = amlRequest({ state: "x".repeat(2048) }, { locale: "de" });
  await createSessionFor(live, AML_SPEC, amlValidator, request);
  const [sent] = service.apiRequests;
  expect(sent?.method).toBe("POST");
  expect(sent?.url).toBe("/api/v1/flows/aml-flow/live/sessions");
  expect(sent?.headers["content-type"]).toBe("application/json");
  expect(JSON.parse(sent?.body.toString() ?? "")).toEqual(request);
});

test("the environment check also holds when the spec is forced past the types", async () => {
  await expect(createSession(staging, amlOnStaging, amlRequest())).resolves.toBeDefined();
  const error = await createSessionFor(live, amlOnStaging as never, acceptAll, amlRequest()).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: "ENVIRONMENT_MISMATCH" });
});
