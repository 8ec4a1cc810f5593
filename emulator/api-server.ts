/**
 * The {base_url} host. Every request goes through the same gate, in this
 * order: User-Agent (403), a known route (404, 405), a valid bearer token
 * (401), the path's environment equal to the token's (403); then its handler.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { ENVIRONMENTS, type Environment } from "@flowsmith/runtime";
import { ApiError, notFound } from "./errors.js";
import { endpoints, type Endpoint, type EndpointContext, type Services } from "./endpoints.js";
import { guarded, pathOf, requireUserAgentOrThrow } from "./http-exchange.js";
import { playerEndpoints } from "./player/routes.js";

/** The API, then the hosted player (HTML pages, also on {base_url}). */
const routes: readonly Endpoint[] = [...endpoints, ...playerEndpoints];

interface RouteMatch {
  readonly endpoint: Endpoint;
  readonly params: readonly string[];
}

export function createApiServer(services: Services): Server {
  return createServer(
    guarded(async (req, res) => {
      requireUserAgentOrThrow(req);
      const { endpoint, params } = routeOrThrow(req);
      const environment = endpoint.public ? undefined : authorizeOrThrow(req, services, params[endpoint.environmentParam ?? -1]);
      await endpoint.handle({ req, res, params, environment, services } as EndpointContext);
    }),
  );
}

function routeOrThrow(req: IncomingMessage): RouteMatch {
  const path = pathOf(req);
  const matching = routes
    .map((endpoint) => ({ endpoint, match: endpoint.pattern.exec(path) }))
    .filter((candidate) => candidate.match !== null);
  if (matching.length === 0) throw notFound(`no such endpoint: ${req.method} ${path}`);
  const chosen = matching.find((candidate) => candidate.endpoint.method === req.method);
  if (!chosen) {
    const allow = matching.map((candidate) => candidate.endpoint.method).join(", ");
    throw new ApiError(405, "METHOD_NOT_ALLOWED", `${path} accepts ${allow}, not ${req.method}`, { headers: { allow } });
  }
  const params = chosen.match!.slice(1).map((param) => decodeSegmentOrThrow(param!, path));
  return { endpoint: chosen.endpoint, params };
}

/** 401 without a valid token; 403 when the path names the other environment. */
function authorizeOrThrow(req: IncomingMessage, services: Services, pathEnvironment: string | undefined): Environment {
  const environment = services.tokens.environmentOfBearerOrThrow(req.headers.authorization);
  if (pathEnvironment !== undefined && pathEnvironment !== environment) {
    if (!(ENVIRONMENTS as readonly string[]).includes(pathEnvironment)) {
      throw notFound(`unknown environment "${pathEnvironment}" in the path; use staging or live`);
    }
    throw new ApiError(403, "ENVIRONMENT_MISMATCH", `this token belongs to ${environment}; it cannot reach ${pathEnvironment}`);
  }
  return environment;
}

function decodeSegmentOrThrow(segment: string, path: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw notFound(`malformed path: ${path}`);
  }
}
