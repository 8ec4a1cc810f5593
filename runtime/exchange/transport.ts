/**
 * The network side of the exchange, one per platform (platform/): undici's
 * dispatcher on Node (undici-transport.ts), the Web `fetch` everywhere else
 * (fetch-transport.ts). Each sends one attempt and keeps the same promises:
 * one time limit (read whole: from sending to the last byte; streamed: until
 * the body is handed over), the caller's signal for as long as the body is
 * open, close() aborting it (it sits in its client's open exchanges until it
 * ends), each failure a typed error (failures.ts), and a body read whole cut
 * at its limit without reading the rest. Why two: bench/analysis.md,
 * "Two transports".
 */
import type { ClientLifecycle } from "../lifecycle.js";
import type { Answer, TextLimits } from "./answer.js";

/** What goes on the wire, and how long it may take. */
export interface WireRequest {
  readonly method: "GET" | "POST";
  readonly origin: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | FormData | undefined;
  readonly signal: AbortSignal | undefined;
}

export interface WireSettings {
  readonly timeoutMs: number;
  /** Read whole within these limits; undefined: streamed. */
  readonly limits: TextLimits | undefined;
}

export interface Transport {
  /** Credentials it holds (a proxy's password and Basic value), which the client's Redactor scrubs. */
  readonly secrets?: readonly string[];
  /** One attempt. Refuses (ClientClosedError, AbortError) before sending when the client is closed or the signal fired. */
  send(request: WireRequest, settings: WireSettings, lifecycle: ClientLifecycle): Promise<Answer>;
  /** Closes what the client owns (its connections); what it was given stays open. Nothing is running any more (lifecycle.close() aborted it). */
  close(): Promise<void>;
}
