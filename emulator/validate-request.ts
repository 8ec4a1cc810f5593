/**
 * Checks a decoded create-session body against the flow: the service's own
 * rules first (metadata keys, the flow's locales), each with its own code,
 * then the flow's request schema (compiled from the model).
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import { escapePointerToken, isRecord, METADATA_KEYS, type BodyForm } from "@flowsmith/runtime";
import { badRequest, type ValidationIssue } from "./errors.js";
import type { CatalogFlow } from "./flow-catalog.js";

export interface CreateRequest {
  readonly input: Record<string, unknown>;
  readonly metadata: { readonly subjectId: string; readonly locale?: string };
  readonly redirectUrl?: string;
  readonly state?: string;
}

export function validateCreateRequestOrThrow(flow: CatalogFlow, body: unknown, bodyForm: BodyForm): CreateRequest {
  if (!isRecord(body)) throw badRequest("VALIDATION_FAILED", "the request body must be a JSON object");
  checkMetadataOrThrow(flow, body.metadata);
  const validate: ValidateFunction = bodyForm === "json" ? flow.validateJson : flow.validateMultipart;
  if (!validate(body)) {
    const issues = (validate.errors ?? []).map(toIssue);
    const first = issues[0] ?? { path: "", message: "is not valid" };
    throw badRequest("VALIDATION_FAILED", `invalid request: ${first.path || "body"} ${first.message}`, issues);
  }
  const request = body as unknown as CreateRequest;
  return { ...request, input: request.input ?? {} };
}

function checkMetadataOrThrow(flow: CatalogFlow, metadata: unknown): void {
  if (!isRecord(metadata)) return; // absent or not an object: the schema says so
  const allowed: readonly string[] = METADATA_KEYS;
  const extra = Object.keys(metadata).filter((key) => !allowed.includes(key));
  if (extra.length > 0) {
    throw badRequest(
      "METADATA_KEY_NOT_ALLOWED",
      `metadata key${extra.length > 1 ? "s" : ""} ${extra.map((key) => `"${key}"`).join(", ")} not allowed; metadata accepts only subjectId and locale`,
      extra.map((key) => ({ path: `/metadata/${escapePointerToken(key)}`, message: "is not allowed" })),
    );
  }
  const locale = metadata.locale;
  if (locale !== undefined && !(flow.model.locales as readonly unknown[]).includes(locale)) {
    throw badRequest(
      "LOCALE_NOT_SUPPORTED",
      `metadata.locale ${JSON.stringify(locale)} is not supported by flow "${flow.model.id}"; supported: ${flow.model.locales.join(", ")}`,
      [{ path: "/metadata/locale", message: `must be one of ${flow.model.locales.join(", ")}` }],
    );
  }
}

function toIssue(error: ErrorObject): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") {
    return { path: `${error.instancePath}/${escapePointerToken(String(params.missingProperty))}`, message: "is required" };
  }
  if (error.keyword === "additionalProperties") {
    return { path: `${error.instancePath}/${escapePointerToken(String(params.additionalProperty))}`, message: "is not allowed here" };
  }
  if (error.keyword === "enum") {
    return { path: error.instancePath, message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}` };
  }
  return { path: error.instancePath, message: error.message ?? `breaks ${error.keyword}` };
}

