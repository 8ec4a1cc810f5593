/**
 * Checks a decoded create-session body against the flow: the service's own
 * rules (metadata keys, the flow's locales), each with its own code, and the
 * flow's request schema (checked by the runtime's schema checker), all reported at once. Issues are
 * worded by the runtime's helper, so the emulator and a generated client's
 * own check describe a problem the same way.
 */
import type { ValidationIssue } from "@flowsmith/runtime";
import { describeIssues, issuesOf, metadataProblems, readablePath } from "@flowsmith/runtime/internal";
import { isRecord } from "@flowsmith/runtime/internal/json";
import { METADATA_KEYS } from "@flowsmith/runtime/service-limits";
import { badRequest, type ApiErrorCode } from "./errors.js";
import type { CatalogFlow } from "./flow-catalog.js";

export interface CreateRequest {
  readonly input: Record<string, unknown>;
  readonly metadata: { readonly subjectId: string; readonly locale?: string };
  readonly redirectUrl?: string;
  readonly state?: string;
}

/**
 * The body is decoded already: parsed JSON, or multipart parts with numbers and booleans read as such (emulator/part-values.ts).
 * Every problem is answered at once (issue 20): the 400 carries them all in `errors`, its code the first one's.
 */
export function validateCreateRequestOrThrow(flow: CatalogFlow, body: unknown): CreateRequest {
  if (!isRecord(body)) throw badRequest("VALIDATION_FAILED", "the request body must be a JSON object");
  const problems = metadataProblemsOf(flow, body.metadata);
  const found = issuesOf(flow.validate, body);
  if (found.length > 0) {
    // What the service's own rules named already is not said twice.
    const reported = new Set(problems.flatMap((problem) => problem.errors.map((issue) => issue.path)));
    const issues = found.filter((issue) => !reported.has(issue.path));
    if (issues.length > 0)
      problems.push({
        code: "VALIDATION_FAILED",
        message: `invalid request: ${describeIssues(issues)}`,
        errors: issues,
      });
  }
  const [first] = problems;
  if (first !== undefined) {
    const message =
      problems.length === 1
        ? first.message
        : `${String(problems.length)} problems: ${problems.map((p, i) => `(${String(i + 1)}) ${p.message}.`).join(" ")}`;
    throw badRequest(
      first.code,
      message,
      problems.flatMap((problem) => problem.errors),
    );
  }
  // `input` is optional in the request (docs/service.md 2.1, default {}).
  const request = body as unknown as Omit<CreateRequest, "input"> & { readonly input?: CreateRequest["input"] };
  return { ...request, input: request.input ?? {} };
}

interface Problem {
  readonly code: ApiErrorCode;
  readonly message: string;
  readonly errors: readonly ValidationIssue[];
}

function metadataProblemsOf(flow: CatalogFlow, metadata: unknown): Problem[] {
  return metadataProblems(metadata, flow.model.locales).map((problem): Problem => {
    if (problem.kind === "keys") {
      const extra = problem.keys;
      return {
        code: "METADATA_KEY_NOT_ALLOWED",
        message: `metadata key${extra.length > 1 ? "s" : ""} ${extra.map((key) => `"${key}"`).join(", ")} not allowed; metadata accepts only ${METADATA_KEYS.join(" and ")}`,
        errors: extra.map((key) => ({ path: readablePath(["metadata", key]), message: "is not allowed" })),
      };
    }
    return {
      code: "LOCALE_NOT_SUPPORTED",
      message: `metadata.locale ${JSON.stringify(problem.locale)} is not supported by flow "${flow.model.id}"; supported: ${flow.model.locales.join(", ")}`,
      errors: [{ path: "metadata.locale", message: `must be one of ${flow.model.locales.join(", ")}` }],
    };
  });
}
