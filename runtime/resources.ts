/**
 * What the service returns and what the session calls accept. The spec shows
 * only some fields (docs/service.md 2.5, 4); the rest pass through untyped.
 */

export interface RequestOptions {
  /** Abort the call; it rejects with an AbortError (code ABORTED). */
  readonly signal?: AbortSignal;
  /** Overrides the client's timeoutMs for this call (per attempt). */
  readonly timeoutMs?: number;
  /**
   * Headers of this call (a request id): sent on every attempt. Headers the
   * runtime sets (authorization, user-agent, content-type, content-length,
   * host, x-ticket-id) are refused with a ConfigurationError.
   */
  readonly headers?: Readonly<Record<string, string>>;
}

/** waitForStep's options. */
export interface WaitForStepOptions {
  /** Time between polls. Default: the client's pollIntervalMs (2500). */
  readonly intervalMs?: number;
  /** Give up after this long with a TimeoutError. Default: the client's waitTimeoutMs (600000). */
  readonly timeoutMs?: number;
  /** Ends the wait; it rejects with an AbortError (code ABORTED). */
  readonly signal?: AbortSignal;
}

/** waitForOutcome's options. */
export interface WaitForOutcomeOptions {
  /** Time between GET session polls. Default: the client's pollIntervalMs (2500). */
  readonly intervalMs?: number;
  /** Give up after this long with a TimeoutError. Default: the client's waitTimeoutMs (600000). */
  readonly timeoutMs?: number;
  /** Ends the wait; it rejects with an AbortError (code ABORTED). */
  readonly signal?: AbortSignal;
}

/** A flow as listFlows returns it: its id, and whatever else the service sends. */
export interface FlowRecord {
  /** The flow's id (a description's `x-flow-id`). */
  readonly id: string;
  readonly [field: string]: unknown;
}

/** A session's metadata, as the service echoes it. */
export interface SessionMetadata {
  /** Your own reference for the person, as createSession sent it. */
  readonly subjectId: string;
  /** The player's language, when one was set. */
  readonly locale?: string;
}

/** A session as getSession and waitForOutcome return it; fields the reference does not show pass through untyped. */
export interface SessionRecord {
  /** The session's status (`CREATED` once created; the reference shows no other values). */
  readonly sessionStatus: string;
  /** The flow's outcome (the business decision), once there is one. */
  readonly outcome?: unknown;
  /** The metadata createSession sent. */
  readonly metadata: SessionMetadata;
  readonly [field: string]: unknown;
}

/** Data blocks produced by the steps, as the service returns them (shape not fixed by the spec). */
export type DataBlocks = { readonly [field: string]: unknown } | readonly unknown[];

/** An action a step offers: its name and the JSON Schema its body must fit. */
export interface StepAction {
  /** The action's name, e.g. `VALIDATE_OTP`; an action body carries it in its own `type`. */
  readonly type: string;
  /** JSON Schema of the action body. */
  readonly schema: unknown;
}

/** The session's current step, as getStep and waitForStep return it. */
export interface Step {
  /** `START`, `END`, or the name of a step (`OTP_VERIFICATION:v1`). */
  readonly stepType: string;
  /** Set when the step waits for an action; null otherwise. */
  readonly ticketId: string | null;
  /** The actions the step takes, when it waits for one. */
  readonly actions?: readonly StepAction[];
  readonly [field: string]: unknown;
}

/** An action body: it names its action in `type`. */
export interface ActionBody {
  /** The action's name (`VALIDATE_OTP`): one the step offers. */
  readonly type: string;
  readonly [field: string]: unknown;
}

/**
 * A stored file, streamed: read `body` to the end, or cancel it. A Web
 * ReadableStream on every platform (on Node, `Readable.fromWeb(body)` makes
 * it a node:stream, and `new Response(body)` reads it whole).
 */
export interface FileDownload {
  /** The file's bytes, as they arrive; client.close() aborts a body not read to the end. */
  readonly body: ReadableStream<Uint8Array>;
  /** The Content-Type header, when the service sent one. */
  readonly contentType: string | undefined;
  /** The Content-Length header as a number, when the service sent one. */
  readonly contentLength: number | undefined;
}
