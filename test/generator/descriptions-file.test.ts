/**
 * <outputDir>/descriptions.json (generator/output/description-copies.ts):
 * every flow's normalised description in one file, the base of the next
 * run's change report. Real runs on disk: what the file holds, that a run
 * with nothing to write stages nothing, that an edit by hand is never lost,
 * that a lost copy costs a report and a regeneration but nothing else, and
 * that output in the layout before it (a description.json per flow) is read
 * for the report once and then cleaned up.
 */
import { readdir, readFile, rm, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { descriptionJson } from "../../generator/output/description-json";
import { sha256 } from "../../generator/output/manifest";
import { runCodegen } from "../../generator/pipeline";
import { parseDescriptionOrThrow } from "../../generator/read/load-description";
import {
  copyIn,
  defined,
  makeProject,
  readManifestJson,
  REPO,
  removeProjects,
  SAMPLES,
  snapshot,
  writeConfig,
  writeManifestJson,
  type Project,
} from "./codegen-project";

afterAll(removeProjects);

const V2 = path.join(REPO, "test/fixtures/changes/signing-v2.yaml");

async function normalised(project: Project, name: string): Promise<string> {
  const file = `flows/${name}.yaml`;
  return descriptionJson(parseDescriptionOrThrow(await readFile(path.join(project.dir, file)), file).document);
}

async function besideOutput(project: Project): Promise<string[]> {
  return (await readdir(path.dirname(project.out))).filter((entry) => entry.startsWith("generated."));
}

describe("descriptions.json", () => {
  it("holds each flow's normalised description under its name, in config order, and the manifest their sha256", async () => {
    const project = await makeProject();
    await runCodegen({ configPath: project.config });
    const text = await readFile(path.join(project.out, "descriptions.json"), "utf8");
    const copies = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(copies)).toEqual([...SAMPLES]);
    expect(text).toBe(`${JSON.stringify(copies, null, 2)}\n`);
    const manifest = await readManifestJson(project.out);
    expect(manifest.descriptions).toEqual({ "descriptions.json": sha256(text) });
    for (const name of SAMPLES) {
      const copy = await normalised(project, name);
      expect(await copyIn(project.out, name)).toBe(copy);
      expect(manifest.flows[name]?.description).toBe(sha256(copy));
      expect(Object.keys(manifest.flows[name]?.files ?? {})).toEqual([`${name}/index.ts`]);
    }
  });

  it("a run with nothing to write stages nothing; a new config order alone rewrites the file", async () => {
    const project = await makeProject();
    await runCodegen({ configPath: project.config });
    const before = await snapshot(project.out);
    const again = await runCodegen({ configPath: project.config });
    expect(again.changes).toEqual([]);
    expect(again.flows.map((flow) => flow.status)).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect(await snapshot(project.out)).toEqual(before);
    expect(await besideOutput(project)).toEqual([]);

    const reversed = [...SAMPLES].reverse();
    await writeConfig(project.config, {
      outputDir: "generated",
      flows: reversed.map((name) => ({ name, source: { file: `flows/${name}.yaml` } })),
    });
    const reordered = await runCodegen({ configPath: project.config });
    expect(reordered.flows.map((flow) => flow.status)).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect(reordered.changes).toEqual([
      { path: ".flowsmith-manifest.json", reason: "changed" },
      { path: "descriptions.json", reason: "changed" },
    ]);
    const copies = JSON.parse(await readFile(path.join(project.out, "descriptions.json"), "utf8")) as object;
    expect(Object.keys(copies)).toEqual(reversed);
    expect((await runCodegen({ configPath: project.config, check: true })).changes).toEqual([]);
  });

  it("keeps the copy of a flow --flow leaves out, and reports the one that changed", async () => {
    const project = await makeProject({ flows: ["signing", "aml-screening"] });
    await runCodegen({ configPath: project.config });
    const aml = await copyIn(project.out, "aml-screening");
    await writeFile(path.join(project.dir, "flows/signing.yaml"), await readFile(V2));
    const result = await runCodegen({ configPath: project.config, flows: ["signing"] });
    expect(result.flows.map((flow) => [flow.name, flow.changed?.from, flow.changed?.to])).toEqual([["signing", 1, 2]]);
    expect(await copyIn(project.out, "aml-screening")).toBe(aml);
    expect(await copyIn(project.out, "signing")).toBe(await normalised(project, "signing"));
  });

  it("edited by hand: a write refuses and keeps it, unless --force; the edited copies are no base for a report", async () => {
    const project = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: project.config });
    const file = path.join(project.out, "descriptions.json");
    const edited = (await readFile(file, "utf8")).replace('"Signing"', '"Signing (edited)"');
    await writeFile(file, edited);
    await writeFile(path.join(project.dir, "flows/signing.yaml"), await readFile(V2));

    await expect(runCodegen({ configPath: project.config })).rejects.toMatchObject({ code: "OUTPUT_EDITED" });
    expect(await readFile(file, "utf8")).toBe(edited);
    const checked = await runCodegen({ configPath: project.config, check: true });
    expect(checked.editedByHand).toEqual(["descriptions.json"]);
    expect(checked.flows.map((flow) => flow.changed)).toEqual([undefined]);

    const forced = await runCodegen({ configPath: project.config, force: true });
    expect(forced.changes.map((change) => change.path)).toContain("descriptions.json");
    expect(await copyIn(project.out, "signing")).toBe(await normalised(project, "signing"));
  });

  it("removed: the flows are generated again (their copies were lost) and the file comes back", async () => {
    const project = await makeProject({ flows: ["signing", "aml-screening"] });
    await runCodegen({ configPath: project.config });
    const before = await snapshot(project.out);
    await unlink(path.join(project.out, "descriptions.json"));
    const result = await runCodegen({ configPath: project.config });
    expect(result.flows.map((flow) => [flow.status, flow.changed])).toEqual([
      ["generated", undefined],
      ["generated", undefined],
    ]);
    expect(result.changes).toEqual([{ path: "descriptions.json", reason: "missing" }]);
    expect(await snapshot(project.out)).toEqual(before);
  });

  it("output from before it (a description.json per flow) is the base of one more report, then is cleaned up", async () => {
    const project = await makeProject({ flows: ["signing", "aml-screening"] });
    await runCodegen({ configPath: project.config });
    // The layout flowsmith wrote before descriptions.json, by an older generator.
    const manifest = await readManifestJson(project.out);
    for (const [name, flow] of Object.entries(manifest.flows)) {
      const copy = await copyIn(project.out, name);
      await writeFile(path.join(project.out, `${name}/description.json`), copy);
      flow.files[`${name}/description.json`] = sha256(copy);
      delete flow.description;
    }
    delete manifest.descriptions;
    manifest.generator = { ...defined(manifest.generator, "the stamp"), fingerprint: "an older generator" };
    await writeManifestJson(project.out, manifest);
    await rm(path.join(project.out, "descriptions.json"));

    await writeFile(path.join(project.dir, "flows/signing.yaml"), await readFile(V2));
    const result = await runCodegen({ configPath: project.config });
    expect(
      result.flows.map((flow) => [flow.name, flow.changed?.breaking, flow.changed?.from, flow.changed?.to]),
    ).toEqual([
      ["signing", true, 1, 2],
      ["aml-screening", undefined, undefined, undefined],
    ]);
    expect(result.changes.map((change) => `${change.reason} ${change.path}`)).toEqual([
      "changed .flowsmith-manifest.json",
      "extra aml-screening/description.json",
      "missing descriptions.json",
      "extra signing/description.json",
      "changed signing/index.ts",
    ]);
    expect([...(await snapshot(project.out)).keys()]).toEqual([
      ".flowsmith-manifest.json",
      "aml-screening/index.ts",
      "descriptions.json",
      "index.ts",
      "signing/index.ts",
    ]);
    expect((await runCodegen({ configPath: project.config, check: true })).changes).toEqual([]);
  });
});
