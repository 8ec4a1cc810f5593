// `node test/run-together.mjs <script>... [--after <script> <script>...] [-- <command> <arg>...]`:
// runs npm scripts and a command side by side, as `npm test` runs the static checks, the build,
// and once the build is done, the package checks and jest:
//   node test/run-together.mjs static-checks --after build test:checks -- jest
// The scripts before `--after` start at once, and so does the one named right after it; the
// scripts after that one, and the command after `--`, start when it has succeeded (if it fails,
// they do not run). On a 2-core machine that keeps both cores busy to the end: the static checks
// (tsc and eslint on one program, which reads sources only) use a core while the build uses the
// other, then jest and the package checks take what the static checks leave; side by side the
// whole takes about its CPU time divided by two, not the sum of each step's wall time.
// Anything after the command (`npm test -- --json --outputFile=<file>` appends it there) is
// passed to it. They share no output: the static checks read the sources, jest writes only temp
// folders, the package checks pack what the build wrote and do not build again.
// Outputs come in the order given, never interleaved: the first still running is printed as it
// goes, each later one when its turn comes; the exit code is the first failing one's.
import { spawn } from "node:child_process";

const args = process.argv.slice(2);
const split = args.indexOf("--");
const names = split === -1 ? args : args.slice(0, split);
const command = split === -1 ? [] : args.slice(split + 1);
const after = names.indexOf("--after");
const first = after === -1 ? names : names.slice(0, after);
const gate = after === -1 ? undefined : names[after + 1];
const later = after === -1 ? [] : names.slice(after + 2);
if ((first.length === 0 && command.length === 0 && gate === undefined) || (after !== -1 && gate === undefined)) {
  process.stderr.write(
    "usage: node test/run-together.mjs <npm script>... [--after <npm script> <npm script>...] [-- <command> <arg>...]\n",
  );
  process.exit(2);
}

const windows = process.platform === "win32";
const script = (name) => ({ label: `npm run ${name}`, file: windows ? "npm.cmd" : "npm", args: ["run", "-s", name] });
/** In output order; `gated` ones start once the gate has succeeded. */
const runs = [
  ...first.map((name) => ({ ...script(name), gated: false })),
  ...(gate === undefined ? [] : [{ ...script(gate), gated: false, gate: true }]),
  ...later.map((name) => ({ ...script(name), gated: gate !== undefined })),
  ...(command.length > 0
    ? [{ label: command.join(" "), file: command[0], args: command.slice(1), gated: gate !== undefined }]
    : []),
];

/** Each run's output so far; `live` once it is the one being printed. */
const states = runs.map(() => ({ chunks: [], live: false, done: undefined }));
let current = 0;

function start(index) {
  const { file, args } = runs[index];
  const state = states[index];
  return new Promise((resolve) => {
    const write = (stream) => (chunk) => (state.live ? stream.write(chunk) : state.chunks.push([stream, chunk]));
    const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"], shell: windows });
    child.stdout.on("data", write(process.stdout));
    child.stderr.on("data", write(process.stderr));
    child.on("error", (error) => write(process.stderr)(Buffer.from(`${error.message}\n`)));
    child.on("close", (code, signal) => {
      state.done = { code: code ?? 1, signal };
      resolve(state.done);
      advance();
    });
  });
}

/** A gated run that never started, because the gate failed. */
function skip(index) {
  states[index].done = { code: 1, skipped: true };
  advance();
}

/** Prints what the runs in turn have buffered, and makes the first still running live. */
function advance() {
  while (current < runs.length) {
    const state = states[current];
    for (const [stream, chunk] of state.chunks.splice(0)) stream.write(chunk);
    state.live = true;
    if (!state.done) return;
    const { code, signal, skipped } = state.done;
    if (skipped) {
      process.stderr.write(`${runs[current].label} did not run: npm run ${String(gate)} failed\n`);
      process.exitCode ||= code;
    } else if (code !== 0) {
      process.stderr.write(`${runs[current].label} failed (exit code ${String(code)}${signal ? `, ${signal}` : ""})\n`);
      process.exitCode ||= code;
    }
    current += 1;
  }
}

advance();
const gated = runs.flatMap((run, index) => (run.gated ? [index] : []));
const immediate = runs.flatMap((run, index) => (run.gated ? [] : [index]));
await Promise.all(
  immediate.map(async (index) => {
    const done = await start(index);
    if (!runs[index].gate) return;
    if (done.code === 0) await Promise.all(gated.map((each) => start(each)));
    else for (const each of gated) skip(each);
  }),
);
