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
import type { ApiRequest, ResponseCheck } from "./api-call.js";
import { clientContextOrThrow } from "./client-context.js";
import type { Client } from "./client.js";
import type { ValidationIssue } from "./errors.js";
import type { FlowSpec } from "./flow-spec.js";
import { createSessionPath, ROUTES } from "./paths.js";
import type { Environment } from "./service-limits.js";
import { preflightOrThrow, type PreparedBody } from "./preflight.js";
import { Redactor } from "./redaction.js";
import type { RequestValidator } from "./request-validator.js";
import type { RequestOptions } from "./resources.js";
import { createdSessionIssues } from "./response-shapes.js";
import { issuesFromAjv } from "./validation-issues.js";

/** Scrubs what is thrown before a client is at hand (a value that is not a client). */
const NO_CLIENT = new Redactor();

// Request is part of the public signature (callers may name it explicitly), though used once.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export function createSessionFor<E extends Environment, Request, Response>(
  client: Client<E>,
  // NoInfer: E comes from the client alone, so a flow of the other environment is a compile error.
  spec: FlowSpec<NoInfer<E>>,
  validate: RequestValidator,
  request: Request,
  options: RequestOptions = {},
  validateResponse?: RequestValidator,
): Promise<Response> {
  return createSessionWith<Response>(client, spec, validate, request, options, validateResponse);
}

/**
 * `validateResponse`: the flow's own 201 schema, when the generated module
 * has one; checked after the fields of docs/service.md 2.3, which are always
 * checked. A body that fails either is an InvalidResponseError that says the
 * session was created.
 *
 * Not an async function: a JSON body is ready at once and the call is
 * ApiCaller.json's own promise, one async step less on the hot path (each
 * costs every call). Whatever it rejects with has passed the client's
 * Redactor: ApiCaller.json scrubs its errors, and the ones thrown here are
 * scrubbed below.
 */
export function createSessionWith<Response>(
  client: Client,
  spec: FlowSpec,
  validate: RequestValidator,
  request: unknown,
  options: RequestOptions = NO_OPTIONS,
  validateResponse?: RequestValidator,
): Promise<Response> {
  let redactor = NO_CLIENT;
  try {
    const context = clientContextOrThrow(client);
    redactor = context.redactor;
    context.lifecycle.throwIfClosed();
    const path = createSessionPath(spec);
    const check: ResponseCheck = {
      issuesOf: (created) => createdSessionProblems(created, spec, request, validateResponse),
      tookEffect: SESSION_CREATED,
    };
    const prepared = preflightOrThrow(context.options.environment, spec, validate, request);
    if (!(prepared instanceof Promise)) return context.api.json<Response>(sessionRequest(path, prepared, options), check);
    return prepared.then(
      (body) => context.api.json<Response>(sessionRequest(path, body, options), check),
      (error: unknown) => Promise.reject(redactor.error(error)),
    );
  } catch (error) {
    return Promise.reject(redactor.error(error));
  }
}

const NO_OPTIONS: RequestOptions = Object.freeze({});

/** The options named one by one: a JavaScript caller's other fields are not passed on. */
function sessionRequest(path: string, body: PreparedBody, options: RequestOptions): ApiRequest {
  return { method: "POST", path, route: ROUTES.createSession, body, signal: options.signal, timeoutMs: options.timeoutMs, headers: options.headers };
}

const SESSION_CREATED =
  "The session WAS created (the service answered 201): retrying would create a second one; " +
  "find this one first (its metadata.subjectId is the one you sent)";

function createdSessionProblems(
  body: unknown,
  spec: FlowSpec,
  request: unknown,
  validateResponse: RequestValidator | undefined,
): readonly ValidationIssue[] {
  const issues = createdSessionIssues(body, spec, request);
  if (issues.length > 0 || !validateResponse || validateResponse(body)) return issues;
  return issuesFromAjv(validateResponse.errors);
}
