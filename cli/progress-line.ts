/**
 * The progress line of a long codegen run, on stderr. On a terminal: one
 * line rewritten in place ("generating 37/100 signing") once the run has
 * taken SHOW_AFTER_MS, erased when it ends. Elsewhere (CI logs): a plain
 * line at most every LOG_EVERY_MS, so a short run prints none. Per-flow
 * lines come after the run, once its outcome is known (commands/codegen-report.ts).
 */
import { performance } from "node:perf_hooks";
import type { Progress } from "../generator/index.js";
import type { CommandOutput } from "./command.js";

const SHOW_AFTER_MS = 300;
const REDRAW_EVERY_MS = 50;
const LOG_EVERY_MS = 2_000;

export interface ProgressLine {
  update(progress: Progress): void;
  /** Erases the line on a terminal; call before printing anything else. */
  end(): void;
}

/** `verb`: "generating" or "checking". `now`: milliseconds, injectable for tests. */
export function createProgressLine(
  stream: CommandOutput,
  verb: string,
  now: () => number = () => performance.now(),
): ProgressLine {
  const started = now();
  let lastShown = started;
  let shown = false;
  return {
    update({ done, total, flow }) {
      const at = now();
      if (stream.isTTY) {
        if (at - started < SHOW_AFTER_MS || (shown && at - lastShown < REDRAW_EVERY_MS)) return;
        stream.write(`\r\x1b[2K  ${verb} ${done}/${total}  ${flow}`);
      } else {
        if (at - lastShown < LOG_EVERY_MS) return;
        stream.write(`  ${verb} ${done}/${total}...\n`);
      }
      shown = true;
      lastShown = at;
    },
    end() {
      if (shown && stream.isTTY) stream.write("\r\x1b[2K");
    },
  };
}
