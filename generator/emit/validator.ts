/**
 * validate.ts of a flow: its two validators, compiled at codegen time to ajv
 * standalone code (validator-standalone.ts) so no schema is compiled at run
 * time: `validate` (the request, before it is sent) and `validateResponse`
 * (the 201 body, before it is returned), in one module.
 *
 * The code is kept as ajv writes it (one statement a line), rewired
 * (validator-code.ts) and only indented: running prettier over it cost more
 * than the rest of codegen together, and users' tsc parses it with every
 * build, so it is kept lean.
 */
import { stringLiteral } from "./escape.js";
import { rewireValidatorOrThrow, ValidatorCodeError, type RewiredValidator } from "./validator-code.js";
import { invalidSchema, validatorInput, type ValidatorInput, type ValidatorRole } from "./validator-input.js";
import type { FlowModel } from "../model/types.js";

/**
 * Validators made on an earlier run, by the key of what ajv would compile
 * (validator-input.ts). The pipeline passes one that keeps them on disk
 * (generator/cache/validator-cache.ts); emit itself knows no files.
 */
export interface ValidatorCache {
  get(key: string): RewiredValidator | undefined;
  set(key: string, validator: RewiredValidator): void;
}

/**
 * Where validate.ts takes the helpers ajv's code calls (validatorRuntime,
 * validatorFormats): the runtime's subpath for flowsmith's own code, from the
 * package itself whatever module `runtimeImport` names (one that re-exports
 * the runtime's public API need not re-export these).
 */
const INTERNAL_IMPORT = "@flowsmith/runtime/internal";

/**
 * validate.ts after its header: imports from the runtime, then each
 * validator in a scope of its own (each was compiled alone, so both use
 * ajv's first names), exported with its type, so users' tsc reads the
 * exports' types from the annotation instead of inferring them from ajv's
 * code (which it does not check: the file is @ts-nocheck).
 */
export async function validatorSourceOrThrow(model: FlowModel, runtimeImport: string, cache?: ValidatorCache): Promise<string> {
  const request = await rewiredOrThrow(model, validatorInput(model, "request"), cache);
  const response = await rewiredOrThrow(model, validatorInput(model, "response"), cache);
  const used = (["validatorFormats", "validatorRuntime"] as const).filter(
    (name) => request.imports.includes(name) || response.imports.includes(name),
  );
  const runtime = stringLiteral(runtimeImport);
  const imports = [
    ...(used.length > 0 ? [`import { ${used.join(", ")} } from ${stringLiteral(INTERNAL_IMPORT)};`] : []),
    `import type { RequestValidator } from ${runtime};`,
  ];
  return `${imports.join("\n")}\n\n${exported("validate", request)}\n${exported("validateResponse", response)}`;
}

function exported(name: "validate" | "validateResponse", validator: RewiredValidator): string {
  return `export const ${name}: RequestValidator = (() => {\n${validator.code}  return ${validator.name};\n})();\n`;
}

/** Rewired and indented code by the key of ajv's input, for this process. */
const rewired = new Map<string, RewiredValidator>();

async function rewiredOrThrow(model: FlowModel, input: ValidatorInput, cache: ValidatorCache | undefined): Promise<RewiredValidator> {
  const cached = cache?.get(input.key);
  if (cached) return cached;
  let validator = rewired.get(input.key);
  if (!validator) {
    // Loaded only when there is something to compile: a run whose validators are all cached never loads ajv.
    const { standaloneCodeOrThrow } = await import("./validator-standalone.js");
    validator = rewiredCodeOrThrow(model, input.role, standaloneCodeOrThrow(model, input));
    rewired.set(input.key, validator);
  }
  cache?.set(input.key, validator);
  return validator;
}

function rewiredCodeOrThrow(model: FlowModel, role: ValidatorRole, standalone: string): RewiredValidator {
  try {
    const code = rewireValidatorOrThrow(standalone);
    return { ...code, code: indentBlocks(code.code.trim(), 1) };
  } catch (error) {
    if (error instanceof ValidatorCodeError) throw invalidSchema(model, role, error.message, error);
    throw error;
  }
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
