/**
 * The one normalised text of a flow description: how a snapshot of a fetched
 * description is stored (flows/<name>.json) and how codegen keeps the
 * description its output came from (<outputDir>/descriptions.json, one entry
 * a flow: description-copies.ts).
 *
 * Pretty-printed JSON with a stable key order, so the same description gives
 * the same bytes however the service orders its keys, and a new version
 * shows in `git diff` as the lines that changed. Stable, not simply sorted:
 * the fields OpenAPI defines (`type`, `required`, `info`...) are sorted, but
 * maps whose keys are names a flow chose (schema properties, paths, media
 * types, part encodings, component names) keep the document's order,
 * because that order is the order of the generated interfaces and fields.
 * Values that are data (`enum`, `default`, `example`, `x-` extensions) are
 * kept exactly as they are.
 */
import { compare } from "./file-tree.js";

/** How an object at some place of the document is laid out. */
type Shape =
  | { readonly kind: "fixed"; readonly fields: Readonly<Record<string, Shape>>; readonly first?: readonly string[] }
  | { readonly kind: "map"; readonly of: Shape }
  | { readonly kind: "array"; readonly of: Shape }
  | { readonly kind: "data" };

export function descriptionJson(document: unknown): string {
  return `${JSON.stringify(laidOut(document, ROOT), null, 2)}\n`;
}

function laidOut(value: unknown, shape: Shape): unknown {
  if (Array.isArray(value)) return value.map((item) => laidOut(item, shape.kind === "array" ? shape.of : DATA));
  if (typeof value !== "object" || value === null || shape.kind === "data" || shape.kind === "array") return value;
  // No prototype: a key named "__proto__" stays a key (assigned, not defined: much faster), never the prototype.
  const out = Object.create(null) as Record<string, unknown>;
  const keys = Object.keys(value);
  for (const key of shape.kind === "map" ? keys : fixedOrder(keys, shape.first ?? [])) {
    const child = (value as Record<string, unknown>)[key];
    const childShape =
      shape.kind === "map"
        ? shape.of
        : key.startsWith("x-") || !Object.hasOwn(shape.fields, key)
          ? DATA
          : (shape.fields[key] ?? DATA);
    out[key] = laidOut(child, childShape);
  }
  return out;
}

/** The preferred keys first (in that order), then `$ref`, then the rest by code point. */
function fixedOrder(keys: readonly string[], first: readonly string[]): string[] {
  const rank = (key: string) => {
    const index = first.indexOf(key);
    return index >= 0 ? index : key === "$ref" ? first.length : first.length + 1;
  };
  return [...keys].sort((a, b) => rank(a) - rank(b) || compare(a, b));
}

const DATA: Shape = { kind: "data" };
const fixed = (fields: Record<string, Shape> = {}, first?: readonly string[]): Shape => ({
  kind: "fixed",
  fields,
  ...(first ? { first } : {}),
});
const map = (of: Shape): Shape => ({ kind: "map", of });
const array = (of: Shape): Shape => ({ kind: "array", of });

/** Schemas nest: the fields are filled in below, once SCHEMA exists. */
const schemaFields: Record<string, Shape> = {};
const SCHEMA = fixed(schemaFields);
Object.assign(schemaFields, {
  properties: map(SCHEMA),
  items: SCHEMA,
  additionalProperties: SCHEMA,
  allOf: array(SCHEMA),
  anyOf: array(SCHEMA),
  oneOf: array(SCHEMA),
  not: SCHEMA,
  externalDocs: fixed(),
  xml: fixed(),
});

const EXAMPLE = fixed();
const SERVER = fixed({ variables: map(fixed()) });
const headerFields: Record<string, Shape> = { schema: SCHEMA, examples: map(EXAMPLE) };
const HEADER = fixed(headerFields);
const ENCODING = fixed({ headers: map(HEADER) });
const MEDIA_TYPE = fixed({ schema: SCHEMA, examples: map(EXAMPLE), encoding: map(ENCODING) });
headerFields["content"] = map(MEDIA_TYPE);
const PARAMETER = HEADER;
const REQUEST_BODY = fixed({ content: map(MEDIA_TYPE) });
const RESPONSE = fixed({ headers: map(HEADER), content: map(MEDIA_TYPE), links: map(fixed()) });

const operationFields: Record<string, Shape> = {};
const OPERATION = fixed(operationFields);
const PATH_ITEM = fixed({
  ...Object.fromEntries(
    ["get", "put", "post", "delete", "options", "head", "patch", "trace"].map((method) => [method, OPERATION]),
  ),
  parameters: array(PARAMETER),
  servers: array(SERVER),
});
Object.assign(operationFields, {
  parameters: array(PARAMETER),
  requestBody: REQUEST_BODY,
  responses: map(RESPONSE),
  callbacks: map(map(PATH_ITEM)),
  servers: array(SERVER),
  externalDocs: fixed(),
});

const ROOT = fixed(
  {
    info: fixed({ contact: fixed(), license: fixed() }, ["title", "description", "version"]),
    servers: array(SERVER),
    tags: array(fixed({ externalDocs: fixed() })),
    paths: map(PATH_ITEM),
    components: fixed({
      schemas: map(SCHEMA),
      responses: map(RESPONSE),
      parameters: map(PARAMETER),
      examples: map(EXAMPLE),
      requestBodies: map(REQUEST_BODY),
      headers: map(HEADER),
      securitySchemes: map(fixed()),
      links: map(fixed()),
      callbacks: map(map(PATH_ITEM)),
    }),
    externalDocs: fixed(),
  },
  ["openapi", "info", "servers", "security", "tags", "paths", "components"],
);
