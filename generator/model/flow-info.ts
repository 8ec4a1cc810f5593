/**
 * The fixed parts of a flow description (docs/flow-descriptions.md): info and its
 * x- extensions, the server, and the one createSession operation, whose path
 * must name the same flow and environment as info.
 */
import { appendPointer } from "../read/json-pointer.js";
import { valueText } from "../read/value-text.js";
import { isRecord, ownValue, type BuildContext, type Located } from "./build-context.js";
import { ENVIRONMENTS, type Environment } from "@flowsmith/runtime/service-limits";
import type { FlowModel } from "./types.js";

/** The model's fields that come from info, servers and the path, plus the operation to read the body from. */
export interface FlowInfo extends Pick<
  FlowModel,
  "id" | "version" | "versionLabel" | "environment" | "title" | "description" | "summary" | "serverUrl" | "path"
> {
  /** The POST operation object. */
  readonly operation: Located;
}

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
const PATH_SHAPE = /^\/api\/v1\/flows\/([^/]+)\/([^/]+)\/sessions$/;
/**
 * A flow id is one segment of the request path (docs/flow-descriptions.md,
 * "Fixed parts"): RFC 3986's unreserved characters, which no client or
 * server reads as a separator, an escape or the start of a query or fragment.
 */
const FLOW_ID = /^[A-Za-z0-9._~-]+$/;

export function readFlowInfoOrThrow(context: BuildContext): FlowInfo {
  const document = asRecord(context.loaded.document);
  const info = asRecord(ownValue(document, "info"));
  const { id, version, environment } = readExtensionsOrThrow(context, info);
  const { path, operation } = readOperationOrThrow(context, document);
  checkPathOrThrow(context, path, id, environment);
  const description = ownValue(info, "description");
  const summary = ownValue(asRecord(operation.value), "summary");
  return {
    id,
    version,
    versionLabel: String(ownValue(info, "version")),
    environment,
    title: String(ownValue(info, "title")),
    ...(typeof description === "string" ? { description } : {}),
    ...(typeof summary === "string" ? { summary } : {}),
    serverUrl: readServerUrlOrThrow(context, document),
    path,
    operation,
  };
}

function readExtensionsOrThrow(
  context: BuildContext,
  info: Readonly<Record<string, unknown>>,
): { id: string; version: number; environment: Environment } {
  const id = ownValue(info, "x-flow-id");
  const version = ownValue(info, "x-flow-version");
  const environment = ownValue(info, "x-environment");
  const missing = (key: string, want: string, got: unknown): Error =>
    context.error(
      "NOT_A_FLOW_DESCRIPTION",
      got === undefined
        ? `info.${key} is missing: a flow description names its flow with x-flow-id, x-flow-version and x-environment`
        : `info.${key} must be ${want}, got ${valueText(got)}`,
      got === undefined ? "#/info" : appendPointer("#/info", key),
    );
  if (typeof id !== "string" || id === "") throw missing("x-flow-id", "a non-empty string", id);
  checkFlowIdOrThrow(context, id);
  if (typeof version !== "number" || !Number.isFinite(version)) throw missing("x-flow-version", "a number", version);
  if (!(ENVIRONMENTS as readonly unknown[]).includes(environment)) {
    throw missing("x-environment", `one of ${ENVIRONMENTS.join(", ")}`, environment);
  }
  return { id, version, environment: environment as Environment };
}

function checkFlowIdOrThrow(context: BuildContext, id: string): void {
  if (FLOW_ID.test(id) && id !== "." && id !== "..") return;
  throw context.error(
    "UNSAFE_FLOW_ID",
    `info.x-flow-id ${valueText(id)} is not a safe path segment: a flow id has only letters A-Z and a-z, digits and . _ ~ - (and is not "." or "..")`,
    "#/info/x-flow-id",
  );
}

function readOperationOrThrow(
  context: BuildContext,
  document: Readonly<Record<string, unknown>>,
): { path: string; operation: Located } {
  const paths = asRecord(ownValue(document, "paths"));
  const keys = Object.keys(paths).filter((key) => !key.startsWith("x-"));
  const [path] = keys;
  if (keys.length !== 1 || path === undefined) {
    throw context.error(
      "NOT_A_FLOW_DESCRIPTION",
      `a flow description has exactly one path (/api/v1/flows/<flow id>/<environment>/sessions), found ${String(keys.length)}`,
      "#/paths",
    );
  }
  const pathPointer = appendPointer("#/paths", path);
  const item = asRecord(ownValue(paths, path));
  const others = HTTP_METHODS.filter((method) => method !== "post" && Object.hasOwn(item, method));
  if (!Object.hasOwn(item, "post") || others.length > 0) {
    const found = HTTP_METHODS.filter((method) => Object.hasOwn(item, method)).join(", ") || "none";
    throw context.error(
      "NOT_A_FLOW_DESCRIPTION",
      `the path must have exactly one operation, post (found: ${found})`,
      pathPointer,
    );
  }
  const operation: Located = { value: ownValue(item, "post"), pointer: appendPointer(pathPointer, "post"), trail: [] };
  const operationId = ownValue(asRecord(operation.value), "operationId");
  if (operationId !== "createSession") {
    throw context.error(
      "NOT_A_FLOW_DESCRIPTION",
      `the operation must have operationId createSession, got ${valueText(operationId)}`,
      operation.pointer,
    );
  }
  return { path, operation };
}

function checkPathOrThrow(context: BuildContext, path: string, id: string, environment: Environment): void {
  const pointer = appendPointer("#/paths", path);
  const match = PATH_SHAPE.exec(path);
  if (!match) {
    throw context.error(
      "PATH_MISMATCH",
      `path ${valueText(path)} is not /api/v1/flows/${id}/${environment}/sessions (the shape /api/v1/flows/<x-flow-id>/<x-environment>/sessions)`,
      pointer,
    );
  }
  const [, pathId = "", pathEnvironment = ""] = match;
  if (pathId !== id) {
    throw context.error("PATH_MISMATCH", `path names flow ${valueText(pathId)} but info.x-flow-id is "${id}"`, pointer);
  }
  if (pathEnvironment !== environment) {
    throw context.error(
      "PATH_MISMATCH",
      `path names environment ${valueText(pathEnvironment)} but info.x-environment is "${environment}"`,
      pointer,
    );
  }
}

function readServerUrlOrThrow(context: BuildContext, document: Readonly<Record<string, unknown>>): string {
  const servers = ownValue(document, "servers");
  const first: unknown = Array.isArray(servers) ? servers[0] : undefined;
  const url = isRecord(first) ? ownValue(first, "url") : undefined;
  if (typeof url !== "string" || url === "") {
    throw context.error(
      "NOT_A_FLOW_DESCRIPTION",
      "servers[0].url is missing: a flow description names the base URL it was produced for",
      Array.isArray(servers) ? "#/servers" : "#",
    );
  }
  return url;
}

function asRecord(value: unknown): Readonly<Record<string, unknown>> {
  return isRecord(value) ? value : {};
}
