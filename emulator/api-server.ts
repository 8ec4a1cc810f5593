/**
 * The {base_url} host. Every request goes through the same gate, in this
 * order: User-Agent (403), a known route (404, 405), then its endpoint (API
 * endpoints check the bearer token first: 401, and 403 when the path names
 * the other environment). Before the gate, the journal and the faults
 * (traffic.ts); beside it, the control API under /__emulator/ when it is on.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { EmulatorControl } from "./control/controller.js";
import { handleControl, isControlPath } from "./control/routes.js";
import { ApiError, notFound } from "./errors.js";
import { endpoints, type Endpoint, type Services } from "./endpoints.js";
import { guarded, pathOf, requireUserAgentOrThrow } from "./http-exchange.js";
import { playerEndpoints } from "./player/routes.js";
import type { Traffic } from "./traffic.js";

/** The control API as the host serves it: undefined when it is off. */
export interface ControlMount {
  readonly control: EmulatorControl;
  readonly token: string | undefined;
}

/** The API, then the hosted player (HTML pages, also on {base_url}). */
const routes: readonly Endpoint[] = [...endpoints, ...playerEndpoints];

interface RouteMatch {
  readonly endpoint: Endpoint;
  /** The path's segments the endpoint's pattern captured, decoded. */
  readonly segments: readonly string[];
}

export function createApiServer(services: Services, traffic: Traffic, mount: ControlMount | undefined): Server {
  const api = traffic.observe(
    "api",
    guarded(async (req, res) => {
      requireUserAgentOrThrow(req);
      const { endpoint, segments } = routeOrThrow(req);
      await endpoint.handle({ req, res, segments, services });
    }),
  );
  const control = mount && guarded((req, res) => handleControl(req, res, mount.control, mount.token));
  return createServer((req, res) => {
    if (control && isControlPath(req)) control(req, res);
    else api(req, res);
  });
}

function routeOrThrow(req: IncomingMessage): RouteMatch {
  const path = pathOf(req);
  const matching = routes.flatMap((endpoint) => {
    const match = endpoint.pattern.exec(path);
    return match ? [{ endpoint, captured: match.slice(1) }] : [];
  });
  if (matching.length === 0) throw notFound(`no such endpoint: ${req.method ?? ""} ${path}`);
  const chosen = matching.find((candidate) => candidate.endpoint.method === req.method);
  if (!chosen) {
    const allow = matching.map((candidate) => candidate.endpoint.method).join(", ");
    throw new ApiError(405, "METHOD_NOT_ALLOWED", `${path} accepts ${allow}, not ${req.method ?? ""}`, { headers: { allow } });
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
