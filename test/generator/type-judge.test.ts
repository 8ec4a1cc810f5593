/**
 * openapi-typescript as an independent judge of our emitted types (issue 26;
 * test/judge/judge.ts): on the sample flows, the unseen-style fixtures, the
 * hostile descriptions of issue 10 and one description per construct and
 * per documented difference, openapi-typescript's types and ours agree both
 * ways, for the JSON request, the multipart parts and the 201 response. The
 * fuzz suite (fuzz.test.ts) runs the same judge over its descriptions.
 *
 * And the judge can fail: emission broken on purpose (an optional field
 * emitted as required, an enum value dropped, and more) is caught, naming
 * the flow, the path and both types.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { emitFlowOrThrow } from "../../generator/emit/emit-flow.js";
import { withClosedDataBlocks } from "../../generator/model/closed-data-blocks.js";
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
  ...[...HOSTILE_GENERATES, ...JUDGE_CONSTRUCTS].map(([name, parts]) => ({
    display: `flows/${name}.yaml`,
    text: description(parts),
  })),
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
  return {
    ...flow,
    model,
    files: await emitFlowOrThrow(model, { runtimeImport: RUNTIME_IMPORT }),
    ...(options ? { options } : {}),
  };
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

const required = (property: Property): Property => ({ ...property, required: true });
const withoutValue =
  (value: string) =>
  (property: Property): Property => {
    const schema = property.schema;
    if (schema.kind !== "string" || !schema.enum) throw new Error(`${property.name} has no string enum`);
    return { ...property, schema: { ...schema, enum: schema.enum.filter((member) => member !== value) } };
  };

/** Emission broken on purpose: which flow, how, and the first line the judge must report (flow, path, what). */
const BROKEN: readonly [string, { flow: string; break: (model: FlowModel) => FlowModel; want: string }][] = [
  [
    "an optional field emitted as required",
    {
      flow: "flows/aml-screening.yaml",
      break: (model) => withProperty(model, ["input", "basicIdentity", "name"], required),
      want: "request.input.basicIdentity.name: required in ours, optional in theirs",
    },
  ],
  [
    "an optional part emitted as required",
    {
      flow: "flows/signing.yaml",
      break: (model) => withProperty(model, ["input", "basicIdentity", "birthPlace"], required),
      want: 'part "input[basicIdentity][birthPlace]": required in ours, optional in theirs',
    },
  ],
  [
    "an enum value dropped from a part",
    {
      flow: "flows/document-verification.yaml",
      break: (model) => withProperty(model, ["input", "documentImages", "documentType"], withoutValue("ID_CARD")),
      want: 'part "input[documentImages][documentType]": only theirs admits "ID_CARD"',
    },
  ],
  [
    "an enum value dropped from the response",
    {
      flow: "flows/aml-screening.yaml",
      break: (model) => ({ ...model, response: changedAt(model.response, ["environment"], withoutValue("live")) }),
      want: 'response.environment: only theirs admits "live"',
    },
  ],
  [
    "an optional response field emitted as required",
    {
      flow: "flows/signing.yaml",
      break: (model) => ({ ...model, response: changedAt(model.response, ["sessionContext", "createdAt"], required) }),
      want: "response.sessionContext.createdAt: required in ours, optional in theirs",
    },
  ],
  [
    "nullable dropped",
    {
      flow: "flows/nullable leaves, objects and arrays.yaml",
      break: (model) =>
        withProperty(model, ["input", "a", "s"], (property) => ({
          ...property,
          schema: { ...property.schema, nullable: false },
        })),
      want: "request.input.a.s: only theirs admits null",
    },
  ],
  [
    "an optional field left out",
    {
      flow: "flows/aml-screening.yaml",
      break: (model) =>
        withProperty(model, ["input", "basicIdentity"], (block) => ({
          ...block,
          schema: without(block.schema, "birthPlace"),
        })),
      want: "request.input.basicIdentity.birthPlace: only theirs has this property",
    },
  ],
  [
    "an integer part typed as a string",
    {
      flow: "flows/parts of every kind of leaf.yaml",
      break: (model) =>
        withProperty(model, ["input", "a", "i"], (property) => ({
          ...property,
          schema: {
            kind: "string",
            pointer: property.schema.pointer,
            nullable: false,
            ...(property.schema.part ? { part: property.schema.part } : {}),
          },
        })),
      want: 'part "input[a][i]": only ours admits string; only theirs admits number',
    },
  ],
];

test("the judge catches emission broken on purpose, naming the flow, the path and both types", async () => {
  const flows = await Promise.all(
    BROKEN.map(async ([, each]) => {
      const flow = await source(each.flow);
      return broken(flow, each.break(flow.model));
    }),
  );
  const verdicts = await judgeFlows(flows);
  expect(verdicts.map((found, index) => [BROKEN[index]?.[0], headlines(found)])).toEqual(
    BROKEN.map(([name, each], index) => [
      name,
      [`flow ${flows[index]?.model.name ?? ""} (${each.flow}): ${each.want}`],
    ]),
  );
  // Both types, as each side spells them.
  expect(verdicts[0]?.[0]).toContain("\n  ours:   string\n  theirs: string | undefined");
  expect(verdicts[2]?.[0]).toContain(
    '\n  ours:   "BANK_STATEMENT" | "UTILITY_BILL"\n  theirs: "BANK_STATEMENT" | "UTILITY_BILL" | "ID_CARD"',
  );
});

test("open data blocks typed closed are a disagreement, unless the flow was generated so (the closed-object option)", async () => {
  const flow = await source("flows/extra keys left out, true, false, {} and typed.yaml");
  const closed = withProperty(flow.model, ["input"], closeBlocks);
  const verdicts = await judgeFlows([
    await broken(flow, closed),
    await broken(flow, closed, { closedDataBlocks: true }),
  ]);
  expect(headlines(verdicts[0] ?? [])).toEqual(
    ["open", "yes", "any", "described", "typed.c", "typed[key]", "typedObjects[key]"].map(
      (at) =>
        `flow test-flow (flows/extra keys left out, true, false, {} and typed.yaml): request.input.${at}[key]: only theirs has an index signature`,
    ),
  );
  expect(verdicts[1]).toEqual([]);
});

test("with the closed-object option (the generator's own closedDataBlocks step), every description still agrees through its one adapter", async () => {
  const flows = await Promise.all(SOURCES.map((each) => emitted(each.display, each.text)));
  const verdicts = await judgeFlows(
    await Promise.all(flows.map((flow) => broken(flow, withClosedDataBlocks(flow.model), { closedDataBlocks: true }))),
  );
  expect(verdicts.flat()).toEqual([]);
  // The option did close something the judge would otherwise see as a disagreement.
  const unadapted = await judgeFlows(
    await Promise.all(flows.map((flow) => broken(flow, withClosedDataBlocks(flow.model)))),
  );
  expect(unadapted.flat().length).toBeGreaterThan(0);
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

/** An object schema without one of its properties. */
function without(schema: Schema, name: string): Schema {
  if (schema.kind !== "object") throw new Error("not an object");
  return { ...schema, properties: schema.properties.filter((property) => property.name !== name) };
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
  return {
    ...input,
    schema: { ...blocks, properties: blocks.properties.map((block) => ({ ...block, schema: close(block.schema) })) },
  };
}
