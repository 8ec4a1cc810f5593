/**
 * The checks of the numeric options a caller passes, to createClient or to
 * one call (`timeoutMs` of a request, `intervalMs` and `timeoutMs` of a
 * wait): a value that is not a finite number in range is refused with a
 * ConfigurationError before anything is sent. Without it, Infinity or NaN
 * reached setTimeout, which Node turns into 1 ms (a call timed out at
 * once), and a wait with an infinite timeoutMs polled forever.
 */
import { ConfigurationError } from "./errors.js";

/** `where` names the option as the caller wrote it (`timeoutMs`, or `waitForStep's timeoutMs`). */
export function positive(value: number | undefined, fallback: number, where: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new ConfigurationError(`${where} must be a positive number; got ${shown(value)}`);
  return value;
}

export function nonNegative(value: number | undefined, fallback: number, where: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0)
    throw new ConfigurationError(`${where} must be a number >= 0; got ${shown(value)}`);
  return value;
}

export function nonNegativeInteger(value: number | undefined, fallback: number, where: string): number {
  const resolved = nonNegative(value, fallback, where);
  if (!Number.isInteger(resolved)) throw new ConfigurationError(`${where} must be an integer; got ${shown(resolved)}`);
  return resolved;
}

/** A JavaScript caller may pass anything: a string is shown quoted, so "5" is not read as 5. */
function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}
