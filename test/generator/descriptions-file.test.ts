/**
 * <outputDir>/descriptions.json (generator/output/description-copies.ts):
 * every flow's normalised description in one file, the base of the next
 * run's change report. Real runs on disk: what the file holds, that a run
 * with nothing to write stages nothing, that an edit by hand is never lost,
 * that a lost copy costs a report and a regeneration but nothing else, and
 * that output in the layout before it (a description.json per flow) is read
 * for the report once and then cleaned up.
 */
import { readdirSync } from "node:fs";
import { readdir, readFile, rm, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { descriptionJson } from "../../generator/output/description-json";
import { sha256 } from "../../generator/output/manifest";
import { runCodegen } from "../../generator/pipeline";
import { parseDescriptionOrThrow } from "../../generator/read/load-description";
import {
  besideOutput,
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

/** Turns a project's output into the layout flowsmith wrote before descriptions.json, by an older generator. */
async function toEarlierLayout(project: Project): Promise<void> {
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
    await toEarlierLayout(project);

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

  it("a Windows checkout (CRLF) is the copies as written: --flow keeps the other flows' entries, --check passes", async () => {
    const project = await makeProject({ flows: ["signing", "aml-screening"] });
    await runCodegen({ configPath: project.config });
    const file = path.join(project.out, "descriptions.json");
    await writeFile(file, (await readFile(file, "utf8")).replace(/\n/g, "\r\n"));
    const aml = await normalised(project, "aml-screening");
    expect((await runCodegen({ configPath: project.config, check: true, flows: ["signing"] })).changes).toEqual([]);

    await writeFile(path.join(project.dir, "flows/signing.yaml"), await readFile(V2));
    const result = await runCodegen({ configPath: project.config, flows: ["signing"] });
    expect(result.flows.map((flow) => [flow.name, flow.changed?.from, flow.changed?.to])).toEqual([["signing", 1, 2]]);
    expect(await copyIn(project.out, "aml-screening")).toBe(aml);
    expect((await readManifestJson(project.out)).flows["aml-screening"]?.description).toBe(sha256(aml));
    expect((await runCodegen({ configPath: project.config, check: true })).changes).toEqual([]);
  });

  it("a copy that no longer reads is named in the report, by its entry and pointer", async () => {
    const project = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: project.config });
    const manifest = await readManifestJson(project.out);
    const broken = `${JSON.stringify({ openapi: "3.0.3", info: { title: "Signing", version: "1" } }, null, 2)}\n`;
    const text = `{\n  "signing": ${broken.trimEnd().replace(/\n/g, "\n  ")}\n}\n`;
    await writeFile(path.join(project.out, "descriptions.json"), text);
    defined(manifest.flows["signing"], "signing's entry").description = sha256(broken);
    manifest.descriptions = { "descriptions.json": sha256(text) };
    await writeManifestJson(project.out, manifest);

    await writeFile(path.join(project.dir, "flows/signing.yaml"), await readFile(V2));
    const result = await runCodegen({ configPath: project.config });
    expect(result.flows[0]?.changed?.lines).toEqual([
      expect.stringMatching(
        /^Signing: the description changed; the previous one \(\S+\/generated\/descriptions\.json, entry "signing"\) cannot be compared: #\S*: /,
      ),
    ]);
    expect(result.flows[0]?.changed?.lines[0]).not.toMatch(/descriptions\.json[^,]*:\d/);
  });

  it("a flow --flow leaves out in the earlier layout moves into descriptions.json, and its file goes", async () => {
    const project = await makeProject({ flows: ["signing", "aml-screening"] });
    await runCodegen({ configPath: project.config });
    await toEarlierLayout(project);

    await runCodegen({ configPath: project.config, flows: ["signing"] });
    const aml = await normalised(project, "aml-screening");
    expect(await copyIn(project.out, "aml-screening")).toBe(aml);
    const after = await readManifestJson(project.out);
    expect(after.flows["aml-screening"]?.description).toBe(sha256(aml));
    expect(Object.keys(after.flows["aml-screening"]?.files ?? {})).toEqual(["aml-screening/index.ts"]);
    expect([...(await snapshot(project.out)).keys()]).toEqual([
      ".flowsmith-manifest.json",
      "aml-screening/index.ts",
      "descriptions.json",
      "index.ts",
      "signing/index.ts",
    ]);
  });

  it("one of the user's own at its path stops the write, which names it and changes nothing", async () => {
    const project = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: project.config });
    const manifest = await readManifestJson(project.out);
    delete manifest.descriptions;
    await writeManifestJson(project.out, manifest);
    await writeFile(path.join(project.out, "descriptions.json"), "mine\n");
    const before = await snapshot(project.out);
    const error = await runCodegen({ configPath: project.config, force: true }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: "OUTPUT_CONFLICT" });
    expect((error as Error).message).toMatch(
      /would replace \S+\/descriptions\.json, which it did not write; move it out of outputDir and run again/,
    );
    expect(await snapshot(project.out)).toEqual(before);
  });

  it("a run that fails after it began streaming leaves no staging folder and no open file", async () => {
    const project = await makeProject({ flows: ["signing", "aml-screening"] });
    await writeFile(path.join(project.dir, "flows/aml-screening.yaml"), "openapi: 3.0.3\ninfo: {}\n");
    const open = readdirSync("/proc/self/fd").length;
    await expect(runCodegen({ configPath: project.config })).rejects.toMatchObject({ code: "INVALID_OPENAPI" });
    expect(readdirSync("/proc/self/fd").length).toBe(open);
    expect(await besideOutput(project)).toEqual([]);
    expect(await readdir(project.dir)).not.toContain("generated");
  });

  it("keeps the config's order in the text, names that read as numbers too", async () => {
    const project = await makeProject({ flows: ["signing"] });
    await writeConfig(project.config, {
      outputDir: "generated",
      flows: [
        { name: "b-signing", source: { file: "flows/signing.yaml" } },
        { name: "2024", source: { file: "flows/aml-screening.yaml" } },
      ],
    });
    await runCodegen({ configPath: project.config });
    const text = await readFile(path.join(project.out, "descriptions.json"), "utf8");
    expect(text.indexOf('\n  "b-signing": {')).toBeGreaterThan(0);
    expect(text.indexOf('\n  "2024": {')).toBeGreaterThan(text.indexOf('\n  "b-signing": {'));
    expect(await copyIn(project.out, "2024")).toBe(await normalised(project, "aml-screening"));
    expect((await runCodegen({ configPath: project.config, check: true })).changes).toEqual([]);
  });
});
