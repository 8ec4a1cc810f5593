/** Anything a test suite starts in beforeAll and closes in afterAll. */
interface Closable {
  close(): Promise<unknown>;
}

/**
 * Closes, one after the other, what a beforeAll started. Each is declared
 * `let x: T` and assigned in beforeAll, so its type says it is set; a beforeAll
 * that failed part-way leaves some unset, and those are skipped so that the
 * first error stays the one reported.
 */
export async function closeStarted(...started: readonly (Closable | undefined)[]): Promise<void> {
  for (const resource of started) await resource?.close();
}
