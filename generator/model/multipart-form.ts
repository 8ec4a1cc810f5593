/**
 * The multipart form (`multipart/form-data`): one flat object of
 * bracket-named properties, one per part, turned into the nested request tree
 * with exact part names. A bracket-implied object or array is required when
 * any leaf under it is in the flat `required` list.
 */
import { appendPointer } from "../read/json-pointer.js";
import { isRecord, ownValue, type BuildContext, type Located } from "./build-context.js";
import { buildBracketTreeOrThrow, type TreeNode } from "./bracket-tree.js";
import { flattenSchemaOrThrow } from "./flat-schema.js";
import type { FlatSchema } from "./flat-schema-types.js";
import { checkDepthOrThrow } from "./limits.js";
import { withPartNames } from "./part-names.js";
import { propertyOrThrow } from "./property.js";
import { convertSchemaOrThrow } from "./schema.js";
import type { ObjectSchema, Schema } from "./types.js";
import { valueText } from "../read/value-text.js";

/** The form's request tree, before request.ts normalises it. */
export function buildMultipartFormOrThrow(context: BuildContext, media: Located): ObjectSchema {
  const schemaAt = {
    value: ownValue(record(media), "schema"),
    pointer: appendPointer(media.pointer, "schema"),
    trail: media.trail,
  };
  const form = flattenSchemaOrThrow(context, schemaAt);
  checkFlatFormOrThrow(context, form);
  const place: FormPlace = {
    context,
    required: new Set(form.required),
    mediaTypes: readEncodingOrThrow(context, media, form),
  };
  const tree = buildBracketTreeOrThrow(context, { name: "", ...schemaAt, pointer: form.pointer }, form.properties);
  const request = convertNodeOrThrow(place, tree, 0).schema as ObjectSchema;
  return { ...request, pointer: form.pointer };
}

interface FormPlace {
  readonly context: BuildContext;
  /** The form's flat `required` list. */
  readonly required: ReadonlySet<string>;
  /** Accepted media types by declared property name. */
  readonly mediaTypes: ReadonlyMap<string, readonly string[]>;
}

/**
 * `enclosing`: the objects and arrays around the node (the root group has
 * none), checked against the depth limit before going further down, since
 * bracket names can nest as deep as they are long.
 */
function convertNodeOrThrow(
  place: FormPlace,
  node: TreeNode,
  enclosing: number,
): { schema: Schema; required: boolean } {
  switch (node.kind) {
    case "declared": {
      const { property, depth } = node;
      const schema = convertSchemaOrThrow(place.context, property, "multipart", enclosing);
      return {
        schema: withPartNames(schema, [property.name], depth, place.mediaTypes.get(property.name) ?? []),
        required: place.required.has(property.name),
      };
    }
    case "list": {
      checkDepthOrThrow(place.context, enclosing + 1, node.via.pointer);
      // A list exists only once some name went through its `[]`, so it always has an element.
      const element = convertNodeOrThrow(place, node.element as TreeNode, enclosing + 1);
      return {
        schema: { kind: "array", pointer: node.via.pointer, nullable: false, items: element.schema },
        required: element.required,
      };
    }
    case "group": {
      checkDepthOrThrow(place.context, enclosing + 1, node.via.pointer);
      const properties = [...node.children].map(([name, child]) => {
        const converted = convertNodeOrThrow(place, child, enclosing + 1);
        return propertyOrThrow(place.context, name, converted.required, converted.schema);
      });
      return {
        schema: { kind: "object", pointer: node.via.pointer, nullable: false, properties, additionalProperties: false },
        required: properties.some((property) => property.required),
      };
    }
  }
}

function checkFlatFormOrThrow(context: BuildContext, form: FlatSchema): void {
  const type = form.keywords["type"];
  if (type !== undefined && type !== "object") {
    throw context.error(
      "INVALID_SCHEMA",
      `the multipart form's schema must be an object, not ${valueText(type)}`,
      form.pointer,
    );
  }
  if (form.additionalProperties !== undefined && form.additionalProperties !== false) {
    throw context.error(
      "UNSUPPORTED_CONSTRUCT",
      "additionalProperties in the multipart form: every part must be declared by name",
      appendPointer(form.pointer, "additionalProperties"),
    );
  }
  const names = new Set(form.properties.map((property) => property.name));
  const unknown = form.required.find((name) => !names.has(name));
  if (unknown !== undefined) {
    throw context.error(
      "INVALID_SCHEMA",
      `\`required\` lists ${valueText(unknown)}, which is not among the form's properties`,
      appendPointer(form.pointer, "required"),
    );
  }
}

/** `encoding.<part>.contentType` ("image/jpeg, image/png") per declared property name. */
function readEncodingOrThrow(
  context: BuildContext,
  media: Located,
  form: FlatSchema,
): ReadonlyMap<string, readonly string[]> {
  const encoding = ownValue(record(media), "encoding");
  const out = new Map<string, readonly string[]>();
  if (!isRecord(encoding)) return out;
  const names = new Set(form.properties.map((property) => property.name));
  for (const name of Object.keys(encoding)) {
    const pointer = appendPointer(media.pointer, "encoding", name);
    if (!names.has(name)) {
      throw context.error(
        "INVALID_SCHEMA",
        `encoding names ${valueText(name)}, which is not a property of the form`,
        pointer,
      );
    }
    const entry = encoding[name];
    const contentType = isRecord(entry) ? ownValue(entry, "contentType") : undefined;
    if (typeof contentType !== "string") continue;
    const types = contentType
      .split(",")
      .map((type) => type.trim().toLowerCase())
      .filter((type) => type !== "");
    out.set(name, [...new Set(types)]);
  }
  return out;
}

function record(at: Located): Readonly<Record<string, unknown>> {
  return isRecord(at.value) ? at.value : {};
}
