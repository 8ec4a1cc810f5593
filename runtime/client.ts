/**
 * createClient: one API client of one environment. Resolves its options once,
 * owns its connection pool and token cache, and offers the session calls.
 */
import { submitAction } from "./actions.js";
import { ApiCaller } from "./api-call.js";
import { TokenCache } from "./auth.js";
import { registerClientContext, type ClientContext } from "./client-context.js";
import { resolveClientOptionsOrThrow, type ClientOptions } from "./client-options.js";
import { getFlowDescription, type FlowDescriptionOptions } from "./flow-description.js";
import type { Environment } from "./service-limits.js";
import { LatestSteps } from "./latest-steps.js";
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
import { getDataBlocks, getFile, getSession, getStep, listFlows, waitForOutcome, waitForStep } from "./session-calls.js";

/**
 * A client of environment `E`. The environment is part of the type, so a
 * generated createSession of a staging flow does not accept a live client.
 */
export interface Client<E extends Environment = Environment> {
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
  /** Closes the client's connections (when it created its own dispatcher). */
  close(): Promise<void>;
}

export function createClient<E extends Environment>(options: ClientOptions<E>): Client<E> {
  const resolved = resolveClientOptionsOrThrow(options);
  const transport = { dispatcher: resolved.dispatcher, userAgent: resolved.userAgent };
  const tokens = new TokenCache(resolved, transport);
  const context: ClientContext = {
    options: resolved,
    api: new ApiCaller(resolved, transport, tokens),
    steps: new LatestSteps(),
  };
  const client: Client<E> = {
    environment: resolved.environment,
    listFlows: (callOptions) => listFlows(context, callOptions),
    getFlowDescription: (flowId, callOptions) => getFlowDescription(context, flowId, callOptions),
    getSession: (sessionId, callOptions) => getSession(context, sessionId, callOptions),
    getDataBlocks: (sessionId, callOptions) => getDataBlocks(context, sessionId, callOptions),
    getFile: (vaultEntryId, callOptions) => getFile(context, vaultEntryId, callOptions),
    getStep: (sessionId, callOptions) => getStep(context, sessionId, callOptions),
    waitForStep: (sessionId, waitOptions) => waitForStep(context, sessionId, waitOptions),
    waitForOutcome: (sessionId, waitOptions) => waitForOutcome(context, sessionId, waitOptions),
    submitAction: (sessionId, ticketId, action, callOptions) =>
      submitAction(context, sessionId, ticketId, action, callOptions),
    close: async () => {
      if (resolved.ownsDispatcher) await resolved.dispatcher.close();
    },
  };
  registerClientContext(client, context);
  return Object.freeze(client);
}
