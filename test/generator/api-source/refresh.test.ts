/**
 * The loop a team runs when the service moves a flow: the emulator serves
 * version 1 of Signing, the team generates and writes a backend against it;
 * the emulator restarts with version 2; `codegen --refresh` stores the new
 * snapshot, regenerates, and prints what changed, each change breaking or
 * compatible; the backend written for version 1 now fails tsc. The project
 * lives inside the repository so the generated code resolves the runtime
 * (test/fixtures/golden/compile.ts, as the changes track's consumer test).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cp, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { makeTempDir, removeDir, REPO_ROOT, runtimeImportFor, typeCheck } from "../../fixtures/golden/compile";
import { sha256 } from "../../../generator/output/manifest";
import { copyIn, readManifestJson, snapshot } from "../codegen-project";
import { cli, SAMPLE_IDS, startService, type Service } from "./service";

const V1 = "flows/signing.yaml";
const V2 = "test/fixtures/changes/signing-v2.yaml";
const TEMPLATE = readFileSync(path.join(REPO_ROOT, "test/fixtures/changes/signing-consumer.ts.template"), "utf8");
const GOLDEN_REPORT = readFileSync(
  path.join(REPO_ROOT, "test/fixtures/changes/signing-v1-v2.txt.golden"),
  "utf8",
).trimEnd();

let dir: string;
let config: string;
let service: Service | undefined;

beforeAll(() => {
  dir = makeTempDir();
  config = path.join(dir, "codegen.config.json");
  writeFileSync(
    config,
    `${JSON.stringify({ outputDir: "out", runtimeImport: runtimeImportFor(path.join(dir, "out")), flows: [{ name: "signing", source: { api: SAMPLE_IDS.signing } }] }, null, 2)}\n`,
  );
  writeFileSync(path.join(dir, "consumer.ts"), TEMPLATE.replace("__FLOW_MODULE__", "./out/signing/index.js"));
});
afterAll(async () => {
  await service?.close();
  removeDir(dir);
});

async function serve(file: string): Promise<Record<string, string>> {
  await service?.close();
  service = await startService([file]);
  return service.env;
}

describe("codegen --refresh after the service moved a flow to a new version", () => {
  it("stores version 1 and generates (a backend written for it is kept beside, compiled below)", async () => {
    const env = await serve(V1);
    const first = await cli(["codegen", "--config", config], env);
    // (stderr may hold a progress line: a run past 2 s in a log prints one.)
    expect(first.code).toBe(0);
    expect(first.stderr).not.toMatch(/error/);
    expect(first.stdout).toMatch(/signing\s+6f1c2a9e-\S+\s+v1\s+staging\s+→ \S+\/out\/signing\s+generated/);
    expect(first.stdout).toContain("Wrote flows/signing.json (new snapshot: flow signing).");
    expect(first.stdout).not.toMatch(/breaking|compatible/);
    // One tsc program for both versions (each costs seconds): version 1's output and its consumer, copied aside.
    await cp(path.join(dir, "out"), path.join(dir, "out-v1"), { recursive: true });
    writeFileSync(path.join(dir, "consumer-v1.ts"), TEMPLATE.replace("__FLOW_MODULE__", "./out-v1/signing/index.js"));
  });

  it("without --refresh, a moved service changes nothing: the snapshot is what codegen reads", async () => {
    const env = await serve(V2);
    const before = await snapshot(dir);
    const run = await cli(["codegen", "--config", config, "--check"], env);
    expect(run.code).toBe(0);
    expect(await snapshot(dir)).toEqual(before);
  });

  it("--check --refresh tells CI the service moved, with the report, and writes nothing", async () => {
    const before = await snapshot(dir);
    const run = await cli(["codegen", "--config", config, "--check", "--refresh"], service?.env ?? {});
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "1 snapshot(s) differ from what the service publishes now:\n  changed  flows/signing.json (snapshot changed: flow signing)",
    );
    expect(run.stderr).toContain(
      `The description of signing changed since ${path.relative(process.cwd(), dir)}/out/ was generated:\n${GOLDEN_REPORT}`,
    );
    expect(run.stderr).toContain("Run `npx flowsmith codegen --refresh` and commit the result.");
    expect(await snapshot(dir)).toEqual(before);
  });

  it("--refresh stores version 2, regenerates, and prints per flow what changed, breaking or compatible", async () => {
    const run = await cli(["codegen", "--config", config, "--refresh"], service?.env ?? {});
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/error/);
    expect(run.stdout).toMatch(/signing\s+6f1c2a9e-\S+\s+v2\s+staging\s+→ \S+\/out\/signing\s+generated/);
    // The report is the one `flowsmith diff` gives for the same two descriptions.
    expect(run.stdout).toContain(`\n\n${GOLDEN_REPORT}\n\nBreaking changes in signing:`);
    expect(run.stdout).toContain("Wrote flows/signing.json (snapshot changed: flow signing).");

    const stored = JSON.parse(await readFile(path.join(dir, "flows/signing.json"), "utf8")) as {
      info: { "x-flow-version": number };
    };
    expect(stored.info["x-flow-version"]).toBe(2);
    const snapshotText = await readFile(path.join(dir, "flows/signing.json"), "utf8");
    expect(await copyIn(path.join(dir, "out"), "signing")).toBe(snapshotText);
    const manifest = await readManifestJson(path.join(dir, "out"));
    expect(manifest.flows["signing"]?.description).toBe(sha256(snapshotText));
  });

  it("the backend written for version 1 compiled against version 1, and now fails tsc", () => {
    const errors = typeCheck([path.join(dir, "consumer-v1.ts"), path.join(dir, "consumer.ts")]);
    expect(errors.filter((error) => error.includes("consumer-v1.ts:"))).toEqual([]);
    expect(errors.filter((error) => error.includes("/consumer.ts:")).length).toBeGreaterThanOrEqual(5);
    expect(errors.every((error) => error.includes("consumer"))).toBe(true);
  });

  it("the next run reports nothing: the output now comes from version 2", async () => {
    const run = await cli(["codegen", "--config", config, "--refresh"], service?.env ?? {});
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/signing\s+.*\s+v2\s+.*unchanged/);
    expect(run.stdout).not.toMatch(/breaking|Wrote flows/);
  });

  it("an edited description file is reported too (not only a refresh), in codegen and --check", async () => {
    // The snapshot moved back to version 1 by hand (say, a revert): the output is version 2's.
    const v1 = (await cli(["codegen", "--config", config], {})).code;
    expect(v1).toBe(0);
    const snapshotFile = path.join(dir, "flows/signing.json");
    const v2Text = await readFile(snapshotFile, "utf8");
    await writeFile(snapshotFile, await copyIn(path.join(REPO_ROOT, "generated"), "signing"));
    const check = await cli(["codegen", "--config", config, "--check"], {});
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(
      /The description of signing changed since \S+ was generated:\nSigning \(flow 6f1c\S+, staging\) v2 → v1: \d+ breaking, \d+ compatible/,
    );
    const write = await cli(["codegen", "--config", config], {});
    expect(write.stdout).toMatch(/\n\nSigning \(flow 6f1c\S+, staging\) v2 → v1: /);
    await writeFile(snapshotFile, v2Text);
  });
});
