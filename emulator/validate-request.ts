/**
 * Checks a decoded create-session body against the flow: the service's own
 * rules first (metadata keys, the flow's locales), each with its own code,
 * then the flow's request schema (compiled from the model). Issues are
 * worded by the runtime's helper, so the emulator and a generated client's
 * own check describe a problem the same way.
 */
import { describeIssues, isRecord, issuesFromAjv, readablePath } from "@flowsmith/runtime";
import { METADATA_KEYS, metadataProblemOrUndefined } from "@flowsmith/runtime/service-limits";
import { badRequest } from "./errors.js";
import type { CatalogFlow } from "./flow-catalog.js";

export interface CreateRequest {
  readonly input: Record<string, unknown>;
  readonly metadata: { readonly subjectId: string; readonly locale?: string };
  readonly redirectUrl?: string;
  readonly state?: string;
}

/** The body is decoded already: parsed JSON, or multipart parts with numbers and booleans read as such (emulator/part-values.ts). */
export function validateCreateRequestOrThrow(flow: CatalogFlow, body: unknown): CreateRequest {
  if (!isRecord(body)) throw badRequest("VALIDATION_FAILED", "the request body must be a JSON object");
  checkMetadataOrThrow(flow, body.metadata);
  if (!flow.validate(body)) {
    const issues = issuesFromAjv(flow.validate.errors);
    throw badRequest("VALIDATION_FAILED", `invalid request: ${describeIssues(issues)}`, issues);
  }
  // `input` is optional in the request (docs/service.md 2.1, default {}).
  const request = body as unknown as Omit<CreateRequest, "input"> & { readonly input?: CreateRequest["input"] };
  return { ...request, input: request.input ?? {} };
}

function checkMetadataOrThrow(flow: CatalogFlow, metadata: unknown): void {
  const problem = metadataProblemOrUndefined(metadata, flow.model.locales);
  if (problem?.kind === "keys") {
    const extra = problem.keys;
    throw badRequest(
      "METADATA_KEY_NOT_ALLOWED",
      `metadata key${extra.length > 1 ? "s" : ""} ${extra.map((key) => `"${key}"`).join(", ")} not allowed; metadata accepts only ${METADATA_KEYS.join(" and ")}`,
      extra.map((key) => ({ path: readablePath(["metadata", key]), message: "is not allowed" })),
    );
  }
  if (problem?.kind === "locale") {
    throw badRequest(
      "LOCALE_NOT_SUPPORTED",
      `metadata.locale ${JSON.stringify(problem.locale)} is not supported by flow "${flow.model.id}"; supported: ${flow.model.locales.join(", ")}`,
      [{ path: "metadata.locale", message: `must be one of ${flow.model.locales.join(", ")}` }],
    );
  }
}

