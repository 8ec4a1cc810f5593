/**
 * --check regenerates and compares bytes, always: it fails on output a
 * changed generator would change (a service constant the model reads), on
 * generated files edited together with the manifest, and passes, saying so,
 * when only the manifest's generator stamp differs.
 */
import { appendFile, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { sha256 } from "../../generator/output/manifest";
import { runCodegen } from "../../generator/pipeline";
import {
  defined,
  makeProject,
  readManifestJson,
  removeProjects,
  snapshot,
  writeManifestJson,
  type ManifestJson,
} from "./codegen-project";

afterAll(removeProjects);

const MANIFEST = ".flowsmith-manifest.json";

async function editManifest(out: string, edit: (manifest: ManifestJson) => void): Promise<void> {
  const manifest = await readManifestJson(out);
  edit(manifest);
  await writeManifestJson(out, manifest);
}

describe("codegen --check", () => {
  it("fails when a service constant the model reads changed, though no description did", async () => {
    const { config, out } = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: config });
    const before = await snapshot(out);
    // The generator as another version of the runtime would make it: a shorter `state`.
    let changes: readonly { path: string; reason: string }[] = [];
    await jest.isolateModulesAsync(async () => {
      // The model reads the constants from the runtime's service-limits entry.
      jest.doMock("@flowsmith/runtime/service-limits", () => ({
        ...jest.requireActual<object>("@flowsmith/runtime/service-limits"),
        MAX_STATE_LENGTH: 1024,
      }));
      const { runCodegen: runWithOtherConstant } = await import("../../generator/pipeline.js");
      changes = (await runWithOtherConstant({ configPath: config, check: true })).changes;
    });
    expect(changes.map((change) => `${change.reason} ${change.path}`)).toEqual([
      `changed ${MANIFEST}`,
      "changed signing/index.ts",
    ]);
    expect(await snapshot(out)).toEqual(before);
  });

  it("passes when the descriptions and the output were checked out with CRLF line endings (git autocrlf), writing nothing", async () => {
    const { config, dir, out } = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: config });
    const crlf = async (file: string) => writeFile(file, (await readFile(file, "utf8")).replace(/\n/g, "\r\n"));
    for (const file of [...(await snapshot(out)).keys()]) await crlf(path.join(out, file));
    const before = await snapshot(out);
    await crlf(path.join(dir, "flows/signing.yaml"));
    const check = await runCodegen({ configPath: config, check: true });
    expect(check.changes).toEqual([]);
    expect(await snapshot(out)).toEqual(before);
  });

  it("fails on generated files edited so that the manifest agrees with them, and says --force", async () => {
    const { config, out } = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: config });
    await appendFile(path.join(out, "signing/index.ts"), "export const injected = 1;\n");
    const edited = await readFile(path.join(out, "signing/index.ts"));
    await editManifest(out, (manifest) => {
      defined(manifest.flows["signing"], "signing").files["signing/index.ts"] = sha256(edited);
    });

    const check = await runCodegen({ configPath: config, check: true });
    expect(check.changes).toEqual([
      { path: MANIFEST, reason: "changed" },
      { path: "signing/index.ts", reason: "changed" },
    ]);
    expect(check.editedWithManifest).toEqual(["signing/index.ts"]);
    // A check's result and a write's are told apart by mode, each without the other's fields.
    expect(check.mode).toBe("check");
    // @ts-expect-error a check writes nothing, so it has no old files it could not match
    expect(check.unverified).toBeUndefined();
    // A write trusts the manifest and keeps the edit; --force regenerates, and the check passes again.
    const write = await runCodegen({ configPath: config });
    expect(write.mode).toBe("write");
    expect(write.changes).toEqual([]);
    // @ts-expect-error a write refuses files edited by hand (OUTPUT_EDITED) rather than listing them
    expect(write.editedByHand).toBeUndefined();
    expect((await runCodegen({ configPath: config, force: true })).changes).toEqual([
      { path: MANIFEST, reason: "changed" },
      { path: "signing/index.ts", reason: "changed" },
    ]);
    expect((await runCodegen({ configPath: config, check: true })).changes).toEqual([]);
  });

  it("passes, naming the other flowsmith, when only the manifest's generator stamp differs", async () => {
    const { config, out } = await makeProject({ flows: ["signing"] });
    await runCodegen({ configPath: config });
    await editManifest(out, (manifest) => {
      manifest.generator = { flowsmith: "0.0.9", runtime: "0.0.8", fingerprint: "f".repeat(64) };
    });
    const check = await runCodegen({ configPath: config, check: true });
    expect(check.changes).toEqual([]);
    expect(check.otherGenerator).toEqual({
      generator: { flowsmith: "0.0.9", runtime: "0.0.8", fingerprint: "f".repeat(64) },
    });

    // A generated file differing too: the manifest counts as changed, and no note claims every file identical.
    await appendFile(path.join(out, "signing/index.ts"), "// edited\n");
    const both = await runCodegen({ configPath: config, check: true });
    expect(both.changes).toEqual([
      { path: MANIFEST, reason: "changed" },
      { path: "signing/index.ts", reason: "changed" },
    ]);
    expect(both.otherGenerator).toBeUndefined();
    await runCodegen({ configPath: config, force: true });
    await editManifest(out, (manifest) => {
      manifest.generator = { flowsmith: "0.0.9", runtime: "0.0.8", fingerprint: "f".repeat(64) };
    });

    // Anything else in the manifest differing fails as before.
    await editManifest(out, (manifest) => {
      defined(manifest.flows["signing"], "signing").version = 2;
    });
    expect((await runCodegen({ configPath: config, check: true })).changes).toEqual([
      { path: MANIFEST, reason: "changed" },
    ]);

    // A write under another stamp reuses nothing: it regenerates and restamps.
    const write = await runCodegen({ configPath: config });
    expect(write.flows.map((flow) => flow.status)).toEqual(["generated"]);
    expect(write.changes).toEqual([{ path: MANIFEST, reason: "changed" }]);
    const { version } = JSON.parse(await readFile(path.resolve(__dirname, "../../package.json"), "utf8")) as {
      version: string;
    };
    expect((await readManifestJson(out)).generator?.flowsmith).toBe(version);
  });
});
