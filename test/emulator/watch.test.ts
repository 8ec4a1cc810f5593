/**
 * `watch: true` through startEmulator, on real files: what a checkout or an
 * editor does to a description (delete it, write it again later) is seen,
 * however long the file was gone. Waits are for chokidar's events, bounded
 * by jest's timeout.
 */
import { spawn } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "@jest/globals";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import type { Reload } from "../../emulator/options.js";

const REPO = path.join(__dirname, "..", "..");
const AML_YAML = readFileSync(path.join(REPO, "flows", "aml-screening.yaml"), "utf8");
const SIGNING_YAML = readFileSync(path.join(REPO, "flows", "signing.yaml"), "utf8");
const DOCS_YAML = readFileSync(path.join(REPO, "flows", "document-verification.yaml"), "utf8");
const AML_ID = "a41f0c6d-5e2b-47c9-8d13-b9e60f27c8a5";
const versioned = (version: number): string =>
  AML_YAML.replace('version: "7"', `version: "${String(version)}"`).replace(
    "x-flow-version: 7",
    `x-flow-version: ${String(version)}`,
  );

/** The reloads as they come, each handed out once to the first waiter whose test it passes. */
class Reloads {
  private readonly seen: Reload[] = [];
  private waiters: (() => void)[] = [];

  readonly onReload = (reload: Reload): void => {
    this.seen.push(reload);
    for (const wake of this.waiters.splice(0)) wake();
  };

  async next(matches: (reload: Reload) => boolean): Promise<Reload> {
    for (;;) {
      const index = this.seen.findIndex(matches);
      if (index !== -1) return this.seen.splice(0, index + 1)[index]!;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

const published =
  (version: number) =>
  (reload: Reload): boolean =>
    reload.ok &&
    reload.changes.some(
      (change) => change.flowId === AML_ID && change.change === "changed" && change.version === version,
    );

describe("startEmulator({ watch: true })", () => {
  let dir: string;
  let emulator: RunningEmulator;
  const reloads = new Reloads();
  const writeConfig = (names: readonly string[]): void => {
    writeFileSync(
      path.join(dir, "codegen.config.json"),
      JSON.stringify({
        outputDir: "out",
        flows: names.map((name) => ({ name, source: { file: `flows/${name}.yaml` } })),
      }),
    );
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "flowsmith-watch-"));
    mkdirSync(path.join(dir, "flows"));
    writeFileSync(path.join(dir, "flows", "aml.yaml"), AML_YAML);
    writeFileSync(path.join(dir, "flows", "signing.yaml"), SIGNING_YAML);
    // In the folder from the start, but named by the config only later.
    writeFileSync(path.join(dir, "flows", "docs.yaml"), DOCS_YAML);
    writeConfig(["aml", "signing"]);
    emulator = await startEmulator({
      configPath: path.join(dir, "codegen.config.json"),
      watch: true,
      onReload: reloads.onReload,
    });
  });
  afterAll(async () => {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a description deleted, then written again, is read again, and so are its later edits", async () => {
    unlinkSync(path.join(dir, "flows", "aml.yaml"));
    const refused = await reloads.next((reload) => !reload.ok);
    expect(!refused.ok && refused.failed).toBe("reload");
    expect(!refused.ok && refused.error.message).toMatch(/aml\.yaml/);
    // The refusal came from chokidar's unlink, which it reports only once the file stayed gone
    // longer than an editor's atomic save: it has let go of the file.
    writeFileSync(path.join(dir, "flows", "aml.yaml"), versioned(8));
    await reloads.next(published(8));
    writeFileSync(path.join(dir, "flows", "aml.yaml"), versioned(9));
    await reloads.next(published(9));
  });

  test("a folder of descriptions taken away and brought back (a checkout) is watched again, with its files", async () => {
    renameSync(path.join(dir, "flows"), path.join(dir, "away"));
    await reloads.next((reload) => !reload.ok);
    writeFileSync(path.join(dir, "away", "aml.yaml"), versioned(10));
    renameSync(path.join(dir, "away"), path.join(dir, "flows"));
    await reloads.next(published(10));
    writeFileSync(path.join(dir, "flows", "aml.yaml"), versioned(11));
    await reloads.next(published(11));
  });

  test("a file already in a watched folder, once the config names it, is watched: its edits are published", async () => {
    writeConfig(["aml", "signing", "docs"]);
    await reloads.next((reload) => reload.ok && reload.changes.some((change) => change.change === "added"));
    writeFileSync(
      path.join(dir, "flows", "docs.yaml"),
      DOCS_YAML.replace(/^(\s*)title: .*$/m, "$1title: Documents, edited"),
    );
    const edited = await reloads.next(
      (reload) => reload.ok && reload.changes.some((change) => change.change === "changed"),
    );
    expect(
      edited.ok && edited.changes.filter((change) => change.change === "changed").map((change) => change.flowId),
    ).toEqual([/x-flow-id: (\S+)/.exec(DOCS_YAML)?.[1]]);
  });
});

test("a folder the watcher may not list is the watcher failing, not a refused reload: the flows stay served", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "flowsmith-watch-locked-"));
  mkdirSync(path.join(dir, "flows"));
  writeFileSync(path.join(dir, "flows", "aml.yaml"), AML_YAML);
  writeFileSync(
    path.join(dir, "codegen.config.json"),
    JSON.stringify({ outputDir: "out", flows: [{ name: "aml", source: { file: "flows/aml.yaml" } }] }),
  );
  // The folder can be passed through (its description read by path), not listed; root lists any folder, so the
  // emulator runs as nobody, for whom the mode holds (as in codegen-watch.test.ts).
  chmodSync(path.join(dir, "flows"), 0o311);
  chmodSync(dir, 0o755);
  const script = [
    `const { startEmulator } = require(${JSON.stringify(path.join(REPO, "dist", "emulator", "index.js"))});`,
    "const onReload = (reload) => console.log(JSON.stringify({ ok: reload.ok, failed: reload.failed, message: reload.error && reload.error.message }));",
    "startEmulator({ configPath: process.argv[1], watch: true, onReload }).then(async (emulator) => {",
    "  const { clientId, clientSecret } = emulator.clients.staging;",
    "  const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });",
    "  const token = await (await fetch(`${emulator.authUrl}/oidc/token`, { method: 'POST', body })).json();",
    "  const listed = await (await fetch(`${emulator.baseUrl}/api/v1/flows/staging`, { headers: { authorization: `Bearer ${token.access_token}` } })).json();",
    "  console.log(JSON.stringify({ served: listed.flows.map((flow) => flow.id) }));",
    "});",
  ].join("\n");
  const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const child = spawn(process.execPath, ["-e", script, path.join(dir, "codegen.config.json")], {
    ...asNobody,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let printed = "";
  try {
    const lines = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const read = (chunk: Buffer): void => {
        printed += chunk.toString("utf8");
        const parsed = printed
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        if (parsed.some((line) => "served" in line) && parsed.some((line) => line["failed"] === "watch"))
          resolve(parsed);
      };
      child.stdout.on("data", read);
      child.stderr.on("data", (chunk: Buffer) => {
        printed += chunk.toString("utf8");
      });
      child.once("exit", (code) => {
        reject(new Error(`the emulator exited (${String(code)}); printed:\n${printed}`));
      });
    });
    expect(lines.find((line) => line["failed"] === "watch")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/EACCES/),
    });
    expect(lines.filter((line) => line["failed"] === "reload")).toEqual([]);
    expect(lines.find((line) => "served" in line)).toEqual({ served: [AML_ID] });
  } finally {
    child.kill("SIGKILL");
    chmodSync(path.join(dir, "flows"), 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});
