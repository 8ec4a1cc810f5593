/**
 * Faults a test injects (POST /__emulator/faults, or the handle's addFault):
 * the next `times` requests to a host matching method and path are answered
 * with a status of the test's choosing, delayed, or dropped without an
 * answer (`reset`: "before" the request is processed, or "after", once it
 * has been). Faults are tried in the order they were added; the first one
 * that matches is used up by one. The store is bounded (MAX_FAULTS).
 */

export type HostName = "api" | "auth";

export const MAX_FAULTS = 1000;

export interface FaultSpec {
  readonly host: HostName;
  /** Upper case; undefined matches every method. */
  readonly method: string | undefined;
  /** Starts with `/`; a `*` segment matches any one segment. */
  readonly path: string;
  readonly times: number;
  /** Answer with this status (and headers and body) instead of processing the request. */
  readonly status: number | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /** Sent as JSON; a string is sent as it is. Undefined: the emulator's error body naming the fault. */
  readonly body: unknown;
  /** Waited first, on the emulator's clock. */
  readonly delayMs: number;
  readonly reset: "before" | "after" | undefined;
}

export interface Fault extends FaultSpec {
  readonly id: string;
}

/** A fault as GET /__emulator/faults lists it. */
export interface FaultView extends Omit<FaultSpec, "method" | "status" | "reset" | "times" | "body"> {
  readonly id: string;
  /** Absent when the answer is the emulator's error body. */
  readonly body?: unknown;
  readonly method: string | null;
  readonly status: number | null;
  readonly reset: "before" | "after" | null;
  readonly timesLeft: number;
}

interface ActiveFault {
  readonly fault: Fault;
  readonly segments: readonly string[];
  timesLeft: number;
}

export class FaultStore {
  private readonly active: ActiveFault[] = [];
  private count = 0;

  get size(): number {
    return this.active.length;
  }

  /** The caller checks size against MAX_FAULTS first (its error is worded for its own caller). */
  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, id: `fault_${String(++this.count)}` };
    this.active.push({ fault, segments: spec.path.split("/"), timesLeft: spec.times });
    return fault;
  }

  /** How many there were. */
  clear(): number {
    return this.active.splice(0).length;
  }

  list(): FaultView[] {
    return this.active.map(({ fault, timesLeft }) => ({
      id: fault.id,
      host: fault.host,
      method: fault.method ?? null,
      path: fault.path,
      timesLeft,
      status: fault.status ?? null,
      headers: fault.headers,
      ...(fault.body !== undefined ? { body: fault.body } : {}),
      delayMs: fault.delayMs,
      reset: fault.reset ?? null,
    }));
  }

  /** The first fault matching this request, used up by one; undefined when none matches. */
  take(host: HostName, method: string, path: string): Fault | undefined {
    const segments = path.split("/");
    const index = this.active.findIndex((candidate) => matches(candidate, host, method, segments));
    const found = this.active[index];
    if (!found) return undefined;
    found.timesLeft -= 1;
    if (found.timesLeft === 0) this.active.splice(index, 1);
    return found.fault;
  }
}

function matches(
  { fault, segments: pattern }: ActiveFault,
  host: HostName,
  method: string,
  segments: readonly string[],
): boolean {
  if (fault.host !== host || (fault.method !== undefined && fault.method !== method)) return false;
  return (
    pattern.length === segments.length && pattern.every((segment, i) => segment === "*" || segment === segments[i])
  );
}
