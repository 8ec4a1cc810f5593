/**
 * The snapshots of api flows fetched this run: written once outputDir holds
 * what they produced (a failed run leaves them as they were); --check writes
 * none and lists them.
 */
import { writeSnapshotOrThrow } from "../fetch/snapshot.js";
import type { FlowOutcome } from "./flow-outcome.js";
import type { Run } from "./run-context.js";

/** A snapshot fetched this run: written (a write), or one a write would write (--check --refresh). */
export interface SnapshotChange {
  /** Relative to the config, posix. */
  readonly path: string;
  readonly flow: string;
  readonly reason: "added" | "changed";
}

export async function settleSnapshotsOrThrow(flows: readonly FlowOutcome[], run: Run): Promise<SnapshotChange[]> {
  const changes: SnapshotChange[] = [];
  for (const flow of flows) {
    const fetched = flow.kind === "generated" || flow.kind === "reused" ? flow.fetched : undefined;
    if (!fetched || fetched.change === "unchanged") continue;
    if (run.mode === "write")
      await writeSnapshotOrThrow(fetched.file, fetched.text, {
        file: run.config.configDisplay,
        pointer: `${flow.pointer}/source/api`,
        flow: flow.name,
      });
    changes.push({ path: fetched.file.display, flow: flow.name, reason: fetched.change });
  }
  return changes;
}
