/**
 * "It finishes" as a test can say it without wall-clock luck: the work runs
 * inside node:vm with a timeout, which interrupts even a regular expression
 * that backtracks (V8 checks for the interrupt while it matches), so a hang
 * fails the test instead of freezing the worker. The bound is generous (a
 * linear run takes milliseconds); the inputs it guards are long enough that
 * a backtracking run would exceed it by many orders of magnitude, so
 * neither a slow machine nor a fast one changes the outcome.
 */
import { runInNewContext } from "node:vm";

/** Far above any linear run on a loaded machine; far below a backtracking run on the inputs used. */
export const NO_HANG_BOUND_MS = 30_000;

export function finishedOrThrow<T>(work: () => T, boundMs = NO_HANG_BOUND_MS): T {
  try {
    return runInNewContext("work()", { work }, { timeout: boundMs }) as T;
  } catch (error) {
    // The timeout's error comes from node:vm's realm: known by its code, not by instanceof.
    if ((error as { code?: unknown } | null)?.code === "ERR_SCRIPT_EXECUTION_TIMEOUT") {
      throw new Error(`did not finish within ${String(boundMs)} ms: a hang`, { cause: error });
    }
    throw error;
  }
}
