/**
 * Creating a session of a flow from its spec, which is what a generated
 * module's createSession calls (through `@flowsmith/runtime/flow-module`).
 * Checks the request on the client (preflight.ts), then POSTs it once:
 * session creation is not retried after its body may have reached the
 * server. The 201 body is checked against the fields every created session
 * has (response-shapes.ts) and the flow's own 201 schema.
 */
import type { ApiRequest, ResponseCheck } from "./api-call.js";
import { clientContextOrThrow } from "./client-context.js";
import type { Client } from "./client.js";
import type { ValidationIssue } from "./errors.js";
import type { FlowSpec } from "./flow-spec.js";
import { createSessionPath, ROUTES } from "./paths.js";
import { preflightOrThrow, type PreparedBody } from "./preflight.js";
import { Redactor } from "./secrets/redaction.js";
import type { RequestOptions } from "./resources.js";
import { createdSessionIssues } from "./response-shapes.js";
import { flowChecksOrThrow } from "./flow-checks.js";
import { issuesOf } from "./validation/schema-check.js";

/** Scrubs what is thrown before a client is at hand (a value that is not a client). */
const NO_CLIENT = new Redactor();

/**
 * No type parameters but the response's: each generated module's own
 * signature ties client and spec to one environment, and inferring them
 * again in each of many modules costs users' tsc time (BENCHMARKS.md, row 3).
 *
 * Not an async function: a JSON body is ready at once and the call is
 * ApiCaller.json's own promise, one async step less on the hot path (each
 * costs every call). Whatever it rejects with has passed the client's
 * Redactor: ApiCaller.json scrubs its errors, and the ones thrown here are
 * scrubbed below.
 */
export function createFlowSession<Response>(
  client: Client,
  spec: FlowSpec,
  request: unknown,
  options: RequestOptions = NO_OPTIONS,
): Promise<Response> {
  let redactor = NO_CLIENT;
  try {
    const context = clientContextOrThrow(client);
    redactor = context.redactor;
    context.lifecycle.throwIfClosed();
    const path = createSessionPath(spec);
    const checks = flowChecksOrThrow(spec);
    const check: ResponseCheck = {
      issuesOf: (created) => createdSessionProblems(created, spec, request, checks.response),
      tookEffect: SESSION_CREATED,
    };
    const prepared = preflightOrThrow(context.options.environment, spec, checks.request, request);
    if (!(prepared instanceof Promise))
      return context.api.json<Response>(sessionRequest(path, prepared, options), check);
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
  return {
    method: "POST",
    path,
    route: ROUTES.createSession,
    body,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    headers: options.headers,
  };
}

const SESSION_CREATED =
  "The session WAS created (the service answered 201): retrying would create a second one; " +
  "find this one first (its metadata.subjectId is the one you sent)";

function createdSessionProblems(
  body: unknown,
  spec: FlowSpec,
  request: unknown,
  response: Parameters<typeof issuesOf>[0],
): readonly ValidationIssue[] {
  const issues = createdSessionIssues(body, spec, request);
  return issues.length > 0 ? issues : issuesOf(response, body);
}
