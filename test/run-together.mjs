// `node test/run-together.mjs <script>... [-- <command> <arg>...]`: runs the npm scripts named,
// and the command after `--` if one is given, at the same time, as `npm test` runs the static
// checks, the package checks and jest once the build is done. On a 2-core machine that keeps
// both cores busy to the end: the static checks (tsc and eslint on one program) hold one core
// for about 25 s, and jest alone left a core idle while its last suites ran; side by side the
// whole takes about its CPU time divided by two, not the sum of each step's wall time.
// Anything after the command (`npm test -- --json --outputFile=<file>` appends it there) is
// passed to it. They share no output: the static checks read the sources, jest writes only temp
// folders, the package checks pack what the build wrote and do not build again.
// Outputs come in the order given, never interleaved: the first still running is printed as it
// goes, each later one when its turn comes; the exit code is the first failing one's.
import { spawn } from "node:child_process";

const args = process.argv.slice(2);
const split = args.indexOf("--");
const scripts = split === -1 ? args : args.slice(0, split);
const command = split === -1 ? [] : args.slice(split + 1);
if (scripts.length === 0 && command.length === 0) {
  process.stderr.write("usage: node test/run-together.mjs <npm script>... [-- <command> <arg>...]\n");
  process.exit(2);
}

const windows = process.platform === "win32";
const runs = [
  ...scripts.map((script) => ({ label: `npm run ${script}`, file: windows ? "npm.cmd" : "npm", args: ["run", "-s", script] })),
  ...(command.length > 0 ? [{ label: command.join(" "), file: command[0], args: command.slice(1) }] : []),
];

/** Each run's output so far; `live` once it is the one being printed. */
const states = runs.map(() => ({ chunks: [], live: false, done: undefined }));
let current = 0;

const finished = runs.map(
  ({ file, args }, index) =>
    new Promise((resolve) => {
      const state = states[index];
      const write = (stream) => (chunk) => (state.live ? stream.write(chunk) : state.chunks.push([stream, chunk]));
      const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"], shell: windows });
      child.stdout.on("data", write(process.stdout));
      child.stderr.on("data", write(process.stderr));
      child.on("error", (error) => write(process.stderr)(Buffer.from(`${error.message}\n`)));
      child.on("close", (code, signal) => {
        state.done = { code: code ?? 1, signal };
        resolve();
        advance();
      });
    }),
);

/** Prints what the runs in turn have buffered, and makes the first still running live. */
function advance() {
  while (current < runs.length) {
    const state = states[current];
    for (const [stream, chunk] of state.chunks.splice(0)) stream.write(chunk);
    state.live = true;
    if (!state.done) return;
    const { code, signal } = state.done;
    if (code !== 0) {
      process.stderr.write(`${runs[current].label} failed (exit code ${String(code)}${signal ? `, ${signal}` : ""})\n`);
      process.exitCode ||= code;
    }
    current += 1;
  }
}

advance();
await Promise.all(finished);
