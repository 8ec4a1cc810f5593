/**
 * The HTTP exchanges of a client that are still open (a request waiting for
 * its answer, a body not read to the end), so that close() can abort them.
 *
 * A list linked through the exchanges themselves, not a Set: every call adds
 * and removes one, and with a Set that churn made V8 carry each call's whole
 * object graph (exchange, request, promises) through young-generation
 * collections into the old generation (measured: bench/analysis.md, row 4).
 * The likely cause: a Set's table is replaced as entries come and go, and a
 * dead table that had reached the old generation still points at its
 * entries and its successor, which a young collection takes for live
 * references. Here an exchange that ends unlinks itself and keeps no pointer
 * to another.
 */

/** An exchange that close() can end. Its links belong to the OpenExchanges it is in. */
export abstract class OpenExchange {
  openPrevious: OpenExchange | undefined = undefined;
  openNext: OpenExchange | undefined = undefined;

  /** Ends it: undici is told to abort, and the call fails (close() passes a ClientClosedError). */
  abstract abortWith(reason: unknown): void;
}

export class OpenExchanges {
  private head: OpenExchange | undefined;

  add(exchange: OpenExchange): void {
    exchange.openPrevious = undefined;
    exchange.openNext = this.head;
    if (this.head) this.head.openPrevious = exchange;
    this.head = exchange;
  }

  /** Removes it when it is in the list; nothing otherwise (an exchange ends once, but may say so twice). */
  delete(exchange: OpenExchange): void {
    const { openPrevious: previous, openNext: next } = exchange;
    if (previous) previous.openNext = next;
    else if (this.head === exchange) this.head = next;
    else return;
    if (next) next.openPrevious = previous;
    exchange.openPrevious = undefined;
    exchange.openNext = undefined;
  }

  /** A copy: an exchange ended while the copy is walked removes itself from the list, not from the copy. */
  toArray(): OpenExchange[] {
    const exchanges: OpenExchange[] = [];
    for (let exchange = this.head; exchange; exchange = exchange.openNext) exchanges.push(exchange);
    return exchanges;
  }
}
