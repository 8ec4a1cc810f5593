/**
 * The validator cache (generator/cache/validator-cache.ts): a write keeps the
 * validators it compiled; a later write into a fresh outputDir reuses them
 * and writes the same bytes as a run without the cache; an entry that is not
 * whole and of its shape is compiled again; --check never reads it; a cache
 * that cannot be written leaves the output complete and says so.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { defaultCacheDir, ValidatorCacheDir } from "../../generator/cache/validator-cache";
import { runCodegen } from "../../generator/pipeline";
import { main } from "../../cli/main";
import { makeProject, removeProjects, snapshot, type Project } from "./codegen-project";

afterAll(removeProjects);

/** A project with its own cache folder beside it (the temp folder has no node_modules above it). */
async function projectWithCache(): Promise<Project & { cacheDir: string }> {
  const project = await makeProject();
  return { ...project, cacheDir: path.join(project.root, "cache") };
}

async function entries(cacheDir: string): Promise<string[]> {
  return (await readdir(cacheDir)).sort();
}

describe("the validator cache", () => {
  it("is filled by a write and reused by the next one, which writes the same bytes as a run without it", async () => {
    const { config, out, cacheDir } = await projectWithCache();
    const first = await runCodegen({ configPath: config, cacheDir });
    // The three samples: a request validator each and one response validator they share.
    expect(first.validatorCache).toMatchObject({ reused: 0, added: 4 });
    expect(first.validatorCache?.problem).toBeUndefined();
    expect(await entries(cacheDir)).toHaveLength(4);
    const uncached = await snapshot(out);

    await runCodegen({ configPath: config, cacheDir: false, force: true });
    expect(await snapshot(out)).toEqual(uncached);

    const second = await runCodegen({ configPath: config, cacheDir, force: true });
    expect(second.validatorCache).toMatchObject({ reused: 4, added: 0 });
    expect(await snapshot(out)).toEqual(uncached);
  });

  it("compiles again, and writes over, an entry that is truncated, reshaped or another entry's", async () => {
    const { config, out, cacheDir } = await projectWithCache();
    await runCodegen({ configPath: config, cacheDir });
    const want = await snapshot(out);
    const [truncated, reshaped, moved, kept] = (await entries(cacheDir)).map((name) => path.join(cacheDir, name));
    if (!truncated || !reshaped || !moved || !kept) throw new Error("expected 4 entries");
    const whole = await readFile(truncated, "utf8");
    await writeFile(truncated, whole.slice(0, whole.length / 2));
    const entry = JSON.parse(await readFile(reshaped, "utf8")) as Record<string, unknown>;
    await writeFile(reshaped, JSON.stringify({ ...entry, name: "validate0; alert(1)" }));
    // A whole entry copied under another entry's name: the name inside it no longer matches.
    await writeFile(moved, await readFile(kept, "utf8"));

    const again = await runCodegen({ configPath: config, cacheDir, force: true });
    expect(again.validatorCache).toMatchObject({ reused: 1, added: 3 });
    expect(await snapshot(out)).toEqual(want);
    expect(await readFile(truncated, "utf8")).toBe(whole);
    const rewritten = await runCodegen({ configPath: config, cacheDir, force: true });
    expect(rewritten.validatorCache).toMatchObject({ reused: 4, added: 0 });
  });

  it("is not read by --check, which regenerates from the descriptions alone and so finds a tampered entry's output", async () => {
    const { config, out, cacheDir } = await projectWithCache();
    await runCodegen({ configPath: config, cacheDir });
    for (const name of await entries(cacheDir)) {
      const file = path.join(cacheDir, name);
      const entry = JSON.parse(await readFile(file, "utf8")) as { code: string };
      await writeFile(file, JSON.stringify({ ...entry, code: `  // tampered\n${entry.code}` }));
    }
    const tampered = await runCodegen({ configPath: config, cacheDir, force: true });
    expect(tampered.validatorCache).toMatchObject({ reused: 4 });
    expect(await readFile(path.join(out, "signing/validate.ts"), "utf8")).toContain("// tampered");

    const check = await runCodegen({ configPath: config, cacheDir, check: true });
    expect(check).not.toHaveProperty("validatorCache");
    expect(check.changes.map((change) => change.path).sort()).toEqual([
      ".flowsmith-manifest.json",
      "aml-screening/validate.ts",
      "document-verification/validate.ts",
      "signing/validate.ts",
    ]);
  });

  it("names its entries by the generator's fingerprint: another build of flowsmith never reads them", async () => {
    const { config, cacheDir } = await projectWithCache();
    await runCodegen({ configPath: config, cacheDir });
    const [name] = await entries(cacheDir);
    const key = "0".repeat(64);
    const one = new ValidatorCacheDir(cacheDir, "fingerprint-a");
    one.set(key, { code: "const validate0 = () => true;\n", name: "validate0", imports: [] });
    expect((await one.flush()).problem).toBeUndefined();
    expect(new ValidatorCacheDir(cacheDir, "fingerprint-a").get(key)).toEqual({ code: "const validate0 = () => true;\n", name: "validate0", imports: [] });
    expect(new ValidatorCacheDir(cacheDir, "fingerprint-b").get(key)).toBeUndefined();
    expect(name).toMatch(/^[0-9a-f]{64}\.json$/);
  });

  it("that cannot be written leaves the output complete, and the CLI says so", async () => {
    const { config, out, dir, root } = await projectWithCache();
    const blocked = path.join(root, "a-file");
    await writeFile(blocked, "not a folder\n");
    const result = await runCodegen({ configPath: config, cacheDir: path.join(blocked, "cache") });
    expect(result.validatorCache?.problem).toMatch(/ENOTDIR|EEXIST/);
    expect([...(await snapshot(out)).keys()]).toContain("signing/validate.ts");

    // The CLI's default: node_modules/.cache/flowsmith/validators of the nearest node_modules, here a file in the way.
    await mkdir(path.join(dir, "node_modules"));
    await writeFile(path.join(dir, "node_modules", ".cache"), "not a folder\n");
    expect(defaultCacheDir(config)).toBe(path.join(dir, "node_modules", ".cache", "flowsmith", "validators"));
    let stdout = "";
    let stderr = "";
    const io = { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) } };
    expect(await main(["codegen", "--config", config, "--force"], io)).toBe(0);
    expect(stderr).toMatch(/note: could not write the validator cache .*node_modules\/\.cache\/flowsmith\/validators .*the output is complete/);
    expect(stdout).toMatch(/signing .* generated in \d+ ms\n/);
  });

  it("is used by the CLI from node_modules/.cache, reported when it helps, and left alone with --no-cache", async () => {
    const { config, dir } = await projectWithCache();
    await mkdir(path.join(dir, "node_modules"));
    const cacheDir = path.join(dir, "node_modules", ".cache", "flowsmith", "validators");
    const run = async (args: string[]): Promise<string> => {
      let stdout = "";
      const io = { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: () => true } };
      expect(await main(["codegen", "--config", config, "--force", ...args], io)).toBe(0);
      return stdout;
    };
    expect(await run(["--no-cache"])).not.toMatch(/validator/);
    await expect(readdir(cacheDir)).rejects.toMatchObject({ code: "ENOENT" });
    expect(await run([])).not.toMatch(/reused/);
    expect(await entries(cacheDir)).toHaveLength(4);
    expect(await run([])).toMatch(/4 validator\(s\) reused from .*node_modules\/\.cache\/flowsmith\/validators, 0 new \(--no-cache compiles all\)/);
  });
});
