/**
 * Hand-built flow models for the emulator tests (the shapes of flows/*.yaml,
 * with small file limits so limit tests stay fast), and a raw HTTP helper.
 */
import { FormData, request } from "undici";
export { FormData };
import type {
  ArraySchema,
  FileSchema,
  FlowModel,
  NumberSchema,
  ObjectSchema,
  PartName,
  Property,
  Schema,
  StringSchema,
} from "../../generator/model/types.js";
import { SERVICE_LOCALES, type Locale } from "../../runtime/index.js";
import type { RunningEmulator } from "../../emulator/index.js";
import { parseAnswerBody, type AnswerBody } from "../support/answer-body.js";

const base = { pointer: "#", nullable: false } as const;

const str = (part?: PartName, extra: Partial<StringSchema> = {}): StringSchema => ({
  ...base,
  kind: "string",
  ...(part ? { part } : {}),
  ...extra,
});
const file = (part: PartName, maxBytes: number, mediaTypes: readonly string[] = []): FileSchema => ({
  ...base,
  kind: "file",
  part,
  maxBytes,
  mediaTypes,
});
const num = (part: PartName, integer = false): NumberSchema => ({ ...base, kind: "number", integer, part });
const bool = (part: PartName): Schema => ({ ...base, kind: "boolean", part });
const arr = (items: Schema): ArraySchema => ({ ...base, kind: "array", items });
const obj = (properties: readonly [string, Schema, boolean?][]): ObjectSchema => ({
  ...base,
  kind: "object",
  properties: properties.map(([name, schema, required]): Property => ({ name, schema, required: required ?? false })),
  additionalProperties: false,
});

function flow(
  name: string,
  id: string,
  environment: "staging" | "live",
  input: ObjectSchema,
  multipart: boolean,
  locales: readonly Locale[] = SERVICE_LOCALES,
): FlowModel {
  const p = (text: string): PartName | undefined => (multipart ? [text] : undefined);
  return {
    name,
    source: { file: `flows/${name}.yaml`, sha256: "0".repeat(64) },
    id,
    version: 3,
    versionLabel: "3",
    environment,
    title: name,
    serverUrl: "https://api.example.test",
    path: `/api/v1/flows/${id}/${environment}/sessions`,
    declaredBodyForms: [multipart ? "multipart" : "json"],
    bodyForm: multipart ? "multipart" : "json",
    request: obj([
      ["input", input, true],
      [
        "metadata",
        obj([
          ["subjectId", str(p("metadata[subjectId]")), true],
          ["locale", str(p("metadata[locale]"), { enum: locales })],
        ]),
        true,
      ],
      ["redirectUrl", str(p("redirectUrl"), { format: "uri" })],
      ["state", str(p("state"), { maxLength: 2048 })],
    ]),
    locales,
    response: obj([]),
  };
}

export const SIGNING_ID = "6f1c2a9e-signing";
export const AML_ID = "a41f0c6d-aml";
export const DOCS_ID = "2d8e4b17-docs";
export const INDEXED_ID = "99-indexed";
export const FILE_LIMIT = 4096;

/** Multipart, staging, `[]` array of documents with a file each. */
export const signing = flow(
  "signing",
  SIGNING_ID,
  "staging",
  obj([
    [
      "basicIdentity",
      obj([
        ["givenName", str(["input[basicIdentity][givenName]"], { maxLength: 150 }), true],
        ["familyName", str(["input[basicIdentity][familyName]"]), true],
      ]),
      true,
    ],
    [
      "documentsToSign",
      obj([
        [
          "documents",
          arr(
            obj([
              ["templateId", str(["input[documentsToSign][documents][][templateId]"]), true],
              ["source", file(["input[documentsToSign][documents][][source]"], FILE_LIMIT), true],
            ]),
          ),
          true,
        ],
      ]),
      true,
    ],
  ]),
  true,
);

/** JSON, staging. */
export const aml = flow(
  "aml",
  AML_ID,
  "staging",
  obj([
    [
      "basicIdentity",
      obj([
        ["givenName", str(undefined, { maxLength: 150 }), true],
        ["birthDate", str(undefined, { format: "date" }), true],
      ]),
      true,
    ],
  ]),
  false,
);

/** Multipart, live, JPEG/PNG images, locales en and de. */
const docs = flow(
  "docs",
  DOCS_ID,
  "live",
  obj([
    [
      "documentImages",
      obj([
        ["documentType", str(["input[documentImages][documentType]"], { enum: ["BANK_STATEMENT", "ID_CARD"] }), true],
        ["frontSide", file(["input[documentImages][frontSide]"], FILE_LIMIT, ["image/jpeg", "image/png"]), true],
        ["backSide", file(["input[documentImages][backSide]"], FILE_LIMIT, ["image/jpeg", "image/png"])],
      ]),
      true,
    ],
  ]),
  true,
  ["en", "de"],
);

/** Multipart, staging, an array sent with explicit indices. */
export const indexed = flow(
  "indexed",
  INDEXED_ID,
  "staging",
  obj([
    [
      "items",
      obj([["list", arr(obj([["code", str(["input[items][list][", { index: 0 }, "][code]"]), true]])), true]]),
      true,
    ],
  ]),
  true,
);

export const NUMBERS_ID = "5e7a-numbers";
export const WIDE_ID = "77b0-wide";
export const WIDE_FIELDS = 2000;

/** Multipart, staging: a number, an integer and a boolean part. */
export const numbers = flow(
  "numbers",
  NUMBERS_ID,
  "staging",
  obj([
    [
      "amounts",
      obj([
        ["ratio", num(["input[amounts][ratio]"])],
        ["count", num(["input[amounts][count]"], true)],
        ["flag", bool(["input[amounts][flag]"])],
      ]),
      true,
    ],
  ]),
  true,
);

/** Multipart, staging: one data block of WIDE_FIELDS optional text fields. */
export const wide = flow(
  "wide",
  WIDE_ID,
  "staging",
  obj([
    [
      "many",
      obj(Array.from({ length: WIDE_FIELDS }, (_, i): [string, Schema] => [`f${i}`, str([`input[many][f${i}]`])])),
    ],
  ]),
  true,
);

export const ALL_FLOWS = [
  { model: signing, document: { openapi: "3.0.3", info: { "x-flow-id": SIGNING_ID } } },
  aml,
  docs,
  indexed,
];

export const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6]);
export const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9]);

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly json: AnswerBody;
  readonly text: string;
}

export type Body = string | Buffer | FormData | NodeJS.ReadableStream | undefined;

export async function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: Body } = {},
): Promise<Answer> {
  const response = await request(url, {
    method: (init.method ?? "GET") as "GET",
    headers: { "user-agent": "emulator-tests/1.0", ...init.headers },
    body: init.body as never,
  });
  const text = await response.body.text();
  return { status: response.statusCode, headers: response.headers, json: parseAnswerBody(text), text };
}

/** The JSON line `flowsmith emulator` prints on stdout when it is ready. */
export type ReadyLine = Pick<RunningEmulator, "baseUrl" | "authUrl" | "clients">;

export async function tokenFor(
  emulator: Pick<RunningEmulator, "authUrl" | "clients">,
  environment: "staging" | "live",
): Promise<string> {
  const { clientId, clientSecret } = emulator.clients[environment];
  const answer = await call(`${emulator.authUrl}/oidc/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
    }).toString(),
  });
  if (answer.status !== 200) throw new Error(`token request failed: ${answer.status} ${answer.text}`);
  return answer.json.access_token;
}

export function bearer(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, ...extra };
}

export function signingForm(
  documents: number,
  options: { fileBytes?: number; extra?: [string, string][] } = {},
): FormData {
  const form = new FormData();
  form.append("input[basicIdentity][givenName]", "Ada");
  form.append("input[basicIdentity][familyName]", "Lovelace");
  for (let i = 0; i < documents; i++) {
    form.append("input[documentsToSign][documents][][templateId]", `tpl-${i}`);
    form.append(
      "input[documentsToSign][documents][][source]",
      new Blob([Buffer.alloc(options.fileBytes ?? 10, i)], { type: "application/pdf" }),
      `doc-${i}.pdf`,
    );
  }
  form.append("metadata[subjectId]", "cust-42");
  for (const [name, value] of options.extra ?? []) form.append(name, value);
  return form;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
