/**
 * A test-only hook: the process kills itself (SIGKILL: no cleanup, no
 * finally, as a power cut or an OOM kill would) when it reaches the point
 * named by the environment variable FLOWSMITH_TEST_CRASH_AT. Used by
 * test/generator/interrupted-write.test.ts to prove that a run interrupted
 * at any of these points leaves outputDir whole and that the next run
 * recovers. Not an option: users never need it, so it is not in --help or
 * the README.
 */

/** In the order a write reaches them (see write-output.ts). */
export const CRASH_POINTS = [
  /** The staging folder holds part of the new set. */
  "staging-partial",
  /** The staging folder holds the whole new set and its manifest; outputDir is untouched. */
  "staging-complete",
  /** outputDir was moved aside to the previous folder; the staged set is not in place yet. */
  "old-moved-aside",
  /** The new set is outputDir; the previous folder is still there. */
  "swapped",
  /** Part of the previous folder has been removed. */
  "cleanup-partial",
] as const;

export type CrashPoint = (typeof CRASH_POINTS)[number];

export function crashPoint(point: CrashPoint): void {
  if (process.env["FLOWSMITH_TEST_CRASH_AT"] === point) process.kill(process.pid, "SIGKILL");
}

/**
 * Where a run can be held still by FLOWSMITH_TEST_PAUSE_AT, test-only as
 * above: "planned" is a write that holds outputDir's lock and has generated
 * every flow (staging the files that differ from outputDir's), and has
 * changed nothing in outputDir; "staged" is one whose whole new set and
 * manifest are staged, right before it swaps them in.
 * test/generator/output-lock.test.ts holds a real run there to start a second
 * one against it, to kill it, or to edit outputDir under it.
 */
export type PausePoint = "planned" | "staged";

/**
 * Says so on stderr (`flowsmith-test: paused at <point>`), then waits until a
 * line arrives on stdin or stdin ends.
 */
export async function pausePoint(point: PausePoint): Promise<void> {
  if (process.env["FLOWSMITH_TEST_PAUSE_AT"] !== point) return;
  process.stderr.write(`flowsmith-test: paused at ${point}\n`);
  await new Promise<void>((resolve) => {
    process.stdin.once("data", () => {
      resolve();
    });
    process.stdin.once("end", () => {
      resolve();
    });
  });
  // Let go of stdin, or the process would wait on it after the run.
  process.stdin.destroy();
}
