/**
 * What a client holds behind its public methods, and the registry through
 * which createSessionFor finds it for a client object.
 */
import type { ApiCaller } from "./api-call.js";
import type { ResolvedClientOptions } from "./client-options.js";
import { FlowsmithError } from "./errors.js";
import type { LatestSteps } from "./latest-steps.js";
import type { ClientLifecycle } from "./lifecycle.js";
import type { Redactor } from "./secrets/redaction.js";

export interface ClientContext {
  readonly options: ResolvedClientOptions;
  readonly api: ApiCaller;
  /** The latest step seen per session: submitAction validates against it. */
  readonly steps: LatestSteps;
  /** Open or closed (close()). */
  readonly lifecycle: ClientLifecycle;
  /** Every error a call rejects with passes through it. */
  readonly redactor: Redactor;
}

const contexts = new WeakMap<object, ClientContext>();

export function registerClientContext(client: object, context: ClientContext): void {
  contexts.set(client, context);
}

export function clientContextOrThrow(client: unknown): ClientContext {
  const context = typeof client === "object" && client !== null ? contexts.get(client) : undefined;
  if (!context) throw new FlowsmithError("INVALID_CLIENT", "Expected a client made by createClient()");
  return context;
}
