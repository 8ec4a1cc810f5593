/**
 * What a config that breaks codegen.config.schema.json is told: the one
 * error ajv found that says most about what the user meant, in words, with
 * the known key a misspelt one is closest to ("did you mean").
 */
import type { ErrorObject } from "ajv";
import { isRecord, pointerTokens, valueAtTokens } from "@flowsmith/runtime/internal/json";
import { closestOrUndefined } from "../did-you-mean.js";

export interface ConfigProblem {
  readonly message: string;
  /** The object or value it is about. */
  readonly pointer: string;
  /** The key of that object it names (an unknown key), shown at its name. */
  readonly key?: string;
}

/**
 * ajv reports every failing branch of `source`'s oneOf; the user meant the
 * branch whose key they wrote, so keep that branch's errors. Of the rest,
 * the deepest; at one depth, an unknown key before a missing one (`"sorce"`
 * is why `"source"` is missing).
 */
export function configProblemOrUndefined(
  errors: readonly ErrorObject[],
  raw: unknown,
  schema: unknown,
): ConfigProblem | undefined {
  const branchErrors = errors.filter((error) => {
    const branch = /\/source\/oneOf\/(\d)\//.exec(error.schemaPath);
    if (!branch) return error.keyword !== "oneOf";
    const source = valueAtTokens(raw, pointerTokens(error.instancePath.replace(/(\/source).*$/, "$1")));
    const intended = isRecord(source) && Object.hasOwn(source, "api") ? "1" : "0";
    return branch[1] === intended;
  });
  const candidates = branchErrors.length > 0 ? branchErrors : errors;
  const rank = (error: ErrorObject) =>
    error.instancePath.length * 2 + (error.keyword === "additionalProperties" ? 1 : 0);
  const error = [...candidates].sort((a, b) => rank(b) - rank(a))[0];
  if (!error) return undefined;
  const pointer = `#${error.instancePath}`;
  if (error.keyword !== "additionalProperties") return { message: describe(error), pointer };
  const key = String((error.params as { additionalProperty?: unknown }).additionalProperty);
  // Each branch of `source` names the other's key unknown; the slip is writing both.
  const source = valueAtTokens(raw, pointerTokens(error.instancePath));
  if (
    /\/source\/oneOf\/\d\/additionalProperties$/.test(error.schemaPath) &&
    isRecord(source) &&
    Object.hasOwn(source, "file") &&
    Object.hasOwn(source, "api")
  ) {
    return {
      message: '"source" takes "file" or "api", not both: a flow comes from a description file or from the service',
      pointer,
      key,
    };
  }
  const known = knownKeys(schema, error.schemaPath);
  const closest = closestOrUndefined(key, known);
  const missing = candidates
    .filter((other) => other.keyword === "required" && other.instancePath === error.instancePath)
    .map((other) => JSON.stringify(String((other.params as { missingProperty?: unknown }).missingProperty)));
  const hint =
    closest !== undefined
      ? ` (did you mean "${closest}"?)`
      : known.length > 0
        ? ` (known keys here: ${known.join(", ")})`
        : "";
  const also = missing.length > 0 ? `; ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} missing` : "";
  return { message: `unknown key "${key}"${hint}${also}`, pointer, key };
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const key = error.instancePath.split("/").pop() || "config";
  switch (error.keyword) {
    case "required":
      return `missing required key "${String(params.missingProperty)}"`;
    case "type":
      return `"${key}" must be ${withArticle(String(params.type))}`;
    case "enum":
      return `"${key}" must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "pattern":
      return `"${key}" must be lower-case letters, digits and hyphens, starting with a letter or digit`;
    case "minLength":
      return `"${key}" must not be empty`;
    default:
      return `"${key}" ${error.message ?? "is invalid"}`;
  }
}

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** The keys the schema declares beside the `additionalProperties` that refused one (its schemaPath). */
function knownKeys(schema: unknown, schemaPath: string): string[] {
  const owner = valueAtTokens(
    schema,
    pointerTokens(schemaPath.replace(/^#/, "").replace(/\/additionalProperties$/, "")),
  );
  const properties = isRecord(owner) ? owner["properties"] : undefined;
  return isRecord(properties) ? Object.keys(properties) : [];
}
