/**
 * The pipeline end to end on real files: golden output, determinism, reuse,
 * --check, --flow, and that a failed run leaves outputDir untouched.
 */
import { cp, mkdtemp, readFile, rm, writeFile, appendFile, unlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runCodegen } from "../../generator/codegen";
import { CodegenError } from "../../generator/errors";
import { listRelativeFiles } from "../../generator/output/output-plan";

const repo = path.resolve(__dirname, "../..");
const SAMPLES = ["signing", "document-verification", "aml-screening"];

async function project(flows: readonly string[] = SAMPLES, runtimeImport?: string) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "flowsmith-codegen-"));
  await cp(path.join(repo, "flows"), path.join(dir, "flows"), { recursive: true });
  const config = path.join(dir, "codegen.config.json");
  await writeFile(
    config,
    JSON.stringify({
      outputDir: "generated",
      ...(runtimeImport === undefined ? {} : { runtimeImport }),
      flows: flows.map((name) => ({ name, source: { file: `flows/${name}.yaml` } })),
    }),
  );
  return { dir, config, out: path.join(dir, "generated") };
}

async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const file of await listRelativeFiles(dir)) files.set(file, await readFile(path.join(dir, file), "utf8"));
  return files;
}

const cleanup: string[] = [];
afterAll(() => Promise.all(cleanup.map((dir) => rm(dir, { recursive: true, force: true }))));

describe("runCodegen", () => {
  it("reproduces the committed generated/ byte for byte (golden)", async () => {
    const { dir, config, out } = await project();
    cleanup.push(dir);
    await runCodegen({ configPath: config, force: true });
    const want = await snapshot(path.join(repo, "generated"));
    const got = await snapshot(out);
    expect([...got.keys()]).toEqual([...want.keys()]);
    for (const [file, content] of want) expect({ file, content: got.get(file) }).toEqual({ file, content });
  });

  it("emits modules that import only the runtime and each other (no require: ESM-safe)", async () => {
    const files = await snapshot(path.join(repo, "generated"));
    for (const [file, content] of files) {
      if (!file.endsWith(".ts")) continue;
      expect({ file, require: content.includes("require(") }).toEqual({ file, require: false });
      const specifiers = [...content.matchAll(/from "([^"]+)"/g)].map((match) => match[1]);
      for (const specifier of specifiers) expect(specifier).toMatch(/^(@flowsmith\/runtime|\.\/[a-z-]+(\/index)?\.js)$/);
    }
  });

  it("is deterministic and reuses unchanged flows on a rerun", async () => {
    const { dir, config, out } = await project();
    cleanup.push(dir);
    const first = await runCodegen({ configPath: config });
    expect(first.flows.map((flow) => [flow.name, flow.reused])).toEqual(SAMPLES.map((name) => [name, false]));
    const before = await snapshot(out);

    const second = await runCodegen({ configPath: config });
    expect(second.flows.every((flow) => flow.reused)).toBe(true);
    expect(second.changes).toEqual([]);
    expect(await snapshot(out)).toEqual(before);

    const forced = await runCodegen({ configPath: config, force: true });
    expect(forced.flows.some((flow) => flow.reused)).toBe(false);
    expect(await snapshot(out)).toEqual(before);
  });

  it("reports each flow with id, version and environment", async () => {
    const { dir, config } = await project(["signing"]);
    cleanup.push(dir);
    const seen: string[] = [];
    await runCodegen({ configPath: config, onFlow: (flow) => seen.push(`${flow.name} ${flow.id} v${flow.version} ${flow.environment}`) });
    expect(seen).toEqual(["signing 6f1c2a9e-3b7d-4e58-9c41-0a2d7e5b8f13 v1 staging"]);
  });

  it("--check lists missing, changed and extra files and writes nothing", async () => {
    const { dir, config, out } = await project();
    cleanup.push(dir);
    expect((await runCodegen({ configPath: config, check: true })).changes.map((c) => c.reason)).toContain("missing");
    expect(await listRelativeFiles(out)).toEqual([]);

    await runCodegen({ configPath: config });
    expect((await runCodegen({ configPath: config, check: true })).changes).toEqual([]);

    await appendFile(path.join(out, "signing/index.ts"), "// edited by hand\n");
    await writeFile(path.join(out, "stray.ts"), "export {};\n");
    await unlink(path.join(out, "aml-screening/index.ts"));
    const before = await snapshot(out);
    const { changes } = await runCodegen({ configPath: config, check: true });
    expect(changes).toEqual([
      { path: "aml-screening/index.ts", reason: "missing" },
      { path: "signing/index.ts", reason: "changed" },
      { path: "stray.ts", reason: "extra" },
    ]);
    expect(await snapshot(out)).toEqual(before);

    await runCodegen({ configPath: config });
    expect((await runCodegen({ configPath: config, check: true })).changes).toEqual([]);
  });

  it("a failed run leaves outputDir exactly as it was", async () => {
    const { dir, config, out } = await project();
    cleanup.push(dir);
    await runCodegen({ configPath: config });
    const before = await snapshot(out);
    // signing is fine and comes first; the broken second flow must stop the whole set.
    await writeFile(path.join(dir, "flows/document-verification.yaml"), "openapi: 3.0.3\ninfo: [unclosed\n");
    const error = await runCodegen({ configPath: config, force: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CodegenError);
    expect((error as CodegenError).message).toContain("flows/document-verification.yaml");
    expect(await snapshot(out)).toEqual(before);
    expect((await listRelativeFiles(dir)).filter((file) => file.includes("flowsmith-staging"))).toEqual([]);
  });

  it("--flow regenerates only the named flow and keeps the others", async () => {
    const { dir, config, out } = await project();
    cleanup.push(dir);
    await runCodegen({ configPath: config });
    await writeFile(path.join(dir, "flows/document-verification.yaml"), "not: [valid\n");
    const result = await runCodegen({ configPath: config, flows: ["signing"], force: true });
    expect(result.flows.map((flow) => flow.name)).toEqual(["signing"]);
    expect(await listRelativeFiles(path.join(out, "document-verification"))).toEqual(["index.ts", "validate.ts"]);
    const error = await runCodegen({ configPath: config, flows: ["nope"] }).catch((caught: unknown) => caught);
    expect((error as CodegenError).message).toMatch(/--flow nope: no such flow \(known: signing, document-verification, aml-screening\)/);
  });

  it("refuses two flows that end up with the same name", async () => {
    const { dir, config } = await project();
    cleanup.push(dir);
    await writeFile(
      config,
      JSON.stringify({ flows: [{ source: { file: "flows/signing.yaml" } }, { name: "signing", source: { file: "flows/aml-screening.yaml" } }] }),
    );
    const error = await runCodegen({ configPath: config }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "DUPLICATE_NAME" });
    expect((error as Error).message).toMatch(/#\/flows\/0 and #\/flows\/1/);
  });

  it("says clearly that an api source is not supported yet", async () => {
    const { dir, config } = await project();
    cleanup.push(dir);
    await writeFile(config, JSON.stringify({ flows: [{ name: "x", source: { api: { flowId: "f-1", environment: "live" } } }] }));
    const error = await runCodegen({ configPath: config }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "SOURCE_UNSUPPORTED" });
    expect((error as Error).message).toMatch(/#\/flows\/0\/source/);
  });
});
