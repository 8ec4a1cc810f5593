import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { MAX_REQUEST_BYTES, RequestValidationError, type Client } from "../../runtime/index.js";
import { uploadOf } from "./support/platform.js";
import { platform } from "#platform";
import type { FlowSpec } from "../../runtime/flow-module.js";
import { buildForm, encodedLength } from "../../runtime/multipart.js";
import { parseMultipart, partValue, type ReceivedForm } from "./support/busboy-parts.js";
import { clientFor } from "./support/clients.js";
import { createdSession, json, startFakeService, type FakeService } from "./support/fake-service.js";
import { createSession, SIGNING_SPEC, value } from "./support/specs.js";

let service: FakeService;
let client: Client<"staging">;
let received: ReceivedForm[];
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "flowsmith-multipart-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  service = await startFakeService();
  received = [];
  service.onApi(
    async (req, res) => {
      const form = await parseMultipart(req);
      received.push(form);
      json(res, 201, createdSession(req.url ?? "", partValue(form, "metadata[subjectId]")));
    },
    { streaming: true },
  );
  client = clientFor(service);
});
afterEach(async () => {
  await client.close();
  await service.close();
});

const pdf = Buffer.from("%PDF-1.7 fake");

test("parts carry the exact names of the flow, in spec order, `[]` and indexed arrays included", async () => {
  await createSession(client, SIGNING_SPEC, {
    // Keys in another order than the spec: the spec decides the order on the wire.
    state: "csrf-1",
    metadata: { locale: "de", subjectId: "cust-42" },
    input: {
      attachments: [
        { label: "first", pages: [1, 2] },
        { label: "second", pages: [3] },
      ],
      documentsToSign: {
        documents: [
          { source: { data: pdf, filename: "contract.pdf" }, templateId: "tpl-a" },
          { templateId: "tpl-b", source: new Blob([pdf], { type: "application/pdf" }) },
        ],
      },
      basicIdentity: { familyName: "Curie", givenName: "Marie", age: 66, consent: false },
    },
    redirectUrl: null,
  });
  const [form] = received;
  expect(form?.contentType).toMatch(/^multipart\/form-data; boundary=/);
  expect(form?.parts.map((p) => [p.name, p.value ?? `file:${p.filename ?? ""}:${p.mimeType ?? ""}`])).toEqual([
    ["input[basicIdentity][givenName]", "Marie"],
    ["input[basicIdentity][familyName]", "Curie"],
    ["input[basicIdentity][age]", "66"],
    ["input[basicIdentity][consent]", "false"],
    ["input[documentsToSign][documents][][templateId]", "tpl-a"],
    ["input[documentsToSign][documents][][source]", "file:contract.pdf:application/pdf"],
    ["input[documentsToSign][documents][][templateId]", "tpl-b"],
    ["input[documentsToSign][documents][][source]", "file:file.pdf:application/pdf"],
    ["input[attachments][0][label]", "first"],
    ["input[attachments][0][pages][0]", "1"],
    ["input[attachments][0][pages][1]", "2"],
    ["input[attachments][1][label]", "second"],
    ["input[attachments][1][pages][0]", "3"],
    ["metadata[subjectId]", "cust-42"],
    ["metadata[locale]", "de"],
    ["state", "csrf-1"],
  ]);
  expect(form?.parts[5]?.bytes).toEqual(pdf);
  expect(form?.parts[7]?.bytes).toEqual(pdf);
});

test("file parts carry filename and media type: given, from the Blob, from the extension, or a default", async () => {
  const path = join(dir, "scan.PDF");
  await writeFile(path, pdf);
  const sources = [
    { data: pdf, filename: "a.bin", contentType: "application/x-custom" },
    new File([pdf], "from-file.txt", { type: "text/plain" }),
    await uploadOf(path),
    new Uint8Array(pdf),
  ];
  await createSession(client, SIGNING_SPEC, {
    input: { documentsToSign: { documents: sources.map((source, i) => ({ templateId: `t${String(i)}`, source })) } },
    metadata: { subjectId: "x" },
  });
  const files = received[0]?.parts.filter((p) => p.filename !== undefined);
  expect(files?.map((f) => [f.filename, f.mimeType])).toEqual([
    ["a.bin", "application/x-custom"],
    ["from-file.txt", "text/plain"],
    ["scan.PDF", "application/pdf"],
    ["file", "application/octet-stream"],
  ]);
  for (const file of files ?? []) expect(file.bytes).toEqual(pdf);
});

/**
 * How much longer the computed length is than what was sent: it counts each of
 * the body's boundary lines (one per part, and the last) at the longest boundary
 * any platform may pick (70 characters, RFC 2046), the sent one at its own.
 */
function slack(form: ReceivedForm, parts: number): number {
  const boundary = /boundary=(.+)$/.exec(form.contentType ?? "")?.[1] ?? "";
  return (70 - boundary.length) * (parts + 1);
}

describe("the computed body length is what undici sends, with its boundary counted at the longest a platform may pick", () => {
  const tricky: [string, { name: string; value: string | Blob }[]][] = [
    ["plain", [{ name: "metadata[subjectId]", value: "cust-42" }]],
    ["line breaks in values", [{ name: "state", value: "a\nb\r\nc\rd\n\n" }]],
    ["non-ASCII and emoji", [{ name: "input[bi][name]", value: "Zoë Łódź 😀 \u2028" }]],
    ["quotes and line breaks in names", [{ name: 'in"put[\nx\r]', value: "v" }]],
    ["lone surrogate", [{ name: "x", value: "a\ud800b" }]],
    [
      "files with tricky names",
      [
        { name: "f1", value: new File([pdf], 'we"ird\nna\rme.pdf', { type: "application/pdf" }) },
        { name: "f2", value: new File([new Uint8Array(0)], "ünïcode.png", { type: "image/png" }) },
        { name: "f3", value: new File([pdf], "no-type") },
      ],
    ],
  ];
  test.each(tricky)("%s", async (_name, parts) => {
    const form = buildForm(parts);
    const expected = encodedLength(form);
    // Sent as the platform's transport sends it: undici's request on Node, fetch elsewhere (each encodes its own FormData).
    if (platform.name === "node")
      await (await request(`${service.baseUrl}/echo`, { method: "POST", body: form as never })).body.dump();
    else await (await fetch(`${service.baseUrl}/echo`, { method: "POST", body: form })).arrayBuffer();
    const [got] = received as [ReceivedForm];
    expect(got.contentLength).toBe(expected - slack(got, parts.length));
    expect(got.bytesReceived).toBe(got.contentLength);
  });
});

test("REQUEST_TOO_LARGE is exact: a body of exactly 50 MB is sent, one byte more is refused before sending", async () => {
  const bigSpec: FlowSpec<"staging"> = {
    ...SIGNING_SPEC,
    fields: {
      kind: "object",
      properties: [
        {
          name: "file",
          spec: { kind: "file", part: ["input[blob][file]"], maxBytes: MAX_REQUEST_BYTES, mediaTypes: [] },
        },
        {
          name: "metadata",
          spec: { kind: "object", properties: [{ name: "subjectId", spec: value("metadata[subjectId]") }] },
        },
      ],
    },
  };
  const path = join(dir, "big.bin");
  await writeFile(path, "");
  const requestWith = async (size: number) => {
    await truncate(path, size); // sparse: cheap to make, still streamed byte by byte
    return { file: await uploadOf(path), metadata: { subjectId: "x" } };
  };
  const overhead = encodedLength(
    buildForm([
      { name: "input[blob][file]", value: new File([], "big.bin", { type: "application/octet-stream" }) },
      { name: "metadata[subjectId]", value: "x" },
    ]),
  );
  const exact = MAX_REQUEST_BYTES - overhead;

  const tooLarge = await createSession(client, bigSpec, await requestWith(exact + 1)).catch((e: unknown) => e);
  expect(tooLarge).toBeInstanceOf(RequestValidationError);
  expect(tooLarge).toMatchObject({ code: "REQUEST_TOO_LARGE" });
  expect(service.apiRequests).toHaveLength(0);

  await createSession(client, bigSpec, await requestWith(exact));
  const [sent] = received as [ReceivedForm];
  expect(sent.contentLength).toBe(MAX_REQUEST_BYTES - slack(sent, 2));
  expect(sent.bytesReceived).toBe(sent.contentLength);
}, 60_000);

test("after a 401 the same multipart body is sent again, whole, with a new token", async () => {
  let attempts = 0;
  service.onApi(
    async (req, res) => {
      const form = await parseMultipart(req);
      received.push(form);
      if (++attempts === 1) {
        json(res, 401, { status: 401, code: "TOKEN_EXPIRED" });
        return;
      }
      json(res, 201, createdSession(req.url ?? "", partValue(form, "metadata[subjectId]"), "s-2"));
    },
    { streaming: true },
  );
  const path = join(dir, "again.pdf");
  await writeFile(path, pdf);
  await expect(
    createSession(client, SIGNING_SPEC, {
      input: { documentsToSign: { documents: [{ templateId: "t", source: await uploadOf(path) }] } },
      metadata: { subjectId: "x" },
    }),
  ).resolves.toMatchObject({ sessionContext: { sessionId: "s-2" } });
  expect(service.authRequests).toHaveLength(2);
  const [first, second] = received;
  expect(second?.parts).toEqual(first?.parts);
  expect(second?.parts.find((p) => p.filename)?.bytes).toEqual(pdf);
  const tokens = service.apiRequests.map((r) => r.headers.authorization);
  expect(tokens[0]).not.toBe(tokens[1]);
});
