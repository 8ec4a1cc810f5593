/**
 * ajv's standalone code for a flow's two validators, as ajv writes it:
 * `request` (checked before the request is sent) and `response` (the 201
 * body, before it is returned). validator.ts makes it a module.
 *
 * ajv's output is a pure function of a schema and these options, hence
 * deterministic, and so it is kept per schema: a schema that flows share
 * (variants of one flow, the response of every flow of a service) is
 * compiled once per process. No error messages in the code
 * (runtime/validation-issues.ts words issues from keyword and params).
 */
import { createHash } from "node:crypto";
import Ajv, { _ } from "ajv";
import addFormats from "ajv-formats";
import standaloneCode from "ajv/dist/standalone";
import { CodegenError } from "../errors.js";
import { hasPrototypeNames, JSON_SCHEMA_AJV_OPTIONS, toJsonSchema } from "../model/json-schema.js";
import type { FlowModel, Schema } from "../model/types.js";
import { withNestedFunctions } from "./validator-schema.js";

export type ValidatorRole = "request" | "response";

export interface StandaloneValidator {
  /** sha256 of the schema and options it was compiled from: equal keys, equal code. */
  readonly key: string;
  /** ajv's standalone ES module code, exporting `validate`. */
  readonly code: string;
}

export type StandaloneValidators = Readonly<Record<ValidatorRole, StandaloneValidator>>;

export function standaloneValidatorsOrThrow(model: FlowModel): StandaloneValidators {
  return { request: standaloneValidatorOrThrow(model, "request"), response: standaloneValidatorOrThrow(model, "response") };
}

/** ajv's code by key, for this process. */
const compiled = new Map<string, string>();

function standaloneValidatorOrThrow(model: FlowModel, role: ValidatorRole): StandaloneValidator {
  const schema = schemaOf(model, role);
  const jsonSchema = withNestedFunctions(toJsonSchema(schema, { file: {} }));
  const options = hasPrototypeNames(schema) ? JSON_SCHEMA_AJV_OPTIONS : {};
  const key = createHash("sha256").update(JSON.stringify([jsonSchema, options])).digest("hex");
  let code = compiled.get(key);
  if (code === undefined) {
    code = compileOrThrow(model, role, jsonSchema as object, options);
    compiled.set(key, code);
  }
  return { key, code };
}

function compileOrThrow(model: FlowModel, role: ValidatorRole, schema: object, options: object): string {
  const checker = schemaChecker();
  // The schema is ours (json-schema.ts); anything ajv finds odd is a bug worth failing on.
  if (!checker.validateSchema(schema)) {
    throw invalidSchema(model, role, `the ${role} schema is not valid JSON Schema: ${checker.errorsText(checker.errors)}`);
  }
  // A fresh instance per schema: ajv numbers its names per instance, and a flow's
  // code must not depend on which flows were compiled before it.
  const ajv = new Ajv({
    ...OPTIONS,
    ...options,
    // Formats come from the runtime's `validatorFormats` (ajv-formats' full set).
    code: { source: true, esm: true, lines: true, formats: _`validatorFormats` },
    // Checked above against a meta-schema compiled once per process, not once per flow;
    // so this instance needs no meta-schema of its own (adding draft-07's was a tenth of its compile).
    validateSchema: false,
    meta: false,
  });
  addFormats(ajv);
  try {
    ajv.addSchema(schema, role).getSchema(role);
  } catch (error) {
    throw invalidSchema(model, role, `the ${role} schema cannot be compiled to a validator: ${(error as Error).message}`, error);
  }
  return standaloneCode(ajv, { validate: role });
}

const OPTIONS = {
  allErrors: true,
  messages: false,
  strict: true,
  allowUnionTypes: true,
  // A required `__proto__` is declared in patternProperties (json-schema.ts), which strict mode would refuse.
  strictRequired: false,
  // The `$ref`s are validator-schema.ts's: each stays a function of its own.
  inlineRefs: false,
} as const;

let checker: Ajv | undefined;

/** With messages (unlike the validators it checks), so a failure says what is wrong. */
function schemaChecker(): Ajv {
  checker ??= new Ajv({ ...OPTIONS, messages: true });
  return checker;
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
