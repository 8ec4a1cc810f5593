/**
 * `flowsmith diff`: exit codes, usage errors, unreadable descriptions, and
 * the printed reports against golden files. The JSON report is taken from
 * the built bin run from the repository root, as a user runs it, so the
 * paths in it are stable; the text report names no file.
 * After an intended change to the output, refresh the goldens with
 * `UPDATE_GOLDEN=1 npx jest test/generator/changes/diff-command` and review the diff.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { run as runDiffCommand } from "../../../cli/commands/diff";
import { main } from "../../../cli/main";
import { runDiff } from "../../../generator/index";
import { REPO_ROOT } from "../../fixtures/golden/compile";

const run = promisify(execFile);
const UPDATE = process.env["UPDATE_GOLDEN"] === "1";
const V1 = "flows/signing.yaml";
const V2 = "test/fixtures/changes/signing-v2.yaml";
const COMPATIBLE = "test/fixtures/changes/signing-compatible.json";

async function flowsmith(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(REPO_ROOT, "bin/flowsmith.js"), ...args], {
      cwd: REPO_ROOT,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function diff(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runDiffCommand(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

function expectGolden(actual: string, name: string): void {
  const file = path.join(REPO_ROOT, "test/fixtures/changes", name);
  if (UPDATE) writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, "utf8"));
}

const abs = (file: string) => path.join(REPO_ROOT, file);

describe("flowsmith diff (the built CLI)", () => {
  it("prints stable JSON with --json", async () => {
    const result = await flowsmith(["diff", V1, V2, "--json"]);
    expect(result.code).toBe(1);
    expectGolden(result.stdout, "signing-v1-v2.json.golden");
    const document = JSON.parse(result.stdout) as { format: string; version: number; summary: unknown };
    expect(document).toMatchObject({
      format: "flowsmith-changes",
      version: 1,
      summary: { breaking: 7, compatible: 2 },
    });
  });

  it("exits 2 on a usage error", async () => {
    const result = await flowsmith(["diff", V1]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("expected two description files");
  });
});

describe("flowsmith diff (run, in this process)", () => {
  it("prints the changes per flow and exits 1 when one is breaking", async () => {
    const result = await diff(abs(V1), abs(V2));
    expect(result).toMatchObject({ code: 1, stderr: "" });
    expectGolden(result.stdout, "signing-v1-v2.txt.golden");
  });

  it("exits 0 when every change is compatible, reading a JSON description", async () => {
    const result = await diff(abs(V1), abs(COMPATIBLE));
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expectGolden(result.stdout, "signing-v1-compatible.txt.golden");
  });

  it("exits 0 with nothing to report for the same description", async () => {
    const result = await diff(abs(V1), abs(V1));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Signing \(flow 6f1c2a9e-3b7d-4e58-9c41-0a2d7e5b8f13, staging\) v1 → v1: 0 breaking, 0 compatible\n {2}no changes/,
    );
  });

  it("exits 0 on --json when nothing is breaking, 1 when something is", async () => {
    const compatible = await diff(abs(V1), abs(COMPATIBLE), "--json");
    expect(compatible.code).toBe(0);
    expect(JSON.parse(compatible.stdout)).toMatchObject({ summary: { breaking: 0, compatible: 3 } });
    const reversed = await diff("--json", abs(COMPATIBLE), abs(V1));
    expect(reversed.code).toBe(1);
  });

  test.each<[string, string[], RegExp]>([
    ["no arguments", [], /expected two description files, <old> and <new>; got 0/],
    ["one file", ["a.yaml"], /got 1/],
    ["three files", ["a.yaml", "b.yaml", "c.yaml"], /got 3/],
    ["an unknown option", ["a.yaml", "b.yaml", "--jsn"], /Unknown option '--jsn'/],
    ["a value for --json", ["a.yaml", "b.yaml", "--json=yes"], /--json/],
  ])("exits 2 naming --help on %s", async (_name, args, message) => {
    const result = await diff(...args);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/^flowsmith diff: .*\nRun `flowsmith diff --help` for the options\.\n$/);
  });

  test.each([["--help"], ["-h"]])("prints the usage on %s and exits 0 (the dispatcher's)", async (flag) => {
    let stdout = "";
    let stderr = "";
    const code = await main(["diff", flag], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
    });
    const result = { code, stdout, stderr };
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toContain("Exit codes: 0 nothing breaking, 1 something breaking");
  });

  it("exits 1 with the reader's error for a description that does not read", async () => {
    const missing = await diff(abs(V1), "nope.yaml");
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing.stderr).toBe(
      "flowsmith: error SOURCE_NOT_FOUND: nope.yaml: flow description not found: nope.yaml\n",
    );

    const swagger = await diff(abs("test/fixtures/descriptions/bad/swagger-2.yaml"), abs(V1));
    expect(swagger).toMatchObject({ code: 1, stdout: "" });
    expect(swagger.stderr).toMatch(/^flowsmith: error NOT_OPENAPI_3: \S*swagger-2\.yaml/);

    const mismatch = await diff(abs(V1), abs("test/fixtures/descriptions/bad/path-mismatch-id.yaml"));
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toMatch(/error PATH_MISMATCH: .*path-mismatch-id\.yaml:\d+ #\/paths/);
  });
});

describe("runDiff (the entry point the command prints)", () => {
  it.each<
    [
      string,
      {
        given: [string, string];
        want: { breaking: boolean; summary: { breaking: number; compatible: number }; header: RegExp };
      },
    ]
  >([
    [
      "a breaking change",
      {
        given: [V1, V2],
        want: {
          breaking: true,
          summary: { breaking: 7, compatible: 2 },
          header: /^Signing \(flow 6f1c\S+, staging\) v1 → v2: 7 breaking, 2 compatible$/,
        },
      },
    ],
    [
      "compatible changes only",
      {
        given: [V1, COMPATIBLE],
        want: { breaking: false, summary: { breaking: 0, compatible: 3 }, header: /: 0 breaking, 3 compatible$/ },
      },
    ],
    [
      "the same description",
      {
        given: [V1, V1],
        want: {
          breaking: false,
          summary: { breaking: 0, compatible: 0 },
          header: /v1 → v1: 0 breaking, 0 compatible$/,
        },
      },
    ],
  ])("%s", async (_name, { given, want }) => {
    const result = await runDiff(abs(given[0]), abs(given[1]));
    expect(result.breaking).toBe(want.breaking);
    expect(result.lines[0]).toMatch(want.header);
    expect(JSON.parse(result.json)).toMatchObject({ format: "flowsmith-changes", version: 1, summary: want.summary });
    expect(result.flows).toHaveLength(1);
  });

  it("throws the reader's CodegenError for a description that does not read", async () => {
    await expect(runDiff(abs(V1), "nope.yaml")).rejects.toMatchObject({
      name: "CodegenError",
      code: "SOURCE_NOT_FOUND",
    });
  });
});
