/**
 * The request paths of docs/service.md 4, built from encoded segments. Every
 * value that goes into a path (flowId, environment, sessionId, vaultEntryId)
 * is one segment: `/`, `?`, `#`, `%`, `\`, whitespace and the rest are
 * percent-encoded as encodeURIComponent does, so no value can reach another
 * path or add a query. `.` and `..` are refused: servers and proxies resolve
 * them (also written `%2E`) as dot segments, so no encoding is safe.
 * base-url.ts relies on this: it appends these paths to the baseUrl as they are.
 */
import { FlowsmithError } from "./errors.js";
import type { FlowSpec } from "./flow-spec.js";
import type { Environment } from "./service-limits.js";

/**
 * The paths' templates, as logs and spans name a call (`url.template`): one
 * per endpoint, whatever its values.
 */
export const ROUTES = {
  createSession: "/api/v1/flows/{flowId}/{environment}/sessions",
  flows: "/api/v1/flows/{environment}",
  session: "/api/v1/{environment}/sessions/{sessionId}",
  dataBlocks: "/api/v1/{environment}/sessions/{sessionId}/datablocks",
  step: "/api/v1/{environment}/sessions/{sessionId}/step",
  actions: "/api/v1/{environment}/sessions/{sessionId}/actions",
  file: "/api/v1/{environment}/files/{vaultEntryId}",
} as const;

/** Per spec object: createSession is the hot path, and a generated module passes the same spec on every call. */
const sessionPaths = new WeakMap<
  object,
  { readonly id: string; readonly environment: string; readonly path: string }
>();

export function createSessionPath(spec: Pick<FlowSpec, "id" | "environment">): string {
  const cached = sessionPaths.get(spec);
  // Compared, not trusted: a spec object changed after its first use gets its new path.
  if (cached?.id === spec.id && cached.environment === spec.environment) return cached.path;
  const path = `/api/v1/flows/${segmentOrThrow(spec.id, "flow id")}/${segmentOrThrow(spec.environment, "environment")}/sessions`;
  sessionPaths.set(spec, { id: spec.id, environment: spec.environment, path });
  return path;
}

export function flowsPath(environment: Environment): string {
  return `/api/v1/flows/${segmentOrThrow(environment, "environment")}`;
}

export function sessionPath(environment: Environment, sessionId: string): string {
  return `/api/v1/${segmentOrThrow(environment, "environment")}/sessions/${segmentOrThrow(sessionId, "sessionId")}`;
}

export function filePath(environment: Environment, vaultEntryId: string): string {
  return `/api/v1/${segmentOrThrow(environment, "environment")}/files/${segmentOrThrow(vaultEntryId, "vaultEntryId")}`;
}

/** A value as one path segment, encoded; `INVALID_ARGUMENT` when it cannot be one. */
export function segmentOrThrow(value: string, name: string): string {
  if (typeof value !== "string" || value === "") {
    throw new FlowsmithError("INVALID_ARGUMENT", `${name} must be a non-empty string`);
  }
  if (value === "." || value === "..") {
    throw new FlowsmithError(
      "INVALID_ARGUMENT",
      `${name} ${JSON.stringify(value)} cannot be a path segment: it would name another path`,
    );
  }
  try {
    return encodeURIComponent(value);
  } catch {
    // A lone UTF-16 surrogate has no UTF-8 form to encode.
    throw new FlowsmithError("INVALID_ARGUMENT", `${name} is not well-formed Unicode (a lone surrogate)`);
  }
}
