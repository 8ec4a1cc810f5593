import { expect } from "@jest/globals";
import { Readable } from "node:stream";
import { FormData } from "undici";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import {
  AML_ID,
  INDEXED_ID,
  NUMBERS_ID,
  WIDE_ID,
  WIDE_FIELDS,
  aml,
  bearer,
  call,
  indexed,
  numbers,
  signing,
  tokenFor,
  wide,
  type Body,
} from "./fixtures.js";

let emulator: RunningEmulator;
let staging: string;
beforeAll(async () => {
  emulator = await startEmulator({ flows: [signing, aml, indexed, numbers, wide] });
  staging = await tokenFor(emulator, "staging");
});
afterAll(() => emulator.close());

const post = (flowId: string, body: Body, headers: Record<string, string> = {}) =>
  call(`${emulator.baseUrl}/api/v1/flows/${flowId}/staging/sessions`, {
    method: "POST",
    headers: bearer(staging, headers),
    body,
  });
const JSON_TYPE = { "content-type": "application/json" };

describe("a body over 50 MB", () => {
  test("with Content-Length is 413 from the header, its body discarded unread; undici reads the answer and the emulator serves on", async () => {
    const answer = await post(AML_ID, Buffer.alloc(60 * 1024 * 1024, 0x20), { ...JSON_TYPE });
    expect([answer.status, answer.json.code]).toEqual([413, "REQUEST_TOO_LARGE"]);
    expect(answer.headers.connection).toBe("close");
    const valid = JSON.stringify({
      input: { basicIdentity: { givenName: "Ada", birthDate: "1815-12-10" } },
      metadata: { subjectId: "x" },
    });
    expect((await post(AML_ID, valid, JSON_TYPE)).status).toBe(201);
  });
});

describe("JSON bodies are limited while reading", () => {
  const amlWith = (extra: string): string =>
    `{"input":{"basicIdentity":{"givenName":"Ada","birthDate":"1815-12-10"${extra}}},"metadata":{"subjectId":"x"}}`;

  test.each([
    [
      "a string over 1 MiB",
      amlWith(`,"note":"${"n".repeat(1024 * 1024 + 1)}"`),
      "VALUE_TOO_LONG",
      "longer than 1048576 bytes",
    ],
    [
      "a number of over 1 MiB of digits",
      amlWith(`,"note":${"9".repeat(1024 * 1024 + 1)}`),
      "VALUE_TOO_LONG",
      "longer than 1048576 bytes",
    ],
    [
      "more values than the flow can use",
      amlWith(`,"list":[${Array.from({ length: 5000 }, () => "1").join(",")}]`),
      "TOO_MANY_VALUES",
      "more than",
    ],
    [
      "nesting deeper than 64",
      amlWith(`,"deep":${"[".repeat(100)}${"]".repeat(100)}`),
      "TOO_MANY_VALUES",
      "deeper than 64",
    ],
    [
      "a number that is not finite",
      amlWith(`,"note":1e400`),
      "VALIDATION_FAILED",
      "input.basicIdentity.note is out of range",
    ],
    ["two documents", `${amlWith("")} {}`, "MALFORMED_BODY", "not valid JSON"],
    ["a cut-off document", amlWith("").slice(0, 40), "MALFORMED_BODY", "ends before its JSON value is complete"],
    ["only whitespace", "   \n ", "MALFORMED_BODY", "the body is empty"],
  ])("%s is 400", async (_name, body, code, fragment) => {
    const answer = await post(AML_ID, body, JSON_TYPE);
    expect([answer.status, answer.json.code]).toEqual([400, code]);
    expect(answer.json.message).toContain(fragment);
  });

  test("a few stray keys still get the schema's own error, naming them; a __proto__ key stays a plain key", async () => {
    const stray = await post(AML_ID, amlWith(`,"a":1,"b":2`), JSON_TYPE);
    expect(stray.json.errors).toEqual(
      expect.arrayContaining([{ path: "input.basicIdentity.a", message: "is not allowed here" }]),
    );
    const proto = await post(AML_ID, `{"__proto__":{"x":1},${amlWith("").slice(1)}`, JSON_TYPE);
    expect([proto.status, proto.json.errors]).toEqual([400, [{ path: "__proto__", message: "is not allowed here" }]]);
  });

  test("a valid body sent in one-byte chunks is parsed as JSON.parse would", async () => {
    const sent = {
      input: { basicIdentity: { givenName: 'Zoë \u{1F600} "q" \\', birthDate: "1815-12-10" } },
      metadata: { subjectId: "ü" },
    };
    const text = JSON.stringify(sent);
    const bytes = Buffer.from(text);
    const created = await post(AML_ID, Readable.from(Array.from(bytes, (byte) => Buffer.from([byte]))), JSON_TYPE);
    expect(created.status).toBe(201);
    const blocks = await call(
      `${emulator.baseUrl}/api/v1/staging/sessions/${created.json.sessionContext.sessionId}/datablocks`,
      { headers: bearer(staging) },
    );
    expect(blocks.json.dataBlocks.basicIdentity).toEqual((JSON.parse(text) as typeof sent).input.basicIdentity);
  });
});

describe("multipart numbers follow JSON number syntax and are finite", () => {
  const form = (parts: Record<string, string>): FormData => {
    const data = new FormData();
    for (const [name, value] of Object.entries(parts)) data.append(`input[amounts][${name}]`, value);
    data.append("metadata[subjectId]", "x");
    return data;
  };

  test.each([
    ["ratio", "1e400", "is out of range"],
    ["ratio", " 0x10 ", "is not a number"],
    ["ratio", "", "is not a number"],
    ["ratio", "Infinity", "is not a number"],
    ["ratio", "+1", "is not a number"],
    ["ratio", "01", "is not a number"],
    ["ratio", ".5", "is not a number"],
    ["count", "0x10", "is not a number"],
    ["flag", "yes", "is not a boolean"],
    ["flag", "1", "is not a boolean"],
  ])("%s = %j is 400 VALIDATION_FAILED naming the part", async (field, value, problem) => {
    const answer = await post(NUMBERS_ID, form({ [field]: value }));
    expect([answer.status, answer.json.code]).toEqual([400, "VALIDATION_FAILED"]);
    expect(answer.json.message).toContain(`part "input[amounts][${field}]": ${JSON.stringify(value)} ${problem}`);
    expect(answer.json.errors).toEqual([
      { path: `input[amounts][${field}]`, message: expect.stringContaining(problem) },
    ]);
  });

  test("JSON numbers and true/false are read as such; an integer part that is not whole is refused by the schema", async () => {
    const created = await post(NUMBERS_ID, form({ ratio: "-1.5e-3", count: "42", flag: "false" }));
    expect(created.status).toBe(201);
    const blocks = await call(
      `${emulator.baseUrl}/api/v1/staging/sessions/${created.json.sessionContext.sessionId}/datablocks`,
      { headers: bearer(staging) },
    );
    expect(blocks.json.dataBlocks.amounts).toEqual({ ratio: -0.0015, count: 42, flag: false });
    const fraction = await post(NUMBERS_ID, form({ count: "4.5" }));
    expect([fraction.status, fraction.json.errors]).toEqual([
      400,
      [{ path: "input.amounts.count", message: "must be integer" }],
    ]);
  });
});

describe("part limits follow the flow", () => {
  test(`a flow declaring ${WIDE_FIELDS} optional fields accepts a valid request of 1505 parts`, async () => {
    const form = new FormData();
    for (let i = 0; i < 1502; i++) form.append(`input[many][f${i}]`, `v${i}`);
    form.append("metadata[subjectId]", "x");
    form.append("metadata[locale]", "de");
    form.append("redirectUrl", "http://127.0.0.1:3000/done");
    const answer = await post(WIDE_ID, form);
    expect(answer.status).toBe(201);
  });

  test("an array without maxItems counts 1000 elements: 1000 pass, and past the flow's parts a request is 400 TOO_MANY_PARTS", async () => {
    const form = (elements: number): FormData => {
      const data = new FormData();
      for (let i = 0; i < elements; i++) data.append(`input[items][list][${i}][code]`, `c${i}`);
      data.append("metadata[subjectId]", "x");
      return data;
    };
    expect((await post(INDEXED_ID, form(1000))).status).toBe(201);
    // 1000 elements plus subjectId, locale, redirectUrl and state: 1004 parts; one more is refused.
    const answer = await post(INDEXED_ID, form(1004));
    expect([answer.status, answer.json.code]).toEqual([400, "TOO_MANY_PARTS"]);
    expect(answer.json.message).toContain("more than 1004 parts");
  });
});
