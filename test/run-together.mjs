// `node test/run-together.mjs <script>...`: runs the npm scripts named at the same time, as
// `npm test` runs its checks before jest. The static checks (tsc and eslint on one program)
// keep one core busy for about 25 s; knip, the build, `codegen --check` and test:packages
// together about 13 s, mostly on one core too. Side by side on a 2-core machine they take the
// longer of the two, not the sum. They share no output: the static checks read the sources,
// the others write only dist/, runtime/dist/ and temp folders (which eslint and tsc skip).
// Each script's output is printed whole when it has ended, in the order given, so nothing
// interleaves; the exit code is the first failing script's.
import { spawn } from "node:child_process";

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write("usage: node test/run-together.mjs <npm script>...\n");
  process.exit(2);
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const runs = scripts.map(
  (script) =>
    new Promise((resolve) => {
      const chunks = [];
      const child = spawn(npm, ["run", "-s", script], { stdio: ["ignore", "pipe", "pipe"], shell: process.platform === "win32" });
      child.stdout.on("data", (chunk) => chunks.push([process.stdout, chunk]));
      child.stderr.on("data", (chunk) => chunks.push([process.stderr, chunk]));
      child.on("error", (error) => chunks.push([process.stderr, Buffer.from(`${error.message}\n`)]));
      child.on("close", (code, signal) => resolve({ script, code: code ?? 1, signal, chunks }));
    }),
);

for (const run of runs) {
  const { script, code, signal, chunks } = await run;
  for (const [stream, chunk] of chunks) stream.write(chunk);
  if (code !== 0) {
    process.stderr.write(`npm run ${script} failed (exit code ${String(code)}${signal ? `, ${signal}` : ""})\n`);
    process.exitCode ||= code;
  }
}
