/**
 * The emulator in a process of its own, started as users start it
 * (`node bin/flowsmith.js emulator`, from the built dist/), for what can only
 * be measured or seen from outside: its memory (the kernel's peak RSS of the
 * process, so no sampling and no timing) and what a raw socket gets.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ReadyLine } from "./fixtures.js";

const REPO_ROOT = path.resolve(__dirname, "..", "..");

export interface ChildEmulator extends ReadyLine {
  /** Peak resident memory of the emulator process so far (VmHWM), in bytes. */
  peakRssBytes(): number;
  /** SIGTERM (SIGKILL 10 s later if it has not exited); resolves with the exit code. */
  stop(): Promise<number | null>;
}

export async function startChildEmulator(args: readonly string[]): Promise<ChildEmulator> {
  if (!existsSync(path.join(REPO_ROOT, "dist", "emulator", "cli.js"))) throw new Error("dist/emulator/cli.js is missing: run `npm run build` first");
  const child = spawn(process.execPath, ["bin/flowsmith.js", "emulator", ...args], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const ready = await readyLineOrThrow(child);
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      resolve(code);
    });
  });
  return {
    ...ready,
    peakRssBytes: () => {
      const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (!kb) throw new Error("no VmHWM in /proc/<pid>/status");
      return Number(kb[1]) * 1024;
    },
    stop: () => {
      child.kill("SIGTERM");
      // One that cannot stop (a test that failed by blocking it) is killed rather than left running.
      const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
      return exited.finally(() => {
        clearTimeout(kill);
      });
    },
  };
}

function readyLineOrThrow(child: ChildProcess): Promise<ReadyLine> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf("\n");
      if (newline !== -1) resolve(JSON.parse(out.slice(0, newline)) as ReadyLine);
    });
    child.once("exit", (code) => {
      reject(new Error(`the emulator exited with ${code} before it was ready: ${err}`));
    });
  });
}
