/**
 * Flow descriptions for the fuzz suite: request trees (request-tree.ts)
 * written as the JSON form, the multipart form or both, inside a complete
 * OpenAPI document with hostile text in every place a description allows
 * text, in JSON or YAML. Each case says what codegen must do with it.
 */
import fc from "fast-check";
import { stringify } from "yaml";
import type { CodegenErrorCode } from "../../generator/errors.js";
import { MAX_SCHEMA_DEPTH } from "../../generator/model/limits.js";
import { catastrophicPattern, unsupportedPattern, type CatastrophicPattern } from "./catastrophic-patterns.js";
import { hostileText, safeFlowId, unsafeFlowId } from "./hostile-text.js";
import {
  chain,
  objectNode,
  type ArrayNode,
  type Field,
  type Json,
  type Leaf,
  type Node,
  type ObjectNode,
  type TreeOptions,
} from "./request-tree.js";

type Expectation =
  /** A description the service could produce: it must generate. */
  | { readonly kind: "generates" }
  /** It must be refused with this code. */
  | { readonly kind: "refused"; readonly code: CodegenErrorCode }
  /** Anything goes but a crash: it generates, or it is refused with a typed error naming the file. */
  | { readonly kind: "generates-or-refused" };

export interface FlowCase {
  readonly category: string;
  /** The description file's content. */
  readonly text: string;
  /** The name the file is given (in the config, and in the generated header). */
  readonly display: string;
  readonly expect: Expectation;
  /** Requests the generated request check must answer at once (test/support/bounded.ts), and what it must say of `field`. */
  readonly probes?: readonly Probe[];
  /** The one pattern the linear-time engine cannot run: generated all the same, the run's report names its field. */
  readonly leftToService?: { readonly field: string; readonly pattern: string };
}

export interface Probe {
  readonly request: Json;
  /** The readable path of the value probed, as issues name it (`input.hostile.value`). */
  readonly field: string;
  /** Whether the client's check must refuse the value for the field's pattern. */
  readonly refused: boolean;
  /** What the value is, for a failure's message. */
  readonly what: string;
}

type Forms = "json" | "multipart" | "both";
type Mutable = Record<string, unknown>;

const LOCALES = ["en", "de", "fr", "pl", "it", "es"] as const;
/** The model's depth limit (generator/model/limits.ts) less the two levels of the request root and `input`. */
const MAX_BLOCK_LEVELS = MAX_SCHEMA_DEPTH - 2;

interface Flow {
  readonly forms: Forms;
  readonly id: string;
  readonly info: {
    readonly title: string;
    readonly description?: string;
    readonly version: string;
    readonly flowVersion: number;
  };
  readonly summary?: string;
  readonly blocks: readonly Field[];
  readonly locales?: readonly string[];
  readonly subjectIdDescription?: string;
  readonly redirectUrl?: string;
  readonly state?: string;
  readonly response: Node;
  readonly yaml: boolean;
  /** Text the model reads but keeps out of the code: the server URL, the response's description, an extension. */
  readonly elsewhere: string;
  /** The file's name, as a config may give it. */
  readonly fileName: string;
}

export function flowCases(): fc.Arbitrary<FlowCase> {
  return fc.oneof(
    { weight: 16, arbitrary: flow().map((built) => flowCase("valid", built, { kind: "generates" })) },
    { weight: 3, arbitrary: fc.tuple(flow(), mutations()).map(([built, edits]) => mutated(built, edits)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(flow(), unsafeFlowId())
        .map(([built, id]) =>
          flowCase("unsafe flow id", { ...built, id }, { kind: "refused", code: "UNSAFE_FLOW_ID" }),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(flow(), fc.integer({ min: MAX_BLOCK_LEVELS - 4, max: MAX_BLOCK_LEVELS + 3 }))
        .map(([built, levels]) => deep(built, levels)),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(flow(), catastrophicPattern()).map(([built, pattern]) => catastrophic(built, pattern)),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(flow(), unsupportedPattern()).map(([built, pattern]) => unsupported(built, pattern)),
    },
  );
}

const probeRequest = (value: string): Json => ({ input: { hostile: { value } }, metadata: { subjectId: "probe" } });
const PROBED = "input.hostile.value";

/** One block with one required string field under the pattern, and requests with a hostile value and a matching one. */
function catastrophic(built: Flow, { pattern, hostile, matching }: CatastrophicPattern): FlowCase {
  return {
    ...flowCase("catastrophic pattern", { ...built, blocks: [patternBlock(pattern)] }, { kind: "generates" }),
    probes: [
      { request: probeRequest(hostile), field: PROBED, refused: true, what: "the hostile value" },
      { request: probeRequest(matching), field: PROBED, refused: false, what: "the matching value" },
    ],
  };
}

/**
 * One field under a pattern RE2 cannot run: generated, the report names the field, and a value the
 * pattern refuses passes the client's check (the service checks it). That value is found by the
 * native RegExp among texts of at most one character, where it cannot backtrack for long; a pattern
 * that accepts them all (a lookahead of empty text) gets no probe.
 */
function unsupported(built: Flow, pattern: string): FlowCase {
  const refusedText = ["", "x", "y", "z", "!"].find((text) => !new RegExp(pattern, "u").test(text));
  return {
    ...flowCase("unsupported pattern", { ...built, blocks: [patternBlock(pattern)] }, { kind: "generates" }),
    leftToService: { field: `request.${PROBED}`, pattern },
    probes:
      refusedText === undefined
        ? []
        : [
            {
              request: probeRequest(refusedText),
              field: PROBED,
              refused: false,
              what: `${JSON.stringify(refusedText)}, which the pattern refuses and the client leaves to the service,`,
            },
          ],
  };
}

function patternBlock(pattern: string): Field {
  const value: Field = {
    name: "value",
    required: true,
    nullable: false,
    viaRef: false,
    node: { kind: "string", pattern },
  };
  return { name: "hostile", required: true, nullable: false, viaRef: false, node: { kind: "object", fields: [value] } };
}

function flow(): fc.Arbitrary<Flow> {
  return fc.constantFrom<Forms>("json", "multipart", "both").chain((forms) => {
    const options: TreeOptions = { multipart: forms !== "json", files: forms !== "json" };
    return fc.record({
      forms: fc.constant(forms),
      id: safeFlowId(),
      info: fc.record({
        title: hostileText(),
        description: fc.option(hostileText(), { nil: undefined }),
        version: hostileText(2),
        flowVersion: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
      }),
      summary: fc.option(hostileText(), { nil: undefined }),
      blocks: blocks(options),
      locales: fc.option(fc.subarray([...LOCALES], { minLength: 1 }), { nil: undefined }),
      subjectIdDescription: fc.option(hostileText(), { nil: undefined }),
      redirectUrl: fc.option(hostileText(), { nil: undefined }),
      state: fc.option(hostileText(), { nil: undefined }),
      response: fc.oneof(
        { weight: 8, arbitrary: objectNode({ multipart: false, files: false }, 2) },
        { weight: 1, arbitrary: fc.constant<Node>({ kind: "string" }) },
      ),
      yaml: fc.boolean(),
      elsewhere: hostileText(4),
      fileName: fc.oneof({ weight: 3, arbitrary: fc.constant("flow") }, { weight: 1, arbitrary: hostileText(3) }),
    });
  });
}

/** Data blocks: objects under `input`, with names a description may give them. */
function blocks(options: TreeOptions): fc.Arbitrary<Field[]> {
  return objectNode(options, 3, 4).map((input) =>
    input.fields.map((block) =>
      block.node.kind === "object"
        ? block
        : { ...block, node: { kind: "object" as const, fields: [{ ...block, name: "value" }] } },
    ),
  );
}

/** The request as the description declares it, and what codegen must do. */
function flowCase(category: string, built: Flow, expect: Expectation): FlowCase {
  return {
    category: `${category} (${built.forms}${built.yaml ? ", yaml" : ""})`,
    text: documentText(built, document(built)),
    display: displayOf(built),
    expect,
  };
}

function displayOf(built: Flow): string {
  return `flows/${built.fileName}.${built.yaml ? "yaml" : "json"}`;
}

function deep(built: Flow, levels: number): FlowCase {
  const block: Field = { name: "deep", required: true, nullable: false, viaRef: false, node: chain(levels, "k") };
  const expect: Expectation =
    levels <= MAX_BLOCK_LEVELS ? { kind: "generates" } : { kind: "refused", code: "TOO_DEEP" };
  return flowCase(`depth ${String(levels)}`, { ...built, blocks: [block] }, expect);
}

function documentText(built: Flow, document: Mutable): string {
  // lineWidth 0: YAML never folds a long description across lines.
  return built.yaml ? stringify(document, { lineWidth: 0 }) : JSON.stringify(document, null, 1);
}

function document(built: Flow): Mutable {
  const components: Record<string, Json> = {};
  const content: Record<string, Json> = {};
  const blocks = built.forms === "both" ? built.blocks.map(withDerivedRequired) : built.blocks;
  if (built.forms !== "multipart") content["application/json"] = jsonForm(built, blocks, components);
  if (built.forms !== "json") content["multipart/form-data"] = multipartForm(built, blocks);
  const path = `/api/v1/flows/${built.id}/staging/sessions`;
  return {
    openapi: "3.0.3",
    info: {
      title: built.info.title,
      ...(built.info.description === undefined ? {} : { description: built.info.description }),
      version: built.info.version,
      "x-flow-id": built.id,
      "x-flow-version": built.info.flowVersion,
      "x-environment": "staging",
      "x-note": built.elsewhere,
    },
    servers: [{ url: `https://api.example.test/${built.elsewhere}` }],
    paths: {
      [path]: {
        post: {
          operationId: "createSession",
          ...(built.summary === undefined ? {} : { summary: built.summary }),
          security: [{ bearerAuth: [] }],
          requestBody: { required: true, content },
          responses: {
            "201": {
              description: built.elsewhere,
              content: { "application/json": { schema: schemaOf(built.response, components) } },
            },
          },
        },
      },
    },
    components: { securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } }, schemas: components },
  };
}

// --- the JSON form ---------------------------------------------------------

function jsonForm(built: Flow, blocks: readonly Field[], components: Record<string, Json>): Json {
  const input: ObjectNode = { kind: "object", fields: blocks };
  const anyRequired = blocks.some((block) => block.required);
  const metadata: Json = {
    type: "object",
    required: ["subjectId"],
    properties: {
      subjectId: { type: "string", ...described(built.subjectIdDescription) },
      ...(built.locales ? { locale: { type: "string", enum: built.locales, default: built.locales[0] ?? "en" } } : {}),
    },
  };
  return {
    schema: {
      type: "object",
      required: ["metadata", ...(anyRequired ? ["input"] : [])],
      properties: {
        input: schemaOf(input, components),
        metadata,
        ...topLevelStrings(built),
      },
    },
  };
}

function topLevelStrings(built: Flow): Record<string, Json> {
  return {
    ...(built.redirectUrl === undefined
      ? {}
      : { redirectUrl: { type: "string", format: "uri", ...described(built.redirectUrl) } }),
    ...(built.state === undefined ? {} : { state: { type: "string", maxLength: 2048, ...described(built.state) } }),
  };
}

function schemaOf(node: Node, components: Record<string, Json>): Json {
  switch (node.kind) {
    case "object": {
      const required = node.fields.filter((field) => field.required).map((field) => field.name);
      return {
        type: "object",
        ...(required.length > 0 ? { required } : {}),
        properties: Object.fromEntries(node.fields.map((field) => [field.name, fieldSchema(field, components)])),
        ...(node.additional === undefined
          ? {}
          : { additionalProperties: node.additional === "typed" ? { type: "string" } : node.additional }),
      };
    }
    case "array":
      return { type: "array", items: schemaOf(node.items, components), ...counts(node) };
    default:
      return leafSchema(node);
  }
}

function fieldSchema(field: Field, components: Record<string, Json>): Json {
  const own = {
    ...described(field.description),
    ...(field.nullable ? { nullable: true } : {}),
    ...(field.default === undefined ? {} : { default: field.default }),
  };
  const schema = schemaOf(field.node, components);
  if (!field.viaRef) return { ...(schema as Record<string, Json>), ...own };
  const name = `S${String(Object.keys(components).length + 1)}`;
  components[name] = schema;
  return { allOf: [{ $ref: `#/components/schemas/${name}` }], ...own };
}

function leafSchema(leaf: Leaf): Record<string, Json> {
  switch (leaf.kind) {
    case "string": {
      const { kind, ...rest } = leaf;
      return { type: kind, ...rest };
    }
    case "number": {
      const { kind, integer, exclusive, ...rest } = leaf;
      const bounds: Record<string, Json> =
        rest.minimum === undefined
          ? {}
          : { exclusiveMinimum: Boolean(exclusive), exclusiveMaximum: Boolean(exclusive) };
      return { type: integer ? "integer" : kind, ...(rest as Record<string, Json>), ...bounds };
    }
    case "boolean":
      return { type: "boolean", ...(leaf.enum ? { enum: leaf.enum } : {}) };
    case "file":
      return {
        type: "string",
        format: "binary",
        ...(leaf.maxLength === undefined ? {} : { maxLength: leaf.maxLength }),
      };
  }
}

// --- the multipart form -----------------------------------------------------

function multipartForm(built: Flow, blocks: readonly Field[]): Json {
  const properties: Record<string, Json> = {
    "metadata[subjectId]": { type: "string", ...described(built.subjectIdDescription) },
  };
  const required = ["metadata[subjectId]"];
  const encoding: Record<string, Json> = {};
  const part = (name: string, field: Field): void => {
    const node = field.node;
    if (node.kind === "object") {
      for (const child of node.fields) part(`${name}[${child.name}]`, child);
    } else if (node.kind === "array" && node.group && node.items.kind === "object") {
      for (const child of node.items.fields) part(`${name}[][${child.name}]`, child);
    } else {
      properties[name] = fieldSchema(field, {});
      if (field.required) required.push(name);
      const file = fileOf(node);
      if (file?.contentType !== undefined) encoding[name] = { contentType: file.contentType };
    }
  };
  for (const block of blocks) part(`input[${block.name}]`, block);
  if (built.locales) properties["metadata[locale]"] = { type: "string", enum: built.locales };
  Object.assign(properties, topLevelStrings(built));
  return {
    schema: { type: "object", required, properties },
    ...(Object.keys(encoding).length > 0 ? { encoding } : {}),
  };
}

function fileOf(node: Node): Extract<Leaf, { kind: "file" }> | undefined {
  if (node.kind === "file") return node;
  return node.kind === "array" ? fileOf(node.items) : undefined;
}

/**
 * A multipart object or `[]` group is required exactly when a part under it
 * is (docs/flow-descriptions.md); a JSON form beside it must say the same.
 */
function withDerivedRequired(field: Field): Field {
  const node = field.node;
  if (node.kind === "object") {
    const fields = node.fields.map(withDerivedRequired);
    return { ...field, required: fields.some((child) => child.required), node: { ...node, fields } };
  }
  if (node.kind === "array" && node.group && node.items.kind === "object") {
    const fields = node.items.fields.map(withDerivedRequired);
    const items: ObjectNode = { ...node.items, fields };
    return { ...field, required: fields.some((child) => child.required), node: { ...node, items } };
  }
  return field;
}

function counts(node: ArrayNode): Record<string, Json> {
  return {
    ...(node.minItems === undefined ? {} : { minItems: node.minItems }),
    ...(node.maxItems === undefined ? {} : { maxItems: node.maxItems }),
  };
}

function described(text: string | undefined): Record<string, Json> {
  return text === undefined ? {} : { description: text };
}

// --- mutations ---------------------------------------------------------------

type Edit = readonly [path: readonly number[], value: unknown];

/** Up to three edits, each a walk down the document by child index and a value to put (or `undefined`: delete). */
function mutations(): fc.Arbitrary<readonly Edit[]> {
  const value = fc.oneof(
    hostileText(3),
    fc.constantFrom<unknown>(
      undefined,
      null,
      true,
      0,
      -1,
      1e308,
      Infinity,
      [],
      {},
      "object",
      "array",
      "string",
      "binary",
      "#/components/schemas/S1",
    ),
    fc.jsonValue({ maxDepth: 2 }),
  );
  return fc.array(fc.tuple(fc.array(fc.nat({ max: 30 }), { minLength: 1, maxLength: 12 }), value), {
    minLength: 1,
    maxLength: 3,
  });
}

function mutated(built: Flow, edits: readonly Edit[]): FlowCase {
  const doc = document(built);
  for (const [path, value] of edits) edit(doc, path, value);
  const written = { ...built, yaml: built.yaml || hasNonFinite(edits) };
  return {
    category: `mutated (${built.forms})`,
    text: documentText(written, doc),
    display: displayOf(written),
    expect: { kind: "generates-or-refused" },
  };
}

function edit(root: Mutable, path: readonly number[], value: unknown): void {
  let node: unknown = root;
  for (const [step, choice] of path.entries()) {
    if (typeof node !== "object" || node === null) return;
    const keys = Object.keys(node);
    if (keys.length === 0) return;
    const key = keys[choice % keys.length] as string;
    const child = (node as Mutable)[key];
    const last = step === path.length - 1 || typeof child !== "object" || child === null;
    if (last) {
      if (value === undefined) Reflect.deleteProperty(node, key);
      else (node as Mutable)[key] = value;
      return;
    }
    node = child;
  }
}

/** Infinity has no JSON spelling: such a document is written as YAML (`.inf`). */
function hasNonFinite(edits: readonly Edit[]): boolean {
  return edits.some(([, value]) => typeof value === "number" && !Number.isFinite(value));
}
