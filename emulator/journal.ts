/**
 * The request journal (GET /__emulator/requests): one entry per request to
 * either host, in the order their exchanges ended, so a test sees which calls
 * its backend made and what each got. An entry holds no body and no header
 * but the request id: never a token, a secret or a query string (the
 * player's token travels in one). The last MAX_ENTRIES are kept, in a ring.
 * Indices keep counting across a reset, so an incremental reader
 * (`?since=`) never misses or rereads an entry.
 */
import type { HostName } from "./faults.js";

export const MAX_ENTRIES = 10_000;

export interface JournalEntry {
  /** Position in the journal since start; pass `next` of a read as `since` to read on. */
  readonly index: number;
  /** When the request arrived (ISO 8601, the emulator's clock). */
  readonly at: string;
  readonly host: HostName;
  readonly method: string;
  /** Without the query string. */
  readonly path: string;
  /** The status answered; with `dropped`, the one the emulator produced but never sent (null: none produced). */
  readonly status: number | null;
  /** The request's `x-request-id`, else one the emulator made (and answered in `x-request-id`). */
  readonly requestId: string;
  /** The id of the fault applied to it, else null. */
  readonly fault: string | null;
  /** The connection closed without the answer: a `reset` fault, or the client gone first. */
  readonly dropped: boolean;
}

export interface JournalPage {
  /** Oldest first. */
  readonly requests: readonly JournalEntry[];
  /** The index the next entry will have. */
  readonly next: number;
}

export class RequestJournal {
  private readonly slots: (JournalEntry | undefined)[] = [];
  /** Index of the next entry. */
  private next = 0;
  /** Index of the oldest entry a reset kept (none: they are all gone). */
  private start = 0;

  add(entry: Omit<JournalEntry, "index">): void {
    const index = this.next++;
    this.slots[index % MAX_ENTRIES] = { index, ...entry };
  }

  /** Entries from `since` on (those still kept). */
  read(since = 0): JournalPage {
    const first = Math.max(since, this.start, this.next - MAX_ENTRIES);
    const requests: JournalEntry[] = [];
    for (let index = first; index < this.next; index++) {
      const entry = this.slots[index % MAX_ENTRIES];
      if (entry) requests.push(entry);
    }
    return { requests, next: this.next };
  }

  clear(): void {
    this.slots.length = 0;
    this.start = this.next;
  }
}
