/**
 * What ajv compiles for each of a flow's two validators (validator-standalone.ts),
 * and the key its code is known by: sha256 of the JSON Schema and the ajv
 * options, computed without loading ajv, so validator.ts can reuse code it
 * already has (from an earlier flow of this run, or from the validator cache)
 * before anything is compiled.
 */
import { createHash } from "node:crypto";
import { CodegenError } from "../errors.js";
import { hasPrototypeNames, JSON_SCHEMA_AJV_OPTIONS, toJsonSchema } from "../model/json-schema.js";
import type { FlowModel, Schema } from "../model/types.js";
import { withNestedFunctions } from "./validator-schema.js";

export type ValidatorRole = "request" | "response";

export interface ValidatorInput {
  readonly role: ValidatorRole;
  /** sha256 of the schema and options it is compiled from: equal keys, equal code. */
  readonly key: string;
  readonly schema: object;
  readonly options: object;
}

export function validatorInput(model: FlowModel, role: ValidatorRole): ValidatorInput {
  const schema = schemaOf(model, role);
  const jsonSchema = withNestedFunctions(toJsonSchema(schema, { file: {} })) as object;
  const options = hasPrototypeNames(schema) ? JSON_SCHEMA_AJV_OPTIONS : {};
  const key = createHash("sha256").update(JSON.stringify([jsonSchema, options])).digest("hex");
  return { role, key, schema: jsonSchema, options };
}

/** INVALID_SCHEMA at the schema's place in the description. */
export function invalidSchema(model: FlowModel, role: ValidatorRole, detail: string, cause?: unknown): CodegenError {
  return new CodegenError(
    "INVALID_SCHEMA",
    detail,
    { flow: model.name, file: model.source.file, pointer: schemaOf(model, role).pointer },
    cause === undefined ? undefined : { cause },
  );
}

function schemaOf(model: FlowModel, role: ValidatorRole): Schema {
  return role === "request" ? model.request : model.response;
}
