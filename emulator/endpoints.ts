/**
 * The API endpoints (docs/service.md section 4), as a table the API server
 * routes on, with their handlers below it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Environment } from "@flowsmith/runtime";
import { createSession, echoMetadata } from "./create-session.js";
import { ApiError, badRequest, notFound } from "./errors.js";
import type { FileVault } from "./files.js";
import type { FlowCatalog } from "./flow-catalog.js";
import { readSmallBodyOrThrow, rejectUpload, sendJson } from "./http-exchange.js";
import { applyActionOrThrow, stepViewOrThrow } from "./otp-scenario.js";
import type { RedirectAllowlist } from "./player/redirect-allowlist.js";
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

export interface EndpointContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly params: readonly string[];
  /** The token's environment (equal to the path's); absent on public endpoints. */
  readonly environment: Environment;
  readonly services: Services;
}

export interface Endpoint {
  readonly method: "GET" | "POST";
  readonly pattern: RegExp;
  /** Index of the path parameter naming the environment. */
  readonly environmentParam?: number;
  /** Served without a bearer token. */
  readonly public?: boolean;
  readonly handle: (context: EndpointContext) => Promise<void>;
}

const SEGMENT = "([^/]+)";
const MAX_ACTION_BYTES = 64 * 1024;

export const endpoints: readonly Endpoint[] = [
  { method: "GET", pattern: route`/api/v1/flows/${"environment"}`, environmentParam: 0, handle: listFlows },
  { method: "GET", pattern: route`/api/v1/flows/${"flowId"}/${"environment"}/openapi`, environmentParam: 1, handle: getDescription },
  { method: "POST", pattern: route`/api/v1/flows/${"flowId"}/${"environment"}/sessions`, environmentParam: 1, handle: postSession },
  { method: "GET", pattern: route`/api/v1/flows/${"flowId"}/${"environment"}/sessions`, environmentParam: 1, handle: listSessions },
  { method: "GET", pattern: route`/api/v1/${"environment"}/sessions/${"sessionId"}`, environmentParam: 0, handle: getSession },
  { method: "GET", pattern: route`/api/v1/${"environment"}/sessions/${"sessionId"}/datablocks`, environmentParam: 0, handle: getDataBlocks },
  { method: "GET", pattern: route`/api/v1/${"environment"}/sessions/${"sessionId"}/step`, environmentParam: 0, handle: getStep },
  { method: "POST", pattern: route`/api/v1/${"environment"}/sessions/${"sessionId"}/actions`, environmentParam: 0, handle: postAction },
  { method: "GET", pattern: route`/api/v1/${"environment"}/files/${"vaultEntryId"}`, environmentParam: 0, handle: getFile },
];

async function listFlows({ res, environment, services }: EndpointContext): Promise<void> {
  const flows = services.catalog.inEnvironment(environment).map(({ model }) => ({
    id: model.id,
    name: model.title,
    version: model.version,
    environment: model.environment,
  }));
  sendJson(res, 200, { flows });
}

async function getDescription({ res, params, environment, services }: EndpointContext): Promise<void> {
  const flow = services.catalog.findOrThrow(params[0]!, environment);
  if (flow.document === undefined) throw notFound(`the description of flow "${flow.model.id}" is not available in this emulator`);
  sendJson(res, 200, flow.document);
}

async function postSession({ req, res, params, environment, services }: EndpointContext): Promise<void> {
  const flow = services.catalog.findOrThrow(params[0]!, environment);
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

async function listSessions({ res, params, environment, services }: EndpointContext): Promise<void> {
  const flow = services.catalog.findOrThrow(params[0]!, environment);
  const sessions = services.sessions.ofFlow(flow.model).map((session) => ({
    sessionId: session.id,
    sessionStatus: services.sessions.statusOf(session),
    createdAt: session.createdAt.toISOString(),
  }));
  sendJson(res, 200, { sessions });
}

async function getSession({ res, params, environment, services }: EndpointContext): Promise<void> {
  const session = services.sessions.findOrThrow(params[1]!, environment);
  sendJson(res, 200, {
    sessionId: session.id,
    flowId: session.flow.id,
    environment: session.flow.environment,
    flowVersion: session.flow.version,
    sessionStatus: services.sessions.statusOf(session),
    createdAt: session.createdAt.toISOString(),
    ...(session.outcome ? { outcome: { decision: session.outcome.decision, decidedAt: session.outcome.decidedAt.toISOString() } } : {}),
    metadata: echoMetadata(session),
  });
}

/** The input's data blocks as received (files by reference) plus UserReference from subjectId. */
async function getDataBlocks({ res, params, environment, services }: EndpointContext): Promise<void> {
  const session = services.sessions.findOrThrow(params[1]!, environment);
  sendJson(res, 200, {
    sessionId: session.id,
    dataBlocks: { UserReference: { subjectId: session.request.metadata.subjectId }, ...session.request.input },
  });
}

async function getStep({ res, params, environment, services }: EndpointContext): Promise<void> {
  const session = services.sessions.findOrThrow(params[1]!, environment);
  sendJson(res, 200, stepViewOrThrow(services.sessions, session));
}

async function postAction({ req, res, params, environment, services }: EndpointContext): Promise<void> {
  const session = services.sessions.findOrThrow(params[1]!, environment);
  let body: unknown;
  try {
    body = parseActionOrThrow(req, await readSmallBodyOrThrow(req, MAX_ACTION_BYTES));
  } catch (error) {
    if (error instanceof ApiError && error.status === 413) return rejectUpload(req, res, error);
    throw error;
  }
  const ticket = req.headers["x-ticket-id"];
  sendJson(res, 200, applyActionOrThrow(services.sessions, session, Array.isArray(ticket) ? ticket[0] : ticket, body));
}

async function getFile({ res, params, environment, services }: EndpointContext): Promise<void> {
  const opened = services.vault.open(params[1]!, environment);
  if (!opened) throw notFound(`no file "${params[1]}" in ${environment}`);
  const { reference, stream } = opened;
  res.writeHead(200, {
    "content-type": reference.mediaType || "application/octet-stream",
    "content-length": String(reference.size),
    "content-disposition": `attachment; filename*=UTF-8''${encodeURIComponent(reference.filename)}`,
  });
  stream.on("error", () => res.destroy());
  stream.pipe(res);
}

function parseActionOrThrow(req: IncomingMessage, bytes: Buffer): unknown {
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") throw badRequest("UNSUPPORTED_CONTENT_TYPE", "an action body must be sent as application/json");
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw badRequest("MALFORMED_BODY", `the action body is not valid JSON: ${(error as Error).message}`);
  }
}

/** A path pattern whose `${name}` parts each match one segment. */
function route(literals: TemplateStringsArray, ..._names: string[]): RegExp {
  const escaped = literals.map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${escaped.join(SEGMENT)}$`);
}
