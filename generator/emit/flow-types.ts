/**
 * The type declarations of one flow module: `flow`'s type, the request (with
 * one interface per data block), metadata, the locale union and the response.
 * Fixed names are claimed first so a data block can never take them (the
 * template's createSession refers to `Flow`, `CreateSessionRequest` and
 * `CreateSessionResponse` by name).
 */
import type { OptionalKind, PropertySignatureStructure } from "ts-morph";
import type { FlowModel, ObjectSchema, Property, Schema } from "../model/types.js";
import { docs, schemaDocs, type Docs } from "./docs.js";
import { codeStringLiteral, numberLiteral, propertyKey, typeName } from "./escape.js";
import { MODULE_BINDINGS, NameAllocator } from "./names.js";
import { toleratingInherited, TypeEmitter, type Declaration } from "./schema-types.js";

export interface FlowTypes {
  readonly declarations: readonly Declaration[];
  readonly usesFileInput: boolean;
}

interface FixedNames {
  readonly flow: string;
  readonly request: string;
  readonly input: string;
  readonly metadata: string;
  readonly locale: string;
  readonly response: string;
}

export function flowTypes(model: FlowModel): FlowTypes {
  const names = new NameAllocator(MODULE_BINDINGS);
  const fixed: FixedNames = {
    flow: names.claim("Flow"),
    request: names.claim("CreateSessionRequest"),
    input: names.claim("Input"),
    metadata: names.claim("Metadata"),
    locale: names.claim("Locale"),
    response: names.claim("CreateSessionResponse"),
  };
  const types = new TypeEmitter(names);
  declareFlow(model, fixed, types);
  declareRequest(model, fixed, types);
  declareMetadata(model, fixed, types);
  declareLocale(model, fixed, types);
  declareResponse(model, fixed, types);
  return { declarations: types.declarations, usesFileInput: types.usesFileInput };
}

/** `flow`'s values as literal types: the module embeds the values as JSON, like `spec`. */
function declareFlow(model: FlowModel, fixed: FixedNames, types: TypeEmitter): void {
  const literalType = (name: string, type: string) => ({ name, isReadonly: true, type });
  types.declareWith(fixed.flow, docs(["The type of `flow`: its values as literal types."]), () => ({
    properties: [
      literalType("id", codeStringLiteral(model.id)),
      literalType("version", numberLiteral(model.version)),
      literalType("environment", codeStringLiteral(model.environment)),
      literalType("title", codeStringLiteral(model.title)),
      literalType("path", codeStringLiteral(model.path)),
    ],
  }));
}

function declareRequest(model: FlowModel, fixed: FixedNames, types: TypeEmitter): void {
  const about = `The request that creates a session of the flow "${model.title}".`;
  types.declareWith(fixed.request, docs([about]), () => {
    const properties = model.request.properties.map((property) => {
      if (property.name === "metadata") return metadataProperty(property, fixed);
      if (property.name === "input" && property.schema.kind === "object") {
        return inputProperty(property, property.schema, fixed, types);
      }
      return types.property(property, "");
    });
    if (!model.request.properties.some((p) => p.name === "metadata")) {
      properties.push(metadataProperty(undefined, fixed));
    }
    return { properties };
  });
}

/** `input`: interface Input, whose data blocks are named after themselves (`BasicIdentity`). */
function inputProperty(
  property: Property,
  schema: ObjectSchema,
  fixed: FixedNames,
  types: TypeEmitter,
): OptionalKind<PropertySignatureStructure> {
  const about = "The data blocks the flow's steps need, keyed by data block name.";
  types.declareWith(fixed.input, schemaDocs(schema, about), () => {
    const properties = schema.properties.map((block) => blockProperty(block, types));
    // The service takes exactly the flow's data blocks (docs/service.md 2.4), so
    // an open `input` still lists only them; without any, it is an object all the same.
    const indexSignatures = properties.length === 0 ? types.indexSignatures(fixed.input, schema, properties) : [];
    return { properties, indexSignatures };
  });
  return {
    name: "input",
    hasQuestionToken: !property.required,
    type: nullable(fixed.input, schema),
    docs: schemaDocs(schema),
  };
}

function blockProperty(block: Property, types: TypeEmitter): OptionalKind<PropertySignatureStructure> {
  if (block.schema.kind !== "object") return types.property(block, "");
  const name = types.names.claim(typeName(block.name, "DataBlock"));
  types.declareInterface(name, block.schema, name, schemaDocs(block.schema, `The \`${block.name}\` data block.`));
  return {
    name: propertyKey(block.name),
    hasQuestionToken: !block.required,
    type: toleratingInherited(block.name, block.required, nullable(name, block.schema)),
    docs: schemaDocs(block.schema),
  };
}

function metadataProperty(property: Property | undefined, fixed: FixedNames): OptionalKind<PropertySignatureStructure> {
  return { name: "metadata", type: fixed.metadata, docs: property ? schemaDocs(property.schema) : [] };
}

/** Exactly `subjectId` and `locale?` (docs/service.md 2.2), documented from the description. */
function declareMetadata(model: FlowModel, fixed: FixedNames, types: TypeEmitter): void {
  const metadata = model.request.properties.find((p) => p.name === "metadata")?.schema;
  const field = (name: string): Schema | undefined =>
    metadata?.kind === "object" ? metadata.properties.find((p) => p.name === name)?.schema : undefined;
  const about =
    "Customer-scoped data, echoed in every session response. It is not encrypted: never put personal data here.";
  types.declareWith(fixed.metadata, docs([about]), () => ({
    properties: [
      {
        name: "subjectId",
        type: "string",
        docs: fieldDocs(field("subjectId"), "Your own reference for the user being verified."),
      },
      {
        name: "locale",
        hasQuestionToken: true,
        type: fixed.locale,
        docs: fieldDocs(field("locale"), "Player UI language."),
      },
    ],
  }));
}

/** The field's docs, led by `fallback` when the description says nothing itself. */
function fieldDocs(schema: Schema | undefined, fallback: string): Docs {
  if (!schema) return docs([fallback]);
  return schemaDocs(schema, schema.description ? undefined : fallback);
}

function declareLocale(model: FlowModel, fixed: FixedNames, types: TypeEmitter): void {
  const members = model.locales.map(codeStringLiteral);
  types.declareAlias(
    fixed.locale,
    members.length > 0 ? members.join(" | ") : "never",
    docs(["The player UI languages this flow accepts."]),
  );
}

function declareResponse(model: FlowModel, fixed: FixedNames, types: TypeEmitter): void {
  const lead = "The body of the 201 response: the session just created.";
  const schema = model.response;
  if (schema.kind === "object" && !schema.nullable) {
    types.declareInterface(fixed.response, schema, fixed.response, schemaDocs(schema, lead));
  } else {
    types.declareAlias(
      fixed.response,
      types.typeOf(schema, `${fixed.response}Body`, "the response"),
      schemaDocs(schema, lead),
    );
  }
}

function nullable(name: string, schema: Schema): string {
  return schema.nullable ? `${name} | null` : name;
}
