/**
 * The API endpoints (docs/service.md section 4), as a table the API server
 * routes on, with their handlers below it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ENVIRONMENTS, type Environment } from "@flowsmith/runtime";
import { createSession, echoMetadata } from "./create-session.js";
import { ApiError, badRequest, notFound } from "./errors.js";
import type { FileVault } from "./files.js";
import type { FlowCatalog } from "./flow-catalog.js";
import { mediaTypeOf, readSmallBodyOrThrow, rejectUpload, sendJson } from "./http-exchange.js";
import { applyActionOrThrow, stepViewOrThrow } from "./otp-scenario.js";
import type { RedirectAllowlist } from "./redirect-allowlist.js";
import type { SessionStore } from "./sessions.js";
import type { TokenStore } from "./tokens.js";

export interface Services {
  readonly catalog: FlowCatalog;
  readonly tokens: TokenStore;
  readonly sessions: SessionStore;
  readonly vault: FileVault;
  /** Where a session's redirectUrl may point. */
  readonly redirectAllowlist: RedirectAllowlist;
  /** Known once the API listener is bound. */
  readonly baseUrl: () => string;
}

/** What the API server hands every endpoint once its pattern matched: the path's captured segments, decoded, in order. */
interface RoutedRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly segments: readonly string[];
  readonly services: Services;
}

export interface Endpoint {
  readonly method: "GET" | "POST";
  readonly pattern: RegExp;
  readonly handle: (request: RoutedRequest) => Promise<void>;
}

/** A handler answers before it returns, or by the time its promise settles. */
type Handler<Context> = (context: Context) => void | Promise<void>;

/** An endpoint's view of its request: the path's parameters by name. */
export interface EndpointContext<Name extends string> {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly params: Readonly<Record<Name, string>>;
  readonly services: Services;
}

/** A bearer-token endpoint also knows the token's environment (equal to the path's). */
interface ApiContext<Name extends string> extends EndpointContext<Name> {
  readonly environment: Environment;
}

/** A path pattern whose `${name}` parts each match one segment, and those names in order. */
export interface Route<Name extends string> {
  readonly pattern: RegExp;
  readonly names: readonly Name[];
}

const SEGMENT = "([^/]+)";
const MAX_ACTION_BYTES = 64 * 1024;

export const endpoints: readonly Endpoint[] = [
  apiEndpoint("GET", route`/api/v1/flows/${"environment"}`, listFlows),
  apiEndpoint("GET", route`/api/v1/flows/${"flowId"}/${"environment"}/openapi`, getDescription),
  apiEndpoint("POST", route`/api/v1/flows/${"flowId"}/${"environment"}/sessions`, postSession),
  apiEndpoint("GET", route`/api/v1/flows/${"flowId"}/${"environment"}/sessions`, listSessions),
  apiEndpoint("GET", route`/api/v1/${"environment"}/sessions/${"sessionId"}`, getSession),
  apiEndpoint("GET", route`/api/v1/${"environment"}/sessions/${"sessionId"}/datablocks`, getDataBlocks),
  apiEndpoint("GET", route`/api/v1/${"environment"}/sessions/${"sessionId"}/step`, getStep),
  apiEndpoint("POST", route`/api/v1/${"environment"}/sessions/${"sessionId"}/actions`, postAction),
  apiEndpoint("GET", route`/api/v1/${"environment"}/files/${"vaultEntryId"}`, getFile),
];

/**
 * An endpoint behind a bearer token, whose path names the environment: 401
 * without a valid token, 403 when the path names the other environment, then
 * the handler.
 */
function apiEndpoint<Name extends string>(
  method: Endpoint["method"],
  path: Route<Name | "environment">,
  handle: Handler<ApiContext<Name | "environment">>,
): Endpoint {
  return {
    method,
    pattern: path.pattern,
    handle: async ({ req, res, segments, services }) => {
      const params = paramsOf(path.names, segments);
      const environment = authorizeOrThrow(req, services, params.environment);
      await handle({ req, res, params, environment, services });
    },
  };
}

/** An endpoint served without a bearer token (the hosted player: its own token is the key). */
export function publicEndpoint<Name extends string>(
  method: Endpoint["method"],
  path: Route<Name>,
  handle: Handler<EndpointContext<Name>>,
): Endpoint {
  return {
    method,
    pattern: path.pattern,
    handle: async ({ req, res, segments, services }) => {
      await handle({ req, res, params: paramsOf(path.names, segments), services });
    },
  };
}

/** A route's names paired with the segments its pattern captured: one capture group per name, so each name has its segment. */
function paramsOf<Name extends string>(
  names: readonly Name[],
  segments: readonly string[],
): Readonly<Record<Name, string>> {
  return Object.fromEntries(names.map((name, index) => [name, segments[index] ?? ""])) as Record<Name, string>;
}

/** 401 without a valid token; 403 when the path names the other environment. */
function authorizeOrThrow(req: IncomingMessage, services: Services, pathEnvironment: string): Environment {
  const environment = services.tokens.environmentOfBearerOrThrow(req.headers.authorization);
  if (pathEnvironment !== environment) {
    if (!(ENVIRONMENTS as readonly string[]).includes(pathEnvironment)) {
      throw notFound(`unknown environment "${pathEnvironment}" in the path; use staging or live`);
    }
    throw new ApiError(
      403,
      "ENVIRONMENT_MISMATCH",
      `this token belongs to ${environment}; it cannot reach ${pathEnvironment}`,
    );
  }
  return environment;
}

function listFlows({ res, environment, services }: ApiContext<"environment">): void {
  const flows = services.catalog.inEnvironment(environment).map(({ model }) => ({
    id: model.id,
    name: model.title,
    version: model.version,
    environment: model.environment,
  }));
  sendJson(res, 200, { flows });
}

function getDescription({ res, params, environment, services }: ApiContext<"flowId">): void {
  const flow = services.catalog.findOrThrow(params.flowId, environment);
  if (flow.document === undefined)
    throw notFound(`the description of flow "${flow.model.id}" is not available in this emulator`);
  sendJson(res, 200, flow.document);
}

async function postSession({ req, res, params, environment, services }: ApiContext<"flowId">): Promise<void> {
  const flow = services.catalog.findOrThrow(params.flowId, environment);
  await createSession({
    req,
    res,
    flow,
    environment,
    vault: services.vault,
    sessions: services.sessions,
    redirectAllowlist: services.redirectAllowlist,
    baseUrl: services.baseUrl(),
  });
}

function listSessions({ res, params, environment, services }: ApiContext<"flowId">): void {
  const flow = services.catalog.findOrThrow(params.flowId, environment);
  const sessions = services.sessions.ofFlow(flow.model).map((session) => ({
    sessionId: session.id,
    sessionStatus: services.sessions.statusOf(session),
    createdAt: session.createdAt.toISOString(),
  }));
  sendJson(res, 200, { sessions });
}

function getSession({ res, params, environment, services }: ApiContext<"sessionId">): void {
  const session = services.sessions.findOrThrow(params.sessionId, environment);
  sendJson(res, 200, {
    sessionId: session.id,
    flowId: session.flow.id,
    environment: session.flow.environment,
    flowVersion: session.flow.version,
    sessionStatus: services.sessions.statusOf(session),
    createdAt: session.createdAt.toISOString(),
    ...(session.outcome
      ? { outcome: { decision: session.outcome.decision, decidedAt: session.outcome.decidedAt.toISOString() } }
      : {}),
    metadata: echoMetadata(session),
  });
}

/** The input's data blocks as received (files by reference) plus UserReference from subjectId. */
function getDataBlocks({ res, params, environment, services }: ApiContext<"sessionId">): void {
  const session = services.sessions.findOrThrow(params.sessionId, environment);
  sendJson(res, 200, {
    sessionId: session.id,
    dataBlocks: { UserReference: { subjectId: session.request.metadata.subjectId }, ...session.request.input },
  });
}

function getStep({ res, params, environment, services }: ApiContext<"sessionId">): void {
  const session = services.sessions.findOrThrow(params.sessionId, environment);
  sendJson(res, 200, stepViewOrThrow(services.sessions, session));
}

async function postAction({ req, res, params, environment, services }: ApiContext<"sessionId">): Promise<void> {
  const session = services.sessions.findOrThrow(params.sessionId, environment);
  let body: unknown;
  try {
    body = parseActionOrThrow(req, await readSmallBodyOrThrow(req, MAX_ACTION_BYTES));
  } catch (error) {
    if (error instanceof ApiError && error.status === 413) {
      rejectUpload(req, res, error);
      return;
    }
    throw error;
  }
  const ticket = req.headers["x-ticket-id"];
  sendJson(res, 200, applyActionOrThrow(services.sessions, session, Array.isArray(ticket) ? ticket[0] : ticket, body));
}

function getFile({ res, params, environment, services }: ApiContext<"vaultEntryId">): void {
  const opened = services.vault.open(params.vaultEntryId, environment);
  if (!opened) throw notFound(`no file "${params.vaultEntryId}" in ${environment}`);
  const { reference, stream } = opened;
  res.writeHead(200, {
    "content-type": reference.mediaType || "application/octet-stream",
    "content-length": String(reference.size),
    "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(reference.filename)}`,
  });
  stream.on("error", () => {
    res.destroy();
  });
  // A connection gone before the end (the client left, a reset fault) leaves pipe() paused: the file would stay open.
  res.once("close", () => {
    stream.destroy();
  });
  stream.pipe(res);
}

function parseActionOrThrow(req: IncomingMessage, bytes: Buffer): unknown {
  if (mediaTypeOf(req) !== "application/json")
    throw badRequest("UNSUPPORTED_CONTENT_TYPE", "an action body must be sent as application/json");
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw badRequest("MALFORMED_BODY", `the action body is not valid JSON: ${(error as Error).message}`);
  }
}

/** A route from a path whose `${name}` parts each match one segment. */
export function route<const Name extends string>(literals: TemplateStringsArray, ...names: Name[]): Route<Name> {
  const escaped = literals.map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return { pattern: new RegExp(`^${escaped.join(SEGMENT)}$`), names };
}
