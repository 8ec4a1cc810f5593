/** The CLI edge, run as a user runs it: a child process of the built bin. */
import { execFile } from "node:child_process";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const repo = path.resolve(__dirname, "../..");
const bin = path.join(repo, "bin/flowsmith.js");
const run = promisify(execFile);

async function flowsmith(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "flowsmith-cli-"));
  await cp(path.join(repo, "flows"), path.join(dir, "flows"), { recursive: true });
  await writeFile(
    path.join(dir, "codegen.config.json"),
    JSON.stringify({ runtimeImport: "../../runtime/index.js", flows: [{ name: "signing", source: { file: "flows/signing.yaml" } }] }),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("flowsmith codegen (CLI)", () => {
  it("prints one line per flow and exits 0; --check then passes; a stale file exits 1", async () => {
    const first = await flowsmith(["codegen"], dir);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/signing\s+6f1c2a9e-3b7d-4e58-9c41-0a2d7e5b8f13\s+v1\s+staging\s+→ generated\/signing\s+generated in \d+ ms/);

    const check = await flowsmith(["codegen", "--check"], dir);
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/up to date/);

    await writeFile(path.join(dir, "generated/signing/index.ts"), "// stale\n");
    const stale = await flowsmith(["codegen", "--check"], dir);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/changed\s+generated\/signing\/index\.ts/);
  });

  it("exits 1 with the error code and the place for bad input", async () => {
    const missing = await flowsmith(["codegen", "--config", "nope.json"], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/error CONFIG_NOT_FOUND: nope\.json/);

    const unknownFlag = await flowsmith(["codegen", "--chek"], dir);
    expect(unknownFlag.code).toBe(1);
    expect(unknownFlag.stderr).toMatch(/--chek/);

    const badWorkers = await flowsmith(["codegen", "--workers", "two"], dir);
    expect(badWorkers.code).toBe(1);
    expect(badWorkers.stderr).toMatch(/--workers must be a whole number from 0, got "two"/);

    const unknownCommand = await flowsmith(["generate"], dir);
    expect(unknownCommand.code).toBe(1);
    expect(unknownCommand.stderr).toMatch(/unknown command "generate"/);
  });
});
