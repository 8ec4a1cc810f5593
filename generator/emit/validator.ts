/**
 * The flow's validators, compiled at codegen time to ajv standalone code so
 * no schema is compiled at run time: `validate` (the request, before it is
 * sent) and `validateResponse` (the 201 body, before it is returned), in one
 * module sharing ajv's helpers. ajv's output is a pure function of the
 * schemas and these options, hence deterministic, and so it is kept per
 * pair of schemas: flows that share them (variants of one flow, the response
 * of every flow of a service) are compiled once per process.
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
/** The module's exports, by name, and the model schema each validates. */
const EXPORTS = { validate: "request", validateResponse: "response" } as const;
const AJV_EXPORT = /^export const (validate|validateResponse) = (validate\d+);$/gm;
const AJV_RUNTIME_REQUIRE = /require\("ajv\/dist\/runtime\/([a-z0-9_]+)"\)\.default/gi;

/**
 * ajv's JavaScript (an ES module exporting `validate`), not yet formatted,
 * importing what it needs from the runtime instead of requiring ajv's files.
 */
export function validatorSourceOrThrow(model: FlowModel, runtimeImport: string): string {
  const schemas = { request: jsonSchemaOf(model.request), response: jsonSchemaOf(model.response) };
  const key = createHash("sha256").update(JSON.stringify(schemas)).digest("hex");
  let code = compiled.get(key);
  if (code === undefined) {
    code = rewiredOrThrow(model, standaloneValidatorOrThrow(model, schemas));
    compiled.set(key, code);
  }
  // `validatorFormats.date` or `validatorFormats["date-time"]`.
  const used = ["validatorFormats", "validatorRuntime"].filter((name) => code.includes(`${name}.`) || code.includes(`${name}[`));
  const runtime = stringLiteral(runtimeImport);
  const imports = [
    ...(used.length > 0 ? [`import { ${used.join(", ")} } from ${runtime};`] : []),
    `import type { RequestValidator } from ${runtime};`,
  ];
  return `${imports.join("\n")}\n\n${code}`;
}

/** ajv's code by the schemas it was compiled from, without imports (they name the run's runtimeImport). */
const compiled = new Map<string, string>();

function jsonSchemaOf(schema: FlowModel["request" | "response"]): object {
  return toJsonSchema(schema, { file: {} }) as object;
}

/** ajv's ES module, its requires of ajv's helpers pointed at the runtime, its exports typed, indented. */
function rewiredOrThrow(model: FlowModel, standalone: string): string {
  // An ES module is strict anyway, and the directive must not follow the import.
  const code = standalone.replace(/^"use strict";\n?/, "");
  const rewired = code.replace(AJV_RUNTIME_REQUIRE, (whole: string, helper: string) =>
    RUNTIME_HELPERS.has(helper) ? `validatorRuntime.${helper}` : whole,
  );
  if (rewired.includes("require(")) {
    throw invalid(model, `ajv emitted a dependency the runtime does not provide: ${/require\([^)]*\)/.exec(rewired)?.[0]}`);
  }
  // Typed, so users' tsc reads the exports' types from the annotation instead of
  // inferring them from ajv's code (which it does not check: the file is @ts-nocheck).
  const typed = rewired.replace(AJV_EXPORT, "export const $1: RequestValidator = $2;");
  for (const name of Object.keys(EXPORTS)) {
    if (!typed.includes(`export const ${name}: RequestValidator = `)) throw invalid(model, `ajv's code lacks the \`${name}\` export`);
  }
  return indentBlocks(typed);
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

function standaloneValidatorOrThrow(model: FlowModel, schemas: Record<"request" | "response", object>): string {
  const checker = schemaChecker();
  // The schemas are ours (json-schema.ts); anything ajv finds odd is a bug worth failing on.
  for (const [which, schema] of Object.entries(schemas)) {
    if (!checker.validateSchema(schema)) {
      throw invalid(model, `the ${which} schema is not valid JSON Schema: ${checker.errorsText(checker.errors)}`, undefined, which);
    }
  }
  // A fresh instance per flow: ajv numbers its names per instance, and a flow's
  // code must not depend on which flows were compiled before it.
  const ajv = new Ajv({
    ...OPTIONS,
    // Formats come from the runtime's `validatorFormats` (ajv-formats' full set).
    code: { source: true, esm: true, lines: true, formats: _`validatorFormats` },
    // Checked above against a meta-schema compiled once per process, not once per flow.
    validateSchema: false,
  });
  addFormats(ajv);
  for (const [which, schema] of Object.entries(schemas)) {
    try {
      ajv.addSchema(schema, which).getSchema(which);
    } catch (error) {
      throw invalid(model, `the ${which} schema cannot be compiled to a validator: ${(error as Error).message}`, error, which);
    }
  }
  return standaloneCode(ajv, EXPORTS);
}

const OPTIONS = { allErrors: true, messages: false, strict: true, allowUnionTypes: true } as const;

let checker: Ajv | undefined;

function schemaChecker(): Ajv {
  checker ??= new Ajv(OPTIONS);
  return checker;
}

function invalid(model: FlowModel, detail: string, cause?: unknown, which: string = "request"): CodegenError {
  return new CodegenError(
    "INVALID_SCHEMA",
    detail,
    { flow: model.name, file: model.source.file, pointer: (which === "response" ? model.response : model.request).pointer },
    cause === undefined ? undefined : { cause },
  );
}
