/**
 * Normalises a form's request tree to the shape every flow shares
 * (docs/service.md 2.1, 2.2): `input`, `metadata` with exactly `subjectId` and
 * `locale`, `redirectUrl`, `state`; the parts a document leaves out are added,
 * so readers of the model never need to check.
 */
import type { BuildContext } from "./build-context.js";
import { MAX_STATE_LENGTH, METADATA_KEYS, SERVICE_LOCALES } from "@flowsmith/runtime/service-limits";
import type { BodyForm, Locale, ObjectSchema, Property, Schema, StringSchema } from "./types.js";
import { valueText } from "../read/value-text.js";

const REQUEST_KEYS = ["input", "metadata", "redirectUrl", "state"] as const;
type RequestKey = (typeof REQUEST_KEYS)[number];

export function normaliseRequestOrThrow(context: BuildContext, raw: ObjectSchema, form: BodyForm): ObjectSchema {
  const declared = new Map(raw.properties.map((property) => [property.name, property]));
  const unknown = raw.properties.find((property) => !(REQUEST_KEYS as readonly string[]).includes(property.name));
  if (unknown) {
    throw context.error(
      "UNSUPPORTED_CONSTRUCT",
      `${valueText(unknown.name)}: a request has only input, metadata, redirectUrl and state at the top level`,
      unknown.schema.pointer,
    );
  }
  const place = { context, form, pointer: raw.pointer };
  const normalised: Record<RequestKey, Property> = {
    input: inputOrThrow(place, declared.get("input")),
    metadata: metadataOrThrow(place, declared.get("metadata")),
    redirectUrl: redirectUrlOrThrow(place, declared.get("redirectUrl")),
    state: stateOrThrow(place, declared.get("state")),
  };
  // Document order first, then what the document left out, in the service's order.
  const order = [...raw.properties.map((property) => property.name as RequestKey), ...REQUEST_KEYS];
  return {
    ...raw,
    nullable: false,
    properties: [...new Set(order)].map((key) => normalised[key]),
    additionalProperties: false,
  };
}

/** The flow's locales: metadata.locale's enum (normalised, so always present). */
export function localesOf(request: ObjectSchema): readonly Locale[] {
  const metadata = request.properties.find((property) => property.name === "metadata")?.schema;
  const locale = metadata?.kind === "object" ? metadata.properties.find((p) => p.name === "locale")?.schema : undefined;
  return locale?.kind === "string" && locale.enum ? (locale.enum as readonly Locale[]) : SERVICE_LOCALES;
}

interface Place {
  readonly context: BuildContext;
  readonly form: BodyForm;
  /** The request schema's pointer, for parts the document leaves out. */
  readonly pointer: string;
}

function inputOrThrow(place: Place, declared: Property | undefined): Property {
  if (!declared) {
    const empty: ObjectSchema = {
      kind: "object",
      pointer: place.pointer,
      nullable: false,
      properties: [],
      additionalProperties: false,
    };
    return { name: "input", required: false, schema: empty };
  }
  const schema = expectKindOrThrow(place, declared, "object");
  // The service defaults input to {}: it is needed only when a data block in it is.
  return { name: "input", required: schema.properties.some((block) => block.required), schema };
}

function metadataOrThrow(place: Place, declared: Property | undefined): Property {
  const schema = declared ? expectKindOrThrow(place, declared, "object") : undefined;
  const fields = new Map((schema?.properties ?? []).map((property) => [property.name, property]));
  const extra = schema?.properties.find((property) => !(METADATA_KEYS as readonly string[]).includes(property.name));
  if (extra) {
    throw place.context.error(
      "UNSUPPORTED_CONSTRUCT",
      `metadata[${valueText(extra.name)}]: the service accepts only ${METADATA_KEYS.join(" and ")} in metadata`,
      extra.schema.pointer,
    );
  }
  if (schema && schema.additionalProperties !== false && schema.additionalProperties !== true) {
    throw place.context.error(
      "UNSUPPORTED_CONSTRUCT",
      "metadata cannot have typed additionalProperties",
      schema.pointer,
    );
  }
  const subjectId = fields.get("subjectId");
  const locale = fields.get("locale");
  const normalisedFields: Property[] = [
    {
      name: "subjectId",
      required: true,
      schema: subjectId ? expectKindOrThrow(place, subjectId, "string") : added(place, "metadata[subjectId]"),
    },
    { name: "locale", required: false, schema: localeSchemaOrThrow(place, locale) },
  ];
  const order = [...(schema?.properties ?? []).map((property) => property.name), ...METADATA_KEYS];
  const byName = new Map(normalisedFields.map((field) => [field.name, field]));
  return {
    name: "metadata",
    required: true,
    schema: {
      kind: "object",
      pointer: schema?.pointer ?? place.pointer,
      nullable: false,
      ...(schema?.description !== undefined ? { description: schema.description } : {}),
      properties: [...new Set(order)].map((name) => byName.get(name) as Property),
      additionalProperties: false,
    },
  };
}

function localeSchemaOrThrow(place: Place, declared: Property | undefined): StringSchema {
  if (!declared) return { ...added(place, "metadata[locale]"), enum: SERVICE_LOCALES };
  const schema = expectKindOrThrow(place, declared, "string");
  const values = schema.enum ?? SERVICE_LOCALES;
  values.forEach((value, index) => {
    if (!(SERVICE_LOCALES as readonly string[]).includes(value)) {
      throw place.context.error(
        "INVALID_SCHEMA",
        `locale ${valueText(value)} is not one the service knows (${SERVICE_LOCALES.join(", ")})`,
        `${schema.pointer}/enum/${String(index)}`,
      );
    }
  });
  return { ...schema, enum: [...new Set(values)] };
}

function redirectUrlOrThrow(place: Place, declared: Property | undefined): Property {
  if (!declared)
    return { name: "redirectUrl", required: false, schema: { ...added(place, "redirectUrl"), format: "uri" } };
  return { ...declared, schema: expectKindOrThrow(place, declared, "string") };
}

function stateOrThrow(place: Place, declared: Property | undefined): Property {
  const schema = declared ? expectKindOrThrow(place, declared, "string") : added(place, "state");
  const maxLength = Math.min(schema.maxLength ?? MAX_STATE_LENGTH, MAX_STATE_LENGTH);
  return { name: "state", required: declared?.required ?? false, schema: { ...schema, maxLength } };
}

/** A string the document leaves out; in multipart flows it gets the part name the service expects. */
function added(place: Place, part: string): StringSchema {
  return {
    kind: "string",
    pointer: place.pointer,
    nullable: false,
    ...(place.form === "multipart" ? { part: [part] } : {}),
  };
}

function expectKindOrThrow<K extends Schema["kind"]>(
  place: Place,
  property: Property,
  kind: K,
): Extract<Schema, { kind: K }> {
  if (property.schema.kind !== kind) {
    throw place.context.error(
      "INVALID_SCHEMA",
      `${valueText(property.name)} must be ${kind === "object" ? "an object" : `a ${kind}`}, not ${property.schema.kind}`,
      property.schema.pointer,
    );
  }
  return property.schema as Extract<Schema, { kind: K }>;
}
