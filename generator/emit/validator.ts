/**
 * The flow's validators, compiled at codegen time to ajv standalone code so
 * no schema is compiled at run time: `validate` (the request, before it is
 * sent) and `validateResponse` (the 201 body, before it is returned), in one
 * module. ajv's output is a pure function of a schema and these options,
 * hence deterministic, and so it is kept per schema: a schema that flows
 * share (variants of one flow, the response of every flow of a service) is
 * compiled once per process.
 *
 * The code is kept as ajv writes it (one statement a line), only indented:
 * running prettier over it cost more than the rest of codegen together, and
 * users' tsc parses it with every build, so it is kept lean: no error
 * messages (runtime/validation-issues.ts words them from keyword and params).
 */
import { createHash } from "node:crypto";
import Ajv, { _ } from "ajv";
import addFormats from "ajv-formats";
import standaloneCode from "ajv/dist/standalone";
import { CodegenError } from "../errors.js";
import { hasPrototypeNames, JSON_SCHEMA_AJV_OPTIONS, toJsonSchema } from "../model/json-schema.js";
import type { FlowModel, Schema } from "../model/types.js";
import { stringLiteral } from "./escape.js";
import { rewireValidatorOrThrow, ValidatorCodeError, type RewiredValidator } from "./validator-code.js";
import { withNestedFunctions } from "./validator-schema.js";

type Which = "request" | "response";

/**
 * validate.ts after its header: imports from the runtime, then each
 * validator in a scope of its own (each was compiled alone, so both use
 * ajv's first names), exported with its type, so users' tsc reads the
 * exports' types from the annotation instead of inferring them from ajv's
 * code (which it does not check: the file is @ts-nocheck).
 */
export function validatorSourceOrThrow(model: FlowModel, runtimeImport: string): string {
  const request = compiledValidatorOrThrow(model, "request");
  const response = compiledValidatorOrThrow(model, "response");
  const used = (["validatorFormats", "validatorRuntime"] as const).filter(
    (name) => request.imports.includes(name) || response.imports.includes(name),
  );
  const runtime = stringLiteral(runtimeImport);
  const imports = [
    ...(used.length > 0 ? [`import { ${used.join(", ")} } from ${runtime};`] : []),
    `import type { RequestValidator } from ${runtime};`,
  ];
  return `${imports.join("\n")}\n\n${exported("validate", request)}\n${exported("validateResponse", response)}`;
}

function exported(name: "validate" | "validateResponse", validator: RewiredValidator): string {
  return `export const ${name}: RequestValidator = (() => {\n${validator.code}  return ${validator.name};\n})();\n`;
}

/** ajv's rewired code, indented one level, by the schema and options it was compiled from. */
const compiled = new Map<string, RewiredValidator>();

function compiledValidatorOrThrow(model: FlowModel, which: Which): RewiredValidator {
  const schema = which === "request" ? model.request : model.response;
  const jsonSchema = withNestedFunctions(toJsonSchema(schema, { file: {} }));
  const options = hasPrototypeNames(schema) ? JSON_SCHEMA_AJV_OPTIONS : {};
  const key = createHash("sha256").update(JSON.stringify([jsonSchema, options])).digest("hex");
  let validator = compiled.get(key);
  if (!validator) {
    const code = standaloneValidatorOrThrow(model, which, jsonSchema as object, options);
    let rewired;
    try {
      rewired = rewireValidatorOrThrow(code);
    } catch (error) {
      if (error instanceof ValidatorCodeError) throw invalid(model, which, error.message, error);
      throw error;
    }
    validator = { ...rewired, code: indentBlocks(rewired.code.trim(), 1) };
    compiled.set(key, validator);
  }
  return validator;
}

/**
 * ajv writes one statement a line with `{` closing a line that opens a block
 * and `}` opening one that ends it; its strings are JSON-escaped, so no
 * string spans lines. Indenting by that is enough to make the code readable.
 */
function indentBlocks(code: string, from: number): string {
  let depth = from;
  const lines = code.split("\n").map((raw) => {
    const line = raw.trim();
    if (line.startsWith("}")) depth = Math.max(from, depth - 1);
    const indented = line === "" ? "" : "  ".repeat(depth) + line;
    if (line.endsWith("{")) depth += 1;
    return indented;
  });
  return lines.join("\n").replace(/\n*$/, "\n");
}

function standaloneValidatorOrThrow(model: FlowModel, which: Which, schema: object, options: object): string {
  const checker = schemaChecker();
  // The schema is ours (json-schema.ts); anything ajv finds odd is a bug worth failing on.
  if (!checker.validateSchema(schema)) {
    throw invalid(model, which, `the ${which} schema is not valid JSON Schema: ${checker.errorsText(checker.errors)}`);
  }
  // A fresh instance per schema: ajv numbers its names per instance, and a flow's
  // code must not depend on which flows were compiled before it.
  const ajv = new Ajv({
    ...OPTIONS,
    ...options,
    // Formats come from the runtime's `validatorFormats` (ajv-formats' full set).
    code: { source: true, esm: true, lines: true, formats: _`validatorFormats` },
    // Checked above against a meta-schema compiled once per process, not once per flow.
    validateSchema: false,
  });
  addFormats(ajv);
  try {
    ajv.addSchema(schema, which).getSchema(which);
  } catch (error) {
    throw invalid(model, which, `the ${which} schema cannot be compiled to a validator: ${(error as Error).message}`, error);
  }
  return standaloneCode(ajv, { validate: which });
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

function invalid(model: FlowModel, which: Which, detail: string, cause?: unknown): CodegenError {
  const schema: Schema = which === "response" ? model.response : model.request;
  return new CodegenError(
    "INVALID_SCHEMA",
    detail,
    { flow: model.name, file: model.source.file, pointer: schema.pointer },
    cause === undefined ? undefined : { cause },
  );
}
