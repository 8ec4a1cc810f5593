/**
 * The build writes two ajv validators as standalone code beside the modules that use them in
 * dist/ (the OpenAPI 3.0 schema's, read/openapi-validation.ts; the config schema's,
 * config/load-config.ts), so a run loads them rather than compiling their schemas (a second
 * path kept for what it saves: bench/analysis.md, "Fast paths"). Beside the .ts sources there
 * is none, and the module compiles its own on first use.
 */
import type { ValidateFunction } from "ajv";

/**
 * `load()` (the caller's `require("./<file>")`: a specifier relative to the caller, which jest
 * maps to the build's file, so suites run from the sources skip the compile too), or undefined
 * when that file is missing. A missing module the validator itself requires is an error.
 */
export function precompiledValidatorOrUndefined(file: string, load: () => unknown): ValidateFunction | undefined {
  try {
    return load() as ValidateFunction;
  } catch (error) {
    if (isNotFound(error, file)) return undefined;
    throw error;
  }
}

function isNotFound(error: unknown, file: string): boolean {
  if (typeof error !== "object" || error === null || !("code" in error) || !("message" in error)) return false;
  return error.code === "MODULE_NOT_FOUND" && String(error.message).includes(file);
}
