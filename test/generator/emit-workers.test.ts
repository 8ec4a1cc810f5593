/**
 * Generation spread over worker threads (the built CLI, dist/, with enough
 * flows to start them) gives the same bytes, progress order and errors as
 * generation in one thread (runCodegen from the sources with workers: 0).
 * Needs `npm run build` first, as `npm test` does.
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { runCodegen } from "../../generator/codegen";
import { listRelativeFiles } from "../../generator/output/output-plan";

const repo = path.resolve(__dirname, "../..");
const bin = path.join(repo, "bin/flowsmith.js");
const run = promisify(execFile);
const SAMPLES = ["signing", "document-verification", "aml-screening"];
/** Two of each sample under new names: six flows, spread over two workers by the CLI. */
const FLOWS = [0, 1].flatMap((copy) => SAMPLES.map((sample) => ({ name: `${sample}-${copy}`, file: `flows/${sample}.yaml` })));

async function project(outputDir: string, flows = FLOWS) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "flowsmith-workers-"));
  cleanup.push(dir);
  await cp(path.join(repo, "flows"), path.join(dir, "flows"), { recursive: true });
  const config = path.join(dir, "codegen.config.json");
  const entries = flows.map(({ name, file }) => ({ name, source: { file } }));
  await writeFile(config, JSON.stringify({ outputDir, runtimeImport: "../../runtime/index.js", flows: entries }));
  return { dir, config, out: path.join(dir, outputDir) };
}

async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const file of await listRelativeFiles(dir)) files.set(file, await readFile(path.join(dir, file), "utf8"));
  return files;
}

function cli(config: string) {
  return run(process.execPath, [bin, "codegen", "--config", config, "--workers", "2"]).then(
    (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
    (failed: { code: number; stdout: string; stderr: string }) => failed,
  );
}

const cleanup: string[] = [];
afterAll(() => Promise.all(cleanup.map((dir) => rm(dir, { recursive: true, force: true }))));

describe("codegen on worker threads", () => {
  test("writes what one thread writes, byte for byte, with progress in config order", async () => {
    const threaded = await project("generated");
    const single = await project("generated");
    const result = await cli(threaded.config);
    expect(result.code).toBe(0);
    const progress = result.stdout.split("\n").filter((line) => line.includes("generated in"));
    expect(progress.map((line) => line.trim().split(/\s+/)[0])).toEqual(FLOWS.map((flow) => flow.name));

    await runCodegen({ configPath: single.config, workers: 0 });
    const want = await snapshot(single.out);
    const got = await snapshot(threaded.out);
    expect([...got.keys()]).toEqual([...want.keys()]);
    expect(got.size).toBe(FLOWS.length * 2 + 2);
    for (const [file, content] of want) expect({ file, content: got.get(file) }).toEqual({ file, content });
  }, 60_000);

  test("a failure names the first failing flow in config order and writes nothing", async () => {
    const flows = [...FLOWS];
    flows[1] = { name: "missing", file: "flows/no-such-file.yaml" };
    flows[4] = { name: "not-yaml", file: "codegen.config.json" };
    const threaded = await project("out", flows);
    await writeFile(path.join(threaded.dir, "out-marker"), "");
    const result = await cli(threaded.config);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('flow "missing"');
    expect(result.stderr).toContain("no-such-file.yaml not found");
    expect(result.stderr).not.toContain("not-yaml");
    expect(await listRelativeFiles(threaded.out)).toEqual([]);
  }, 60_000);

  test("an error inside a worker keeps its code and the flow's name", async () => {
    const flows = [...FLOWS];
    flows[3] = { name: "not-a-flow", file: "codegen.config.json" };
    const threaded = await project("out", flows);
    const result = await cli(threaded.config);
    expect(result.code).not.toBe(0);
    const single = await project("out", flows);
    const error = await runCodegen({ configPath: single.config, workers: 0 }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect(result.stderr).toContain((error as Error).message);
    expect((error as Error).message).toMatch(/^flow "not-a-flow": codegen\.config\.json/);
  }, 60_000);
});
