/**
 * The pipeline end to end on real files: golden output, determinism, reuse,
 * --flow, and that a failed run leaves outputDir untouched.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { CodegenError } from "../../generator/errors";
import { listRelativeFiles } from "../../generator/output/file-tree";
import { runCodegen, type Progress } from "../../generator/pipeline";
import { makeProject, removeProjects, REPO, SAMPLES, snapshot, writeConfig } from "./codegen-project";

afterAll(removeProjects);

describe("runCodegen", () => {
  it("reproduces the committed generated/ byte for byte (golden), the manifest included", async () => {
    const { config, out } = await makeProject();
    await runCodegen({ configPath: config, force: true });
    const want = await snapshot(path.join(REPO, "generated"));
    const got = await snapshot(out);
    expect([...got.keys()]).toEqual([...want.keys()]);
    for (const [file, content] of want) {
      // The committed manifest may carry another build's fingerprint (any edit to generator/ changes it).
      const strip = (text: string | undefined) => text?.replace(/"fingerprint": "[0-9a-f]+"/, "");
      expect({ file, content: strip(got.get(file)) }).toEqual({ file, content: strip(content) });
    }
  });

  it("emits modules that import only the runtime's flow-module and pattern entries and each other (no require: ESM-safe), and name npx flowsmith codegen", async () => {
    const files = await snapshot(path.join(REPO, "generated"));
    for (const [file, content] of files) {
      if (!file.endsWith(".ts")) continue;
      expect({ file, require: content.includes("require(") }).toEqual({ file, require: false });
      expect(content.split("\n")[0]).toContain("Do not edit: run `npx flowsmith codegen`.");
      // `from "x"` and the side-effect `import "x"` alike.
      const specifiers = [...content.matchAll(/^(?:import\b[^"]*|export\b[^"=]*\bfrom )"([^"]+)";$/gm)].map(
        (match) => match[1],
      );
      expect(specifiers.length).toBeGreaterThan(0);
      for (const specifier of specifiers)
        expect(specifier).toMatch(/^(@flowsmith\/runtime\/(flow-module|patterns)|\.\/[a-z-]+\/index\.js)$/);
    }
  });

  it("is deterministic and a write reuses unchanged flows; --force and --check regenerate", async () => {
    const { config, out } = await makeProject();
    const first = await runCodegen({ configPath: config });
    expect(first.flows.map((flow) => [flow.name, flow.status])).toEqual(SAMPLES.map((name) => [name, "generated"]));
    const before = await snapshot(out);

    const second = await runCodegen({ configPath: config });
    expect(second.flows.map((flow) => flow.status)).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect(second.changes).toEqual([]);
    expect(await snapshot(out)).toEqual(before);

    const forced = await runCodegen({ configPath: config, force: true });
    expect(forced.flows.map((flow) => flow.status)).toEqual(["generated", "generated", "generated"]);
    const checked = await runCodegen({ configPath: config, check: true });
    expect(checked.flows.map((flow) => flow.status)).toEqual(["checked", "checked", "checked"]);
    expect(await snapshot(out)).toEqual(before);
  });

  it("reports each flow with id, version and environment, and progress per flow in config order", async () => {
    const { config } = await makeProject({ flows: ["signing", "aml-screening"] });
    const progress: Progress[] = [];
    const result = await runCodegen({ configPath: config, onProgress: (step) => progress.push(step) });
    expect(result.flows.map((flow) => `${flow.name} ${flow.id} v${flow.version} ${flow.environment}`)).toEqual([
      "signing 6f1c2a9e-3b7d-4e58-9c41-0a2d7e5b8f13 v1 staging",
      "aml-screening a41f0c6d-5e2b-47c9-8d13-b9e60f27c8a5 v7 staging",
    ]);
    expect(progress).toEqual([
      { done: 1, total: 2, flow: "signing" },
      { done: 2, total: 2, flow: "aml-screening" },
    ]);
  });

  it("patterns the linear-time engine cannot run are left to the service: the flow is generated and its report names each (issue 31)", async () => {
    const { dir, config } = await makeProject({ flows: ["aml-screening"] });
    const description = path.join(dir, "flows/aml-screening.yaml");
    const yaml = await readFile(description, "utf8");
    const withPattern = (text: string, field: string, pattern: string) => {
      const at = `        ${field}:\n          type: string\n`;
      expect(text).toContain(at);
      return text.replace(at, () => `${at}          pattern: '${pattern}'\n`);
    };
    let edited = withPattern(yaml, "givenName", "^(?=.*[A-Za-z]).+$");
    edited = withPattern(edited, "birthPlace", "^(\\w)\\1*$");
    edited = withPattern(edited, "familyName", "^[A-Za-z ]+$");
    await writeFile(description, edited);

    const result = await runCodegen({ configPath: config });
    const [flow] = result.flows;
    expect(flow?.status).toBe("generated");
    const pointer = (field: string) => `#/components/schemas/BasicIdentity/properties/${field}/pattern`;
    expect(flow?.leftToService).toEqual([
      {
        field: "request.input.basicIdentity.givenName",
        pointer: pointer("givenName"),
        pattern: "^(?=.*[A-Za-z]).+$",
        reason: "a lookahead ((?= or (?!)",
      },
      {
        field: "request.input.basicIdentity.birthPlace",
        pointer: pointer("birthPlace"),
        pattern: "^(\\w)\\1*$",
        reason: "a backreference (\\1)",
      },
    ]);
    // --check regenerates, so it reports them too; a write that reuses the flow regenerates nothing and has nothing to report.
    expect((await runCodegen({ configPath: config, check: true })).flows[0]?.leftToService).toEqual(
      flow?.leftToService,
    );
    const reused = await runCodegen({ configPath: config });
    expect(reused.flows.map((each) => [each.status, each.leftToService])).toEqual([["unchanged", undefined]]);
  });

  it("a failed run leaves outputDir exactly as it was, and no staging folder", async () => {
    const { root, dir, config, out } = await makeProject();
    await runCodegen({ configPath: config });
    const before = await snapshot(out);
    // signing is fine and comes first; the broken second flow must stop the whole set.
    await writeFile(path.join(dir, "flows/document-verification.yaml"), "openapi: 3.0.3\ninfo: [unclosed\n");
    const error = await runCodegen({ configPath: config, force: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CodegenError);
    expect((error as CodegenError).message).toMatch(
      /^flow "document-verification": flows\/document-verification\.yaml/,
    );
    expect(await snapshot(out)).toEqual(before);
    expect((await listRelativeFiles(root)).filter((file) => file.includes(".flowsmith-"))).toEqual([
      "project/generated/.flowsmith-manifest.json",
    ]);
  });

  it("--flow regenerates only the named flows and keeps the others' files", async () => {
    const { dir, config, out } = await makeProject();
    await runCodegen({ configPath: config });
    const kept = await readFile(path.join(out, "document-verification/index.ts"), "utf8");
    await writeFile(path.join(dir, "flows/document-verification.yaml"), "not: [valid\n");
    const result = await runCodegen({ configPath: config, flows: ["signing"], force: true });
    expect(result.flows.map((flow) => [flow.name, flow.status])).toEqual([["signing", "generated"]]);
    expect(await readFile(path.join(out, "document-verification/index.ts"), "utf8")).toBe(kept);
    expect((await runCodegen({ configPath: config, flows: ["signing"], check: true })).changes).toEqual([]);

    const error = await runCodegen({ configPath: config, flows: ["nope"] }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "UNKNOWN_FLOW" });
    expect((error as Error).message).toMatch(
      /--flow nope: no such flow \(known: signing, document-verification, aml-screening\)/,
    );
  });

  it("--flow accepts the name derived from a title on a first run, and leaves the other flows for later", async () => {
    const { config, out } = await makeProject({ named: false });
    const result = await runCodegen({ configPath: config, flows: ["aml-screening"] });
    expect(result.flows.map((flow) => flow.name)).toEqual(["aml-screening"]);
    expect(result.notGenerated).toEqual(["#/flows/0", "#/flows/1"]);
    expect(await listRelativeFiles(out)).toEqual([
      ".flowsmith-manifest.json",
      "aml-screening/index.ts",
      "descriptions.json",
      "index.ts",
    ]);
    // The next full run adds the others and keeps the first one's files.
    const full = await runCodegen({ configPath: config });
    expect(full.flows.map((flow) => [flow.name, flow.status])).toEqual([
      ["signing", "generated"],
      ["bank-account-and-address-check", "generated"],
      ["aml-screening", "unchanged"],
    ]);
  });

  it("refuses two flows that end up with the same name", async () => {
    const { config } = await makeProject();
    await writeConfig(config, {
      flows: [
        { source: { file: "flows/signing.yaml" } },
        { name: "signing", source: { file: "flows/aml-screening.yaml" } },
      ],
    });
    const error = await runCodegen({ configPath: config }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "DUPLICATE_FLOW_NAME" });
    expect((error as Error).message).toMatch(/#\/flows\/0 and #\/flows\/1/);
  });

  it("names the config entry of a folder where the snapshot goes", async () => {
    const { config } = await makeProject();
    await mkdir(path.join(path.dirname(config), "flows", "x.json"));
    await writeConfig(config, {
      flows: [{ name: "x", source: { api: { flowId: "f-1", environment: "staging", snapshot: "flows/x.json" } } }],
    });
    const error = await runCodegen({ configPath: config }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "SNAPSHOT_MISSING" });
    expect((error as Error).message).toMatch(
      /#\/flows\/0\/source\/api: the snapshot path flows\/x\.json is a folder; "snapshot" names a \.json file/,
    );
  });

  it.each([
    [
      "a missing description",
      { source: { file: "flows/nope.yaml" } },
      "SOURCE_NOT_FOUND",
      /#\/flows\/0\/source\/file: flow description not found: flows\/nope\.yaml/,
    ],
    [
      "a folder named as the description",
      { source: { file: "flows" } },
      "SOURCE_NOT_FOUND",
      /#\/flows\/0\/source\/file: flows is a folder; "file" names one description file/,
    ],
    // A device is read until it ends: /dev/zero never does (the run hung, its memory growing).
    [
      "a device named as the description",
      { source: { file: "/dev/zero" } },
      "SOURCE_NOT_FOUND",
      /#\/flows\/0\/source\/file: \S*dev\/zero is not a regular file \(a device, a pipe or a socket\)/,
    ],
  ])("names the config entry of %s", async (_name, flow, code, message) => {
    const { config } = await makeProject();
    await writeConfig(config, { flows: [{ name: "x", ...flow }] });
    const error = await runCodegen({ configPath: config }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code });
    expect((error as Error).message).toMatch(message);
  });
});
