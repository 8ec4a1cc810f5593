/**
 * A script run as users run code, in a Node process of its own (the built
 * runtime in runtime/dist), that must finish within a bound: the test's
 * process stays free whatever the script does, and a script still running
 * at the bound is killed and fails the test as a hang. The bound
 * (NO_HANG_BOUND_MS) is far above a linear run and far below what a
 * backtracking pattern takes on the inputs the tests send.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { NO_HANG_BOUND_MS } from "./bounded.js";

const REPO_ROOT = path.resolve(__dirname, "..", "..");

/** Runs `script` (CommonJS, from the repository's root) and returns the JSON it writes as its last stdout line. */
export async function scriptOutputOrThrow(script: string, boundMs = NO_HANG_BOUND_MS): Promise<unknown> {
  if (!existsSync(path.join(REPO_ROOT, "runtime", "dist", "index.js")))
    throw new Error("runtime/dist/index.js is missing: run `npm run build` first");
  const child = spawn(process.execPath, ["-e", script], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the script did not finish within ${String(boundMs)} ms: a hang`));
    }, boundMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(`the script exited with ${String(code)}: ${err}`));
        return;
      }
      try {
        resolve(JSON.parse(out.trim().split("\n").at(-1) ?? ""));
      } catch {
        reject(new Error(`the script printed no JSON: ${out}${err}`));
      }
    });
  });
}
