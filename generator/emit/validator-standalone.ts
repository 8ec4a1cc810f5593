/**
 * ajv's standalone code for a flow's two validators, as ajv writes it:
 * `request` (checked before the request is sent) and `response` (the 201
 * body, before it is returned). validator.ts makes it a module, and loads
 * this one (and with it ajv) only when it has a validator to compile.
 *
 * ajv's output is a pure function of a schema and these options, hence
 * deterministic: validator.ts keeps what it made of it by the input's key,
 * so a schema that flows share (variants of one flow, the response of every
 * flow of a service) is compiled once per process, or not at all when the
 * validator cache (generator/cache/) has it. No error messages in the code
 * (runtime/validation-issues.ts words issues from keyword and params).
 */
import Ajv, { _ } from "ajv";
import addFormats from "ajv-formats";
import standaloneCode from "ajv/dist/standalone";
import { linearRegExp } from "@flowsmith/runtime/internal";
import type { FlowModel } from "../model/types.js";
import { invalidSchema, type ValidatorInput, type ValidatorRole } from "./validator-input.js";

/** ajv's standalone ES module code for the input, exporting `validate`. */
export function standaloneCodeOrThrow(model: FlowModel, input: ValidatorInput): string {
  return compileOrThrow(model, input.role, input.schema, input.options);
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
    // Formats come from the runtime's `validatorFormats` (ajv-formats' full set); patterns run on
    // the runtime's linear-time engine, which the code reaches as `validatorRuntime.pattern`.
    code: { source: true, esm: true, lines: true, formats: _`validatorFormats`, regExp: linearRegExp },
    // Checked above against a meta-schema compiled once per process, not once per flow;
    // so this instance needs no meta-schema of its own (adding draft-07's to every instance slowed each compile).
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
