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

export interface WaitForStepOptions {
  /** Time between polls. Default: the client's pollIntervalMs (2500). */
  readonly intervalMs?: number;
  /** Give up after this long with a TimeoutError. Default: the client's waitTimeoutMs (600000). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface WaitForOutcomeOptions {
  /** Time between GET session polls. Default: the client's pollIntervalMs (2500). */
  readonly intervalMs?: number;
  /** Give up after this long with a TimeoutError. Default: the client's waitTimeoutMs (600000). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface FlowRecord {
  readonly id: string;
  readonly [field: string]: unknown;
}

export interface SessionMetadata {
  readonly subjectId: string;
  readonly locale?: string;
}

export interface SessionRecord {
  readonly sessionStatus: string;
  /** The flow's outcome (the business decision), once there is one. */
  readonly outcome?: unknown;
  readonly metadata: SessionMetadata;
  readonly [field: string]: unknown;
}

/** Data blocks produced by the steps, as the service returns them (shape not fixed by the spec). */
export type DataBlocks = { readonly [field: string]: unknown } | readonly unknown[];

export interface StepAction {
  /** The action's name, e.g. `VALIDATE_OTP`; an action body carries it in its own `type`. */
  readonly type: string;
  /** JSON Schema of the action body. */
  readonly schema: unknown;
}

export interface Step {
  /** `START`, `END`, or the name of a step (`OTP_VERIFICATION:v1`). */
  readonly stepType: string;
  /** Set when the step waits for an action; null otherwise. */
  readonly ticketId: string | null;
  readonly actions?: readonly StepAction[];
  readonly [field: string]: unknown;
}

/** An action body: it names its action in `type`. */
export interface ActionBody {
  readonly type: string;
  readonly [field: string]: unknown;
}

/**
 * A stored file, streamed: read `body` to the end, or cancel it. A Web
 * ReadableStream on every platform (on Node, `Readable.fromWeb(body)` makes
 * it a node:stream, and `new Response(body)` reads it whole).
 */
export interface FileDownload {
  readonly body: ReadableStream<Uint8Array>;
  readonly contentType: string | undefined;
  readonly contentLength: number | undefined;
}
