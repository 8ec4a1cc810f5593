/**
 * The {base_url} host. Every request goes through the same gate, in this
 * order: User-Agent (403), a known route (404, 405), then its endpoint (API
 * endpoints check the bearer token first: 401, and 403 when the path names
 * the other environment). Before the gate, the journal and the faults
 * (traffic.ts); beside it, the control API under /__emulator/ when it is on.
 * The routes and the control API are handed in (index.ts puts the rooms
 * together), so this module knows neither the player nor the control API.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { ApiError, notFound } from "./errors.js";
import type { Endpoint, Services } from "./endpoints.js";
import { guarded, pathOf, requireUserAgentOrThrow, type Handler } from "./http-exchange.js";
import type { Traffic } from "./traffic.js";

/** The control API as the host serves it (control/routes.ts): the requests that are its, and how it answers them. */
export interface ControlMount {
  readonly owns: (req: IncomingMessage) => boolean;
  readonly handle: Handler;
}

interface RouteMatch {
  readonly endpoint: Endpoint;
  /** The path's segments the endpoint's pattern captured, decoded. */
  readonly segments: readonly string[];
}

/** `routes`: the API's endpoints, then the hosted player's; `control`: undefined when the control API is off. */
export function createApiServer(
  services: Services,
  traffic: Traffic,
  routes: readonly Endpoint[],
  control: ControlMount | undefined,
): Server {
  const api = traffic.observe(
    "api",
    guarded(async (req, res) => {
      requireUserAgentOrThrow(req);
      const { endpoint, segments } = routeOrThrow(routes, req);
      await endpoint.handle({ req, res, segments, services });
    }),
  );
  const controlApi = control && guarded(control.handle);
  return createServer((req, res) => {
    if (controlApi && control.owns(req)) controlApi(req, res);
    else api(req, res);
  });
}

function routeOrThrow(routes: readonly Endpoint[], req: IncomingMessage): RouteMatch {
  const path = pathOf(req);
  const matching = routes.flatMap((endpoint) => {
    const match = endpoint.pattern.exec(path);
    return match ? [{ endpoint, captured: match.slice(1) }] : [];
  });
  if (matching.length === 0) throw notFound(`no such endpoint: ${req.method ?? ""} ${path}`);
  const chosen = matching.find((candidate) => candidate.endpoint.method === req.method);
  if (!chosen) {
    const allow = matching.map((candidate) => candidate.endpoint.method).join(", ");
    throw new ApiError(405, "METHOD_NOT_ALLOWED", `${path} accepts ${allow}, not ${req.method ?? ""}`, {
      headers: { allow },
    });
  }
  return { endpoint: chosen.endpoint, segments: chosen.captured.map((segment) => decodeSegmentOrThrow(segment, path)) };
}

function decodeSegmentOrThrow(segment: string, path: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw notFound(`malformed path: ${path}`);
  }
}
