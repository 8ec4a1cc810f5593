/**
 * Open or closed: a client's close() ends what is still running (requests
 * waiting for an answer, response bodies nobody has read, waits between
 * polls and retries) and refuses what comes after, with a ClientClosedError.
 * Without this, closing the connection pool would wait for every unread body
 * (a getFile stream left alone kept close() pending for as long as the server
 * kept sending).
 */
import type { Operation } from "./abort.js";
import { ClientClosedError } from "./errors.js";
import { OpenExchanges } from "./open-exchanges.js";

export class ClientLifecycle {
  /** Exchanges whose request or response body is still open (each adds and removes itself). */
  readonly openExchanges = new OpenExchanges();
  private readonly closing = new AbortController();

  get closed(): boolean {
    return this.closing.signal.aborted;
  }

  /** Fires when close() is called: waits between polls and retries listen to it. */
  get signal(): AbortSignal {
    return this.closing.signal;
  }

  throwIfClosed(operation?: Operation): void {
    if (this.closed) throw new ClientClosedError(operation?.method, operation?.path);
  }

  /** Marks the client closed and aborts every open exchange; idempotent. */
  close(): void {
    if (this.closed) return;
    this.closing.abort(new ClientClosedError());
    // Each aborted exchange removes itself from the list: walk a copy.
    for (const exchange of this.openExchanges.toArray()) exchange.abortWith(new ClientClosedError());
  }
}
