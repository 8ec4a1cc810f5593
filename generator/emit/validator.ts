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
import { toJsonSchema } from "../model/json-schema.js";
import type { FlowModel } from "../model/types.js";
import { stringLiteral } from "./escape.js";

/** Helpers runtime/validator-support.ts re-exports as `validatorRuntime`. */
const RUNTIME_HELPERS = new Set(["equal", "ucs2length"]);
const AJV_EXPORT = /^export const validate = (validate\d+);$/m;
const AJV_RUNTIME_REQUIRE = /require\("ajv\/dist\/runtime\/([a-z0-9_]+)"\)\.default/gi;

type Which = "request" | "response";

/**
 * validate.ts after its header: imports from the runtime, then each
 * validator in a scope of its own (each was compiled alone, so both use
 * ajv's first names), exported with its type.
 */
export function validatorSourceOrThrow(model: FlowModel, runtimeImport: string): string {
  const request = compiledValidatorOrThrow(model, "request");
  const response = compiledValidatorOrThrow(model, "response");
  const code = `${exported("validate", request)}\n${exported("validateResponse", response)}`;
  // `validatorFormats.date` or `validatorFormats["date-time"]`.
  const used = ["validatorFormats", "validatorRuntime"].filter((name) => code.includes(`${name}.`) || code.includes(`${name}[`));
  const runtime = stringLiteral(runtimeImport);
  const imports = [
    ...(used.length > 0 ? [`import { ${used.join(", ")} } from ${runtime};`] : []),
    `import type { RequestValidator } from ${runtime};`,
  ];
  return `${imports.join("\n")}\n\n${code}`;
}

/**
 * Typed, so users' tsc reads the export's type from the annotation instead of
 * inferring it from ajv's code (which it does not check: the file is @ts-nocheck).
 */
function exported(name: "validate" | "validateResponse", validator: CompiledValidator): string {
  return `export const ${name}: RequestValidator = (() => {\n${validator.code}  return ${validator.name};\n})();\n`;
}

interface CompiledValidator {
  /** ajv's statements, rewired to the runtime, indented one level, without exports. */
  readonly code: string;
  /** The function among them that validates (`validate0`). */
  readonly name: string;
}

/** By schema (JSON text): flows sharing one (a flow's variants, every flow's response) compile it once. */
const compiled = new Map<string, CompiledValidator>();

function compiledValidatorOrThrow(model: FlowModel, which: Which): CompiledValidator {
  const schema = toJsonSchema(which === "request" ? model.request : model.response, { file: {} }) as object;
  const key = createHash("sha256").update(JSON.stringify(schema)).digest("hex");
  let validator = compiled.get(key);
  if (!validator) {
    validator = rewiredOrThrow(model, which, standaloneValidatorOrThrow(model, which, schema));
    compiled.set(key, validator);
  }
  return validator;
}

/** ajv's ES module, its requires of ajv's helpers pointed at the runtime, its export taken out. */
function rewiredOrThrow(model: FlowModel, which: Which, standalone: string): CompiledValidator {
  // An ES module is strict anyway, and the directive must not follow the import.
  const code = standalone.replace(/^"use strict";\n?/, "");
  const rewired = code.replace(AJV_RUNTIME_REQUIRE, (whole: string, helper: string) =>
    RUNTIME_HELPERS.has(helper) ? `validatorRuntime.${helper}` : whole,
  );
  if (rewired.includes("require(")) {
    const dependency = /require\([^)]*\)/.exec(rewired)?.[0] ?? "require(...)";
    throw invalid(model, which, `ajv emitted a dependency the runtime does not provide: ${dependency}`);
  }
  const name = AJV_EXPORT.exec(rewired)?.[1];
  if (!name) throw invalid(model, which, "ajv's code lacks the `validate` export");
  return { code: indentBlocks(rewired.replace(AJV_EXPORT, "").trim(), 1), name };
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

function standaloneValidatorOrThrow(model: FlowModel, which: Which, schema: object): string {
  const checker = schemaChecker();
  // The schema is ours (json-schema.ts); anything ajv finds odd is a bug worth failing on.
  if (!checker.validateSchema(schema)) {
    throw invalid(model, which, `the ${which} schema is not valid JSON Schema: ${checker.errorsText(checker.errors)}`);
  }
  // A fresh instance per schema: ajv numbers its names per instance, and a flow's
  // code must not depend on which flows were compiled before it.
  const ajv = new Ajv({
    ...OPTIONS,
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

const OPTIONS = { allErrors: true, messages: false, strict: true, allowUnionTypes: true } as const;

let checker: Ajv | undefined;

function schemaChecker(): Ajv {
  checker ??= new Ajv(OPTIONS);
  return checker;
}

function invalid(model: FlowModel, which: Which, detail: string, cause?: unknown): CodegenError {
  return new CodegenError(
    "INVALID_SCHEMA",
    detail,
    { flow: model.name, file: model.source.file, pointer: (which === "response" ? model.response : model.request).pointer },
    cause === undefined ? undefined : { cause },
  );
}
