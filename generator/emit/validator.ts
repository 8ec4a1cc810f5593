/**
 * The flow's pre-flight request validator, compiled at codegen time to ajv
 * standalone code so no schema is compiled at run time. ajv's output is a
 * pure function of the schema and these options, hence deterministic.
 *
 * The code is kept as ajv writes it (one statement a line), only indented:
 * running prettier over it cost more than the rest of codegen together, and
 * users' tsc parses it with every build, so it is kept lean: no error
 * messages (runtime/validation-issues.ts words them from keyword and params).
 */
import Ajv, { _ } from "ajv";
import addFormats from "ajv-formats";
import standaloneCode from "ajv/dist/standalone";
import { CodegenError } from "../errors.js";
import { hasPrototypeNames, JSON_SCHEMA_AJV_OPTIONS, toJsonSchema } from "../model/json-schema.js";
import type { FlowModel } from "../model/types.js";
import { stringLiteral } from "./escape.js";
import { rewireValidatorOrThrow, ValidatorCodeError } from "./validator-code.js";
import { withNestedFunctions } from "./validator-schema.js";

/**
 * ajv's JavaScript (an ES module exporting `validate`), not yet formatted,
 * importing what it needs from the runtime instead of requiring ajv's files.
 */
export function validatorSourceOrThrow(model: FlowModel, runtimeImport: string): string {
  const code = standaloneValidatorOrThrow(model);
  let rewired;
  try {
    rewired = rewireValidatorOrThrow(code);
  } catch (error) {
    if (error instanceof ValidatorCodeError) throw invalid(model, error.message, error);
    throw error;
  }
  const runtime = stringLiteral(runtimeImport);
  const imports = [
    ...(rewired.imports.length > 0 ? [`import { ${rewired.imports.join(", ")} } from ${runtime};`] : []),
    // Typed, so users' tsc reads the export's type from the annotation instead of
    // inferring it from ajv's code (which it does not check: the file is @ts-nocheck).
    `import type { RequestValidator } from ${runtime};`,
  ];
  return `${imports.join("\n")}\n\n${indentBlocks(rewired.code)}`;
}

/**
 * ajv writes one statement a line with `{` closing a line that opens a block
 * and `}` opening one that ends it; its strings are JSON-escaped, so no
 * string spans lines. Indenting by that is enough to make the code readable.
 */
function indentBlocks(code: string): string {
  let depth = 0;
  const lines = code.split("\n").map((raw) => {
    const line = raw.trim();
    if (line.startsWith("}")) depth = Math.max(0, depth - 1);
    const indented = line === "" ? "" : "  ".repeat(depth) + line;
    if (line.endsWith("{")) depth += 1;
    return indented;
  });
  return lines.join("\n").replace(/\n*$/, "\n");
}

function standaloneValidatorOrThrow(model: FlowModel): string {
  const schema = withNestedFunctions(toJsonSchema(model.request, { file: {} }));
  const checker = schemaChecker();
  // The schema is ours (json-schema.ts); anything ajv finds odd is a bug worth failing on.
  if (!checker.validateSchema(schema)) {
    throw invalid(model, `the request schema is not valid JSON Schema: ${checker.errorsText(checker.errors)}`);
  }
  // A fresh instance per flow: ajv numbers its names per instance, and a flow's
  // code must not depend on which flows were compiled before it.
  const ajv = new Ajv({
    ...OPTIONS,
    ...(hasPrototypeNames(model.request) ? JSON_SCHEMA_AJV_OPTIONS : {}),
    // Formats come from the runtime's `validatorFormats` (ajv-formats' full set).
    code: { source: true, esm: true, lines: true, formats: _`validatorFormats` },
    // Checked above against a meta-schema compiled once per process, not once per flow.
    validateSchema: false,
  });
  addFormats(ajv);
  try {
    return standaloneCode(ajv, ajv.compile(schema));
  } catch (error) {
    throw invalid(model, `the request schema cannot be compiled to a validator: ${(error as Error).message}`, error);
  }
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

function invalid(model: FlowModel, detail: string, cause?: unknown): CodegenError {
  return new CodegenError(
    "INVALID_SCHEMA",
    detail,
    { flow: model.name, file: model.source.file, pointer: model.request.pointer },
    cause === undefined ? undefined : { cause },
  );
}
