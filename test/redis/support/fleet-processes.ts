/**
 * Processes of a fleet (fleet-process.js, on the built packages), forked
 * with IPC: what each says (`next(key)`), what it writes on stderr (kept,
 * and passed through), and when it exits. `useFleetProcesses()` kills
 * whatever is still running after each test.
 */
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";

const SCRIPT = path.join(__dirname, "fleet-process.js");

export interface FleetProcess {
  readonly child: ChildProcess;
  /** The first message with this key. */
  next<T>(key: string): Promise<T>;
  readonly exited: Promise<number | null>;
  /** What it wrote on stderr so far. */
  readonly stderr: () => string;
}

export function useFleetProcesses(): { start: (settings: Record<string, unknown>) => FleetProcess } {
  const children = new Set<ChildProcess>();
  afterEach(() => {
    for (const child of children) child.kill("SIGKILL");
    children.clear();
  });
  const start = (settings: Record<string, unknown>): FleetProcess => {
    const child = fork(SCRIPT, [JSON.stringify(settings)], { stdio: ["ignore", "inherit", "pipe", "ipc"] });
    children.add(child);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      process.stderr.write(chunk);
    });
    const exited = new Promise<number | null>((resolve) => {
      child.once("exit", (code) => {
        resolve(code);
      });
    });
    void exited.then(() => children.delete(child));
    return {
      child,
      exited,
      stderr: () => stderr,
      next: <T>(key: string) =>
        new Promise<T>((resolve, reject) => {
          const onMessage = (message: Record<string, unknown>) => {
            if (!(key in message)) return;
            child.off("message", onMessage);
            resolve(message[key] as T);
          };
          child.on("message", onMessage);
          void exited.then((code) => {
            reject(new Error(`fleet process exited (${String(code)}) before sending ${key}`));
          });
        }),
    };
  };
  return { start };
}
