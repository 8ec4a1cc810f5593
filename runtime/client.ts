/**
 * createClient: one API client of one environment. Resolves its options once,
 * owns its connection pool, token cache and lifecycle, and offers the session
 * calls. Every call's error leaves through the client's Redactor.
 */
import { submitAction } from "./actions.js";
import { ApiCaller } from "./api-call.js";
import { storedTokens, TokenCache, TokenRequest } from "./auth.js";
import { registerClientContext, type ClientContext } from "./client-context.js";
import { resolveClientOptionsOrThrow, type ClientOptions, type ResolvedClientOptions } from "./client-options.js";
import { Exchange } from "./exchange/exchange.js";
import { AttemptLogger } from "./exchange/logging.js";
import type { AttemptObserver } from "./exchange/observer.js";
import { attemptTracerOrUndefined } from "./exchange/tracing.js";
import { getFlowDescription, type FlowDescriptionOptions } from "./flow-description.js";
import type { Environment } from "./service-limits.js";
import { LatestSteps } from "./latest-steps.js";
import { ClientLifecycle } from "./lifecycle.js";
import { Redactor } from "./secrets/redaction.js";
import type {
  ActionBody,
  DataBlocks,
  FileDownload,
  FlowRecord,
  RequestOptions,
  SessionRecord,
  Step,
  WaitForOutcomeOptions,
  WaitForStepOptions,
} from "./resources.js";
import {
  getDataBlocks,
  getFile,
  getSession,
  getStep,
  listFlows,
  waitForOutcome,
  waitForStep,
} from "./session-calls.js";

/**
 * A client of environment `E`. The environment is part of the type, so a
 * generated createSession of a staging flow does not accept a live client.
 * For both environments (`Client<"staging" | "live">`, what createClient
 * returns for an environment read at run time) it is the union of the two
 * clients, so checking `client.environment` narrows it:
 * `if (client.environment === "live")` makes it a `Client<"live">`.
 */
export type Client<E extends Environment = Environment> = E extends Environment ? ClientOf<E> : never;

/** The client of one environment (Client<E> is this, per environment). */
interface ClientOf<E extends Environment> {
  readonly environment: E;
  /** Flows published to the client's environment. */
  listFlows(options?: RequestOptions): Promise<readonly FlowRecord[]>;
  /** A flow's OpenAPI description (docs/service.md 2.4), parsed; `options.path` is the path template. */
  getFlowDescription(flowId: string, options?: FlowDescriptionOptions): Promise<unknown>;
  /** sessionStatus, outcome and metadata. */
  getSession(sessionId: string, options?: RequestOptions): Promise<SessionRecord>;
  getDataBlocks(sessionId: string, options?: RequestOptions): Promise<DataBlocks>;
  /** A stored file, streamed: consume or destroy `body`. */
  getFile(vaultEntryId: string, options?: RequestOptions): Promise<FileDownload>;
  /** The session's current step: `{ stepType, ticketId, actions? }`. */
  getStep(sessionId: string, options?: RequestOptions): Promise<Step>;
  /** Polls the step until a ticket waits for an action or the flow reached END. */
  waitForStep(sessionId: string, options?: WaitForStepOptions): Promise<Step>;
  /** Polls the session until it has an outcome (for backends that poll instead of receiving webhooks). */
  waitForOutcome(sessionId: string, options?: WaitForOutcomeOptions): Promise<SessionRecord>;
  /** Sends an action for the ticket of the latest step, after checking it against the action's schema. */
  submitAction(sessionId: string, ticketId: string, action: ActionBody, options?: RequestOptions): Promise<unknown>;
  /**
   * Ends the client: calls still running (and getFile bodies not read to the
   * end) are aborted, later calls fail with a ClientClosedError, and the
   * client's own connections are closed (a dispatcher passed in stays open).
   */
  close(): Promise<void>;
}

export function createClient<E extends Environment>(options: ClientOptions<E>): Client<E> {
  const resolved = resolveClientOptionsOrThrow(options);
  const lifecycle = new ClientLifecycle();
  const redactor = new Redactor(resolved);
  const exchange = new Exchange({
    transport: resolved.transport,
    lifecycle,
    middleware: resolved.middleware,
    observers: observersOf(resolved, redactor),
  });
  const tokenRequest = new TokenRequest(resolved, exchange, redactor);
  const tokens = new TokenCache(resolved.clock, storedTokens(resolved, lifecycle.signal, tokenRequest, redactor));
  const context: ClientContext = {
    options: resolved,
    api: new ApiCaller(resolved, exchange, tokens, redactor),
    steps: new LatestSteps(),
    lifecycle,
    redactor,
  };
  /** Each call: refused once closed, and whatever it throws scrubbed of secrets. */
  const guarded =
    <A extends unknown[], R>(call: (ctx: ClientContext, ...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        lifecycle.throwIfClosed();
        return await call(context, ...args);
      } catch (error) {
        throw redactor.error(error);
      }
    };
  const client: ClientOf<E> = {
    environment: resolved.environment,
    listFlows: guarded(listFlows),
    getFlowDescription: guarded(getFlowDescription),
    getSession: guarded(getSession),
    getDataBlocks: guarded(getDataBlocks),
    getFile: guarded(getFile),
    getStep: guarded(getStep),
    waitForStep: guarded(waitForStep),
    waitForOutcome: guarded(waitForOutcome),
    submitAction: guarded(submitAction),
    close: () => (closed ??= closeOnce()),
  };
  let closed: Promise<void> | undefined;
  const closeOnce = async () => {
    lifecycle.close();
    // Nothing is left running (lifecycle.close() aborted it), so this does not wait on a server.
    await resolved.transport.close();
  };
  // ClientOf<E> is Client<E> for each E; TypeScript does not resolve the conditional type for an E not yet known.
  const made = Object.freeze(client) as Client<E>;
  registerClientContext(made, context);
  return made;
}

/** What watches each attempt: the logger when one is given, OpenTelemetry when it is installed. */
function observersOf(options: ResolvedClientOptions, redactor: Redactor): AttemptObserver[] {
  const observers: AttemptObserver[] = [];
  if (options.logger) observers.push(new AttemptLogger(options.logger, redactor));
  const tracer = attemptTracerOrUndefined();
  if (tracer) observers.push(tracer);
  return observers;
}
