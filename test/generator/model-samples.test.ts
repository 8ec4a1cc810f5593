import { expect } from "@jest/globals";
import { readFile } from "node:fs/promises";
import path from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { buildFlowModelOrThrow } from "../../generator/model/build-flow-model";
import { toJsonSchema } from "../../generator/model/json-schema";
import type { FlowModel, ObjectSchema, Schema } from "../../generator/model/types";
import { parseDescriptionOrThrow } from "../../generator/read/load-description";

const ROOT = path.resolve(__dirname, "../..");

async function model(file: string, name?: string): Promise<FlowModel> {
  const loaded = parseDescriptionOrThrow(await readFile(path.join(ROOT, file)), file);
  return buildFlowModelOrThrow(loaded, name === undefined ? {} : { name });
}

/** The schema at a dotted path through object properties (`[]` enters array items). */
function at(schema: Schema, dotted: string): Schema {
  return dotted.split(".").reduce<Schema>((current, step) => {
    if (step === "[]") {
      if (current.kind !== "array") throw new Error(`${dotted}: ${step} is not an array`);
      return current.items;
    }
    if (current.kind !== "object") throw new Error(`${dotted}: ${step} is not inside an object`);
    const property = current.properties.find((p) => p.name === step);
    if (!property) throw new Error(`${dotted}: no ${step} among ${current.properties.map((p) => p.name).join(", ")}`);
    return property.schema;
  }, schema);
}

function requiredOf(schema: Schema, dotted: string): boolean {
  const steps = dotted.split(".");
  const last = steps.pop() as string;
  const parent = steps.length ? at(schema, steps.join(".")) : schema;
  const property = (parent as ObjectSchema).properties.find((p) => p.name === last);
  if (!property) throw new Error(`no ${dotted}`);
  return property.required;
}

function names(schema: Schema, dotted?: string): readonly string[] {
  const target = dotted ? at(schema, dotted) : schema;
  return target.kind === "object" ? target.properties.map((p) => p.name) : [];
}

describe("the three samples", () => {
  test("signing: flow facts, data blocks and the documents' declared part names", async () => {
    const flow = await model("flows/signing.yaml", "signing");
    expect(flow).toMatchObject({
      name: "signing",
      source: { file: "flows/signing.yaml", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      id: "6f1c2a9e-3b7d-4e58-9c41-0a2d7e5b8f13",
      version: 1,
      versionLabel: "1",
      environment: "staging",
      title: "Signing",
      summary: 'Create a session for the flow "Signing"',
      serverUrl: "https://api.staging.example.test",
      path: "/api/v1/flows/6f1c2a9e-3b7d-4e58-9c41-0a2d7e5b8f13/staging/sessions",
      declaredBodyForms: ["multipart"],
      bodyForm: "multipart",
      locales: ["en", "de", "fr", "pl", "it", "es"],
    });
    const request = flow.request;
    expect(names(request)).toEqual(["input", "metadata", "redirectUrl", "state"]);
    expect(names(request, "input")).toEqual(["basicIdentity", "documentsToSign"]);
    expect(names(request, "input.basicIdentity")).toEqual([
      "givenName",
      "familyName",
      "name",
      "birthDate",
      "birthPlace",
    ]);
    expect(at(request, "input.documentsToSign.documents").kind).toBe("array");
    expect(at(request, "input.documentsToSign.documents.[].templateId")).toMatchObject({
      kind: "string",
      part: ["input[documentsToSign][documents][][templateId]"],
    });
    expect(at(request, "input.documentsToSign.documents.[].source")).toMatchObject({
      kind: "file",
      part: ["input[documentsToSign][documents][][source]"],
      maxBytes: 26_214_400,
      mediaTypes: [],
    });
    expect(
      [
        "input",
        "input.basicIdentity",
        "input.basicIdentity.givenName",
        "input.basicIdentity.name",
        "input.documentsToSign",
        "input.documentsToSign.documents",
        "metadata",
        "metadata.subjectId",
        "metadata.locale",
        "redirectUrl",
        "state",
      ].map((dotted) => [dotted, requiredOf(request, dotted)]),
    ).toEqual([
      ["input", true],
      ["input.basicIdentity", true],
      ["input.basicIdentity.givenName", true],
      ["input.basicIdentity.name", false],
      ["input.documentsToSign", true],
      ["input.documentsToSign.documents", true],
      ["metadata", true],
      ["metadata.subjectId", true],
      ["metadata.locale", false],
      ["redirectUrl", false],
      ["state", false],
    ]);
    expect(at(request, "input.basicIdentity")).toMatchObject({ kind: "object", additionalProperties: false });
    expect(at(request, "metadata.locale")).toMatchObject({ kind: "string", default: "en", part: ["metadata[locale]"] });
    expect(at(request, "state")).toMatchObject({ maxLength: 2048, part: ["state"] });
  });

  test("document verification: file limits and media types from encoding, name from the title", async () => {
    const flow = await model("flows/document-verification.yaml");
    expect(flow).toMatchObject({
      name: "bank-account-and-address-check",
      environment: "live",
      version: 4,
      bodyForm: "multipart",
    });
    expect(flow.locales).toEqual(["en", "de"]);
    for (const side of ["frontSide", "backSide"]) {
      expect(at(flow.request, `input.documentImages.${side}`)).toMatchObject({
        kind: "file",
        maxBytes: 10_485_760,
        mediaTypes: ["image/jpeg", "image/png"],
        part: [`input[documentImages][${side}]`],
      });
    }
    expect(requiredOf(flow.request, "input.documentImages.frontSide")).toBe(true);
    expect(requiredOf(flow.request, "input.documentImages.backSide")).toBe(false);
    expect(at(flow.request, "input.documentImages.documentType")).toMatchObject({
      enum: ["BANK_STATEMENT", "UTILITY_BILL", "ID_CARD"],
    });
  });

  test("aml screening: JSON only, refs resolved, no part names", async () => {
    const flow = await model("flows/aml-screening.yaml");
    expect(flow).toMatchObject({ name: "aml-screening", declaredBodyForms: ["json"], bodyForm: "json" });
    expect(flow.locales).toEqual(["en", "de", "fr", "pl", "it", "es"]);
    expect(at(flow.request, "input.basicIdentity")).toMatchObject({
      kind: "object",
      pointer: "#/components/schemas/BasicIdentity",
      additionalProperties: false,
    });
    expect(at(flow.request, "input.basicIdentity.birthDate")).toEqual({
      kind: "string",
      pointer: "#/components/schemas/BasicIdentity/properties/birthDate",
      nullable: false,
      description: "Date of birth, YYYY-MM-DD.",
      format: "date",
    });
    expect(JSON.stringify(flow.request)).not.toContain('"part"');
    expect(at(flow.response, "sessionContext.sessionStatus")).toMatchObject({ kind: "string", enum: ["CREATED"] });
    expect(at(flow.response, "sessionContext")).toMatchObject({ additionalProperties: true });
  });

  test("the model is deterministic", async () => {
    const first = JSON.stringify(await model("test/fixtures/descriptions/odd-names.yaml"));
    const second = JSON.stringify(await model("test/fixtures/descriptions/odd-names.yaml"));
    expect(second).toBe(first);
  });
});

describe("odd-names.yaml", () => {
  const file = "test/fixtures/descriptions/odd-names.yaml";

  test("odd keys survive unchanged, with their exact part names", async () => {
    const { request } = await model(file);
    expect(names(request, "input")).toEqual(["odd-block", "2ndBlock", "__proto__", "documents", "listing", "profile"]);
    expect(names(request, "input.odd-block")).toEqual([
      "first-name",
      "class",
      "prénom",
      "2ndLine",
      "count",
      "ratio",
      "agreed",
      "level",
    ]);
    expect(at(request, "input.__proto__.constructor")).toMatchObject({ part: ["input[__proto__][constructor]"] });
    expect(at(request, "input.odd-block.prénom")).toMatchObject({ default: "Zoë", part: ["input[odd-block][prénom]"] });
    expect(at(request, "input.2ndBlock.default")).toMatchObject({ format: "date-time" });
    expect(Object.getPrototypeOf(at(request, "input.__proto__"))).toBe(Object.prototype);
  });

  test("text is kept verbatim", async () => {
    const flow = await model(file);
    expect(flow.title).toBe('Odd names: */ `tick` ${x} "q" ünïcode');
    expect(flow.description).toBe(
      "Ends a comment early */ and has `backticks`, ${template}, \"double\" and 'single' quotes,\na second line, and a backslash \\ too.",
    );
    expect(flow.summary).toBe("Summary with */ and ${x}");
    expect(at(flow.request, "input.odd-block.first-name")).toMatchObject({
      description: "Hyphenated name */ with `code` and ${interpolation}\nand a newline.",
      pattern: "^[^*/`$]+$",
    });
    expect(at(flow.request, "input.odd-block.class")).toMatchObject({
      enum: ["a*/b", "`tick`", "${x}", 'say "hi"', "two\nlines", "", "with space"],
    });
  });

  test("numbers, booleans and nullable", async () => {
    const { request } = await model(file);
    expect(at(request, "input.odd-block.count")).toMatchObject({
      kind: "number",
      integer: true,
      minimum: 0,
      exclusiveMaximum: 10,
      default: 1,
    });
    expect(at(request, "input.odd-block.count")).not.toHaveProperty("maximum");
    expect(at(request, "input.odd-block.ratio")).toMatchObject({
      kind: "number",
      integer: false,
      exclusiveMinimum: 0,
      multipleOf: 0.5,
    });
    expect(at(request, "input.odd-block.agreed")).toMatchObject({ kind: "boolean", default: false });
    expect(at(request, "input.odd-block.level")).toMatchObject({ kind: "number", integer: true, enum: [1, 2, 3] });
    expect(at(request, "input.odd-block.2ndLine")).toMatchObject({ kind: "string", nullable: true });
  });

  test("arrays: `[]` names are literal, `type: array` names get explicit indices", async () => {
    const { request } = await model(file);
    expect(at(request, "input.2ndBlock.tags.[]")).toMatchObject({
      kind: "string",
      enum: ["red", "green"],
      part: ["input[2ndBlock][tags][]"],
    });
    expect(at(request, "input.documents.files.[].content")).toMatchObject({
      kind: "file",
      maxBytes: 5_242_880,
      mediaTypes: ["application/pdf", "image/png"],
      part: ["input[documents][files][][content]"],
    });
    expect(at(request, "input.listing.entries")).toMatchObject({ kind: "array", minItems: 1, maxItems: 3 });
    expect(at(request, "input.listing.entries.[].label")).toMatchObject({
      part: ["input[listing][entries][", { index: 0 }, "][label]"],
      description: "Label */ of the `entry`",
    });
    expect(at(request, "input.listing.entries.[].scan")).toMatchObject({
      kind: "file",
      maxBytes: 26_214_400,
      mediaTypes: ["image/jpeg"],
      part: ["input[listing][entries][", { index: 0 }, "][scan]"],
    });
    expect(at(request, "input.listing.numbers.[]")).toMatchObject({
      kind: "number",
      part: ["input[listing][numbers][", { index: 0 }, "]"],
    });
    expect(requiredOf(request, "input.listing.entries")).toBe(true);
    expect(requiredOf(request, "input.listing.numbers")).toBe(false);
    expect(requiredOf(request, "input.2ndBlock.tags")).toBe(false);
  });

  test("allOf: a single-member allOf of a merged allOf keeps the outer description", async () => {
    const { request } = await model(file);
    expect(at(request, "input.profile.address")).toMatchObject({
      kind: "object",
      description: "The address, through a single-member allOf.",
      additionalProperties: false,
    });
    expect(names(request, "input.profile.address")).toEqual(["street", "city", "zip-code"]);
    expect(["street", "city", "zip-code"].map((n) => requiredOf(request, `input.profile.address.${n}`))).toEqual([
      true,
      true,
      false,
    ]);
    expect(at(request, "input.profile.address.zip-code")).toMatchObject({
      pattern: "^\\d{5}$",
      part: ["input[profile][address][zip-code]"],
    });
    expect(requiredOf(request, "input.profile")).toBe(false);
  });

  test("metadata and top-level fields are normalised", async () => {
    const flow = await model(file);
    expect(flow.locales).toEqual(["de", "fr"]);
    expect(at(flow.request, "state")).toMatchObject({ maxLength: 2048 });
    expect(flow.bodyForm).toBe("multipart");
  });

  test("toJsonSchema of the request compiles and accepts a matching body", async () => {
    const { request } = await model(file);
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(toJsonSchema(request, { file: {} }));
    const body = {
      input: {
        "odd-block": { "first-name": "Ann", class: "${x}", prénom: "Zoë" },
        "2ndBlock": { default: "2024-01-01T00:00:00Z" },
        documents: { files: [{ kind: "PASSPORT", content: "file" }] },
        listing: { entries: [{ label: "l", scan: "file" }] },
      },
      metadata: { subjectId: "s-1", locale: "fr" },
    };
    expect([validate(JSON.parse(JSON.stringify(body))), validate.errors ?? null]).toEqual([true, null]);
    expect(validate({ ...body, metadata: { subjectId: "s-1", locale: "en" } })).toBe(false);
    expect(validate({ ...body, input: { ...body.input, "odd-block": { class: "${x}", prénom: "Zoë" } } })).toBe(false);
  });
});

describe("json-and-multipart.yaml", () => {
  test("both forms agree; multipart tree and names are kept; sent as JSON", async () => {
    const flow = await model("test/fixtures/descriptions/json-and-multipart.yaml");
    expect(flow).toMatchObject({
      name: "address-check",
      declaredBodyForms: ["json", "multipart"],
      bodyForm: "json",
      locales: ["en", "pl"],
    });
    expect(at(flow.request, "input.address.floor")).toMatchObject({
      kind: "number",
      integer: true,
      minimum: 0,
      part: ["input[address][floor]"],
    });
    expect(at(flow.request, "input.contacts.[].primary")).toMatchObject({
      kind: "boolean",
      part: ["input[contacts][][primary]"],
    });
  });
});
