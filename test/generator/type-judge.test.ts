/**
 * openapi-typescript as an independent judge of our emitted types (issue 26;
 * test/judge/judge.ts): on the sample flows, the unseen-style fixtures, the
 * hostile descriptions of issue 10 and one description per construct and
 * per documented difference, openapi-typescript's types and ours agree both
 * ways, for the JSON request, the multipart parts and the 201 response. The
 * fuzz suite (fuzz.test.ts) runs the same judge over its descriptions.
 *
 * And the judge can fail: emission broken on purpose (an optional field
 * emitted as required, an enum value dropped) is caught, naming the flow,
 * the path and both types.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { emitFlowOrThrow } from "../../generator/emit/emit-flow.js";
import type { FlowModel, ObjectSchema, Property, Schema } from "../../generator/model/types.js";
import { HOSTILE_GENERATES } from "../fixtures/descriptions/hostile.js";
import { JUDGE_CONSTRUCTS } from "../fixtures/descriptions/judge-constructs.js";
import { description } from "../fixtures/descriptions/make-description.js";
import { REPO_ROOT } from "../fixtures/golden/compile.js";
import { runCodegen } from "../fuzz/run-codegen.js";
import { RUNTIME_IMPORT } from "../fuzz/type-check.js";
import { judgeFlows, type EmittedFlow, type JudgeOptions } from "../judge/judge.js";

const FILES = [
  "flows/aml-screening.yaml",
  "flows/document-verification.yaml",
  "flows/signing.yaml",
  "test/fixtures/descriptions/odd-names.yaml",
  "test/fixtures/descriptions/json-and-multipart.yaml",
  "test/fixtures/changes/signing-v2.yaml",
  "test/fixtures/changes/signing-compatible.json",
];

const SOURCES: readonly { readonly display: string; readonly text: string }[] = [
  ...FILES.map((file) => ({ display: file, text: readFileSync(join(REPO_ROOT, file), "utf8") })),
  ...[...HOSTILE_GENERATES, ...JUDGE_CONSTRUCTS].map(([name, parts]) => ({ display: `flows/${name}.yaml`, text: description(parts) })),
];

async function emitted(display: string, text: string): Promise<EmittedFlow> {
  const outcome = await runCodegen(text, display, RUNTIME_IMPORT);
  if (outcome.kind !== "generated") throw new Error(`${display}: ${outcome.kind}: ${String(outcome.error)}`);
  return { model: outcome.model, files: outcome.files, text };
}

async function source(display: string): Promise<EmittedFlow> {
  const found = SOURCES.find((each) => each.display === display);
  if (!found) throw new Error(`no description ${display}`);
  return emitted(found.display, found.text);
}

/** `flow` generated again from `model` (emission broken on purpose), judged against the same document. */
async function broken(flow: EmittedFlow, model: FlowModel, options?: JudgeOptions): Promise<EmittedFlow> {
  return { ...flow, model, files: await emitFlowOrThrow(model, { runtimeImport: RUNTIME_IMPORT }), ...(options ? { options } : {}) };
}

/** The first line of each disagreement: flow, path and what. */
function headlines(found: readonly string[]): string[] {
  return found.map((each) => each.split("\n")[0] ?? "");
}

test(`openapi-typescript agrees with our types on ${String(SOURCES.length)} descriptions: samples, unseen fixtures, hostile descriptions, one per construct`, async () => {
  const flows = await Promise.all(SOURCES.map((each) => emitted(each.display, each.text)));
  const verdicts = await judgeFlows(flows);
  expect(verdicts.flat()).toEqual([]);
  // Every form is judged: JSON only, multipart only, both.
  const forms = new Set(flows.map((flow) => flow.model.declaredBodyForms.join("+")));
  expect([...forms].sort()).toEqual(["json", "json+multipart", "multipart"]);
}, 120_000);

describe("the judge catches emission broken on purpose", () => {
  test("an optional field emitted as required, in the JSON form and as a part", async () => {
    const aml = await source("flows/aml-screening.yaml");
    const signing = await source("flows/signing.yaml");
    const required = (property: Property): Property => ({ ...property, required: true });
    const verdicts = await judgeFlows([
      await broken(aml, withProperty(aml.model, ["input", "basicIdentity", "name"], required)),
      await broken(signing, withProperty(signing.model, ["input", "basicIdentity", "birthPlace"], required)),
    ]);
    expect(verdicts.map(headlines)).toEqual([
      ["flow aml-screening (flows/aml-screening.yaml): request.input.basicIdentity.name: required in ours, optional in theirs"],
      ['flow signing (flows/signing.yaml): part "input[basicIdentity][birthPlace]": required in ours, optional in theirs'],
    ]);
    // Both types, as each side spells them.
    expect(verdicts[0]?.[0]).toContain("\n  ours:   string\n  theirs: string | undefined");
  });

  test("an enum value dropped, from a part and from the response", async () => {
    const verification = await source("flows/document-verification.yaml");
    const aml = await source("flows/aml-screening.yaml");
    const without = (value: string) => (property: Property): Property => {
      const schema = property.schema;
      if (schema.kind !== "string" || !schema.enum) throw new Error(`${property.name} has no string enum`);
      return { ...property, schema: { ...schema, enum: schema.enum.filter((member) => member !== value) } };
    };
    const verdicts = await judgeFlows([
      await broken(verification, withProperty(verification.model, ["input", "documentImages", "documentType"], without("ID_CARD"))),
      await broken(aml, { ...aml.model, response: changedAt(aml.model.response, ["environment"], without("live")) }),
    ]);
    expect(verdicts.map(headlines)).toEqual([
      ['flow bank-account-and-address-check (flows/document-verification.yaml): part "input[documentImages][documentType]": only theirs admits "ID_CARD"'],
      ['flow aml-screening (flows/aml-screening.yaml): response.environment: only theirs admits "live"'],
    ]);
    expect(verdicts[0]?.[0]).toContain('\n  ours:   "BANK_STATEMENT" | "UTILITY_BILL"\n  theirs: "BANK_STATEMENT" | "UTILITY_BILL" | "ID_CARD"');
  });

  test("open data blocks typed closed are a disagreement, unless the flow was generated so (the closed-object option)", async () => {
    const flow = await source("flows/extra keys left out, true, false, {} and typed.yaml");
    const closed = withProperty(flow.model, ["input"], closeBlocks);
    const verdicts = await judgeFlows([await broken(flow, closed), await broken(flow, closed, { closedDataBlocks: true })]);
    expect(headlines(verdicts[0] ?? [])).toEqual(
      ["open", "yes", "any", "described", "typed.c", "typed[key]", "typedObjects[key]"].map(
        (at) => `flow test-flow (flows/extra keys left out, true, false, {} and typed.yaml): request.input.${at}[key]: only theirs has an index signature`,
      ),
    );
    expect(verdicts[1]).toEqual([]);
  });
});

/** The model with the property at `path` (from the request) changed. */
function withProperty(model: FlowModel, path: readonly string[], change: (property: Property) => Property): FlowModel {
  return { ...model, request: changedAt(model.request, path, change) as ObjectSchema };
}

/** `schema` with the property at `path` changed (an object's property by name, all the way down). */
function changedAt(schema: Schema, path: readonly string[], change: (property: Property) => Property): Schema {
  const [name, ...rest] = path;
  if (schema.kind !== "object" || name === undefined) throw new Error(`no property ${String(name)} here`);
  if (!schema.properties.some((property) => property.name === name)) throw new Error(`no property ${name}`);
  return {
    ...schema,
    properties: schema.properties.map((property) => {
      if (property.name !== name) return property;
      return rest.length === 0 ? change(property) : { ...property, schema: changedAt(property.schema, rest, change) };
    }),
  };
}

/** `input` whose data blocks admit no key they do not declare, as the closed-object option types them. */
function closeBlocks(input: Property): Property {
  const close = (schema: Schema): Schema => {
    if (schema.kind === "array") return { ...schema, items: close(schema.items) };
    if (schema.kind !== "object") return schema;
    const properties = schema.properties.map((property) => ({ ...property, schema: close(property.schema) }));
    const extra = schema.additionalProperties;
    return { ...schema, properties, additionalProperties: typeof extra === "boolean" ? false : close(extra) };
  };
  const blocks = input.schema;
  if (blocks.kind !== "object") throw new Error("input is an object");
  return { ...input, schema: { ...blocks, properties: blocks.properties.map((block) => ({ ...block, schema: close(block.schema) })) } };
}
