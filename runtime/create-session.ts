/**
 * Creating a session of a flow from its spec and validator. Checks the
 * request on the client (preflight.ts), then POSTs it once: session creation
 * is not retried after its body may have reached the server.
 *
 * createSessionWith is what generated modules call: no type parameters to
 * infer, because each module's own signature already ties client and spec to
 * one environment, and inferring them again in each of many modules costs
 * users' tsc time (BENCHMARKS.md, row 3). createSessionFor checks the
 * environments match, for callers that assemble client and spec themselves.
 */
import { clientContextOrThrow } from "./client-context.js";
import type { Client } from "./client.js";
import { InvalidResponseError } from "./errors.js";
import type { FlowSpec } from "./flow-spec.js";
import type { Environment } from "./service-limits.js";
import { preflightOrThrow } from "./preflight.js";
import type { RequestValidator } from "./request-validator.js";
import type { RequestOptions } from "./resources.js";

export function createSessionFor<E extends Environment, Request, Response>(
  client: Client<E>,
  // NoInfer: E comes from the client alone, so a flow of the other environment is a compile error.
  spec: FlowSpec<NoInfer<E>>,
  validate: RequestValidator,
  request: Request,
  options: RequestOptions = {},
): Promise<Response> {
  return createSessionWith<Response>(client, spec, validate, request, options);
}

export async function createSessionWith<Response>(
  client: Client,
  spec: FlowSpec,
  validate: RequestValidator,
  request: unknown,
  options: RequestOptions = {},
  // The flow's 201 schema (generated validate.ts); optional so modules generated before it still work.
  validateResponse?: RequestValidator,
): Promise<Response> {
  const context = clientContextOrThrow(client);
  const body = await preflightOrThrow(context.options.environment, spec, validate, request);
  const response = await context.api.json<unknown>({ method: "POST", path: spec.path, body, ...options });
  if (typeof response !== "object" || response === null) {
    throw new InvalidResponseError("POST", context.api.displayPath({ path: spec.path }), "expected the created session as JSON");
  }
  if (validateResponse && !validateResponse(response)) {
    throw new InvalidResponseError(
      "POST",
      context.api.displayPath({ path: spec.path }),
      "the session was created, but the response does not match the flow's 201 schema",
    );
  }
  return response as Response;
}
