/**
 * One flow in both environments, called with a client whose environment is
 * read at run time. A flow promoted from staging to live is two flow entries
 * (two descriptions, one per environment), so two generated modules; this
 * picks the one of the client's environment, typed so that a request must
 * fit both and a module sits only under its own environment.
 */
import type { Client } from "./client.js";
import type { RequestOptions } from "./resources.js";
import type { Environment } from "./service-limits.js";

/** What forEnvironment needs of a generated flow module of environment `E`: its createSession. */
export interface FlowModuleOf<E extends Environment, Request, Response> {
  // A property, not a method: its parameters are then checked strictly, so a live module under `staging` is an error.
  /** The generated module's createSession. */
  readonly createSession: (client: Client<E>, request: Request, options?: RequestOptions) => Promise<Response>;
}

/** What forEnvironment returns: the module of the client's environment, with the client bound. */
export interface EnvironmentFlow<Request, Response> {
  /** The createSession of the module of the client's environment. */
  createSession(request: Request, options?: RequestOptions): Promise<Response>;
}

/**
 * `forEnvironment(client, { staging: onboardingStaging, live: onboardingLive }).createSession(request)`:
 * the same as `if (client.environment === "live") onboardingLive.createSession(client, request)
 * else onboardingStaging.createSession(client, request)`. The request must fit both flows (their
 * request types intersected); the response is either flow's.
 */
export function forEnvironment<StagingRequest, StagingResponse, LiveRequest, LiveResponse>(
  client: Client,
  modules: {
    readonly staging: FlowModuleOf<"staging", StagingRequest, StagingResponse>;
    readonly live: FlowModuleOf<"live", LiveRequest, LiveResponse>;
  },
): EnvironmentFlow<StagingRequest & LiveRequest, StagingResponse | LiveResponse> {
  return {
    createSession: (request, options) =>
      client.environment === "live"
        ? modules.live.createSession(client, request, options)
        : modules.staging.createSession(client, request, options),
  };
}
