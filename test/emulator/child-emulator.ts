/**
 * The emulator in a process of its own, started as users start it
 * (`node bin/flowsmith.js emulator`, from the built dist/), for what can only
 * be measured or seen from outside: its memory (the kernel's peak RSS of the
 * process, so no sampling and no timing), what a raw socket gets, what it
 * prints on stderr, and how it exits.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ReadyLine } from "./fixtures.js";

const REPO_ROOT = path.resolve(__dirname, "..", "..");

export interface ChildEmulator extends ReadyLine {
  /** Peak resident memory of the emulator process so far (VmHWM), in bytes. */
  peakRssBytes(): number;
  /** The next stderr line (after the last one this returned) that matches; jest's timeout bounds the wait. */
  nextStderrLine(pattern: RegExp): Promise<string>;
  /** SIGTERM (SIGKILL 10 s later if it has not exited); resolves with the exit code. */
  stop(): Promise<number | null>;
}

export interface ChildOptions {
  /** Added to this process's environment. */
  readonly env?: Readonly<Record<string, string>>;
}

export async function startChildEmulator(args: readonly string[], options: ChildOptions = {}): Promise<ChildEmulator> {
  const child = spawnEmulator(args, options);
  const stderr = new LineReader(child);
  const ready = await readyLineOrThrow(child, stderr);
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
    nextStderrLine: (pattern) => stderr.next(pattern),
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

/** For a start that must fail: the exit code and everything on stderr. */
export async function runChildEmulatorToExit(
  args: readonly string[],
  options: ChildOptions = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnEmulator(args, options);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  return { code, stdout, stderr };
}

function spawnEmulator(args: readonly string[], options: ChildOptions): ChildProcess {
  if (!existsSync(path.join(REPO_ROOT, "dist", "cli", "commands", "emulator.js")))
    throw new Error("dist/cli/commands/emulator.js is missing: run `npm run build` first");
  return spawn(process.execPath, ["bin/flowsmith.js", "emulator", ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...options.env },
  });
}

/** stderr as lines, each handed out once to the first waiter whose pattern it matches. */
class LineReader {
  readonly lines: string[] = [];
  private consumed = 0;
  private partial = "";
  private waiting: (() => void)[] = [];

  constructor(child: ChildProcess) {
    child.stderr!.on("data", (chunk: Buffer) => {
      const text = this.partial + chunk.toString();
      const parts = text.split("\n");
      this.partial = parts.pop() ?? "";
      this.lines.push(...parts);
      for (const wake of this.waiting.splice(0)) wake();
    });
  }

  async next(pattern: RegExp): Promise<string> {
    for (;;) {
      const index = this.lines.findIndex((line, i) => i >= this.consumed && pattern.test(line));
      if (index !== -1) {
        this.consumed = index + 1;
        return this.lines[index] as string;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  get text(): string {
    return [...this.lines, this.partial].join("\n");
  }
}

function readyLineOrThrow(child: ChildProcess, stderr: LineReader): Promise<ReadyLine> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf("\n");
      if (newline !== -1) resolve(JSON.parse(out.slice(0, newline)) as ReadyLine);
    });
    child.once("exit", (code) => {
      reject(new Error(`the emulator exited with ${code} before it was ready: ${stderr.text}`));
    });
  });
}
