/**
 * The command line: the dispatcher's main() in this process (each child
 * process pays a second or more to load the emitter), and the built bin
 * (bin/flowsmith.js → dist/cli/main.js) as a user runs it where that
 * matters. Exit codes are the same for every command: 0 success, 1 failure
 * or out-of-date output, 2 usage error.
 */
import { spawn } from "node:child_process";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { main } from "../../cli/main";
import { flowsmith, makeProject, removeProjects, REPO, type CliRun } from "./codegen-project";

afterAll(removeProjects);

/** main() with its output captured; `cwd` is where a user would run it. */
async function cli(args: string[], cwd = REPO, env?: Record<string, string>): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const io = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    ...(env ? { env } : {}),
  };
  const was = process.cwd();
  process.chdir(cwd);
  try {
    return { code: await main(args, io), signal: null, stdout, stderr };
  } finally {
    process.chdir(was);
  }
}

describe("flowsmith (the dispatcher)", () => {
  it("--version names flowsmith's and the runtime's versions (the built bin)", async () => {
    const { version } = JSON.parse(await readFile(path.join(REPO, "package.json"), "utf8")) as { version: string };
    const { version: runtime } = JSON.parse(await readFile(path.join(REPO, "runtime/package.json"), "utf8")) as {
      version: string;
    };
    const run = await flowsmith(["--version"]);
    expect(run).toMatchObject({ code: 0, stdout: `flowsmith ${version} (@flowsmith/runtime ${runtime})\n` });
  });

  it.each<[string, string[], { code: number; out: "stdout" | "stderr"; says: RegExp }]>([
    [
      "no command",
      [],
      { code: 2, out: "stderr", says: /Usage: flowsmith <command>[\s\S]*codegen[\s\S]*emulator[\s\S]*diff/ },
    ],
    [
      "--help",
      ["--help"],
      {
        code: 0,
        out: "stdout",
        says: /Usage: flowsmith <command>[\s\S]*Exit codes: 0 success, 1 failure or out-of-date output, 2 usage error/,
      },
    ],
    ["help codegen", ["help", "codegen"], { code: 0, out: "stdout", says: /Usage: flowsmith codegen/ }],
    ["an unknown command", ["generate"], { code: 2, out: "stderr", says: /unknown command "generate"/ }],
    ["codegen --help", ["codegen", "--help"], { code: 0, out: "stdout", says: /Usage: flowsmith codegen \[options\]/ }],
    [
      "emulator --help",
      ["emulator", "--help"],
      { code: 0, out: "stdout", says: /Usage: flowsmith emulator \[options\]/ },
    ],
    ["diff --help", ["diff", "--help"], { code: 0, out: "stdout", says: /Usage: flowsmith diff <old> <new>/ }],
    [
      "diff with one description",
      ["diff", "flows/signing.yaml"],
      { code: 2, out: "stderr", says: /expected two description files/ },
    ],
    [
      "codegen with an unknown option",
      ["codegen", "--chek"],
      { code: 2, out: "stderr", says: /--chek[\s\S]*flowsmith codegen --help/ },
    ],
    [
      "emulator with an unknown option",
      ["emulator", "--prot", "1"],
      { code: 2, out: "stderr", says: /--prot[\s\S]*flowsmith emulator --help/ },
    ],
    [
      "emulator with a bad value",
      ["emulator", "--api-port", "x"],
      { code: 2, out: "stderr", says: /--api-port must be a whole number/ },
    ],
  ])("%s", async (_name, args, { code, out, says }) => {
    const run = await cli(args);
    expect(run.code).toBe(code);
    expect(run[out]).toMatch(says);
  });

  it.each<[string, { given: string[]; want: RegExp }]>([
    [
      "a mistyped command",
      {
        given: ["codgen"],
        want: /^flowsmith: unknown command "codgen" \(did you mean "codegen"\?\)\n\nUsage: flowsmith <command>/,
      },
    ],
    [
      "two letters swapped",
      { given: ["emualtor"], want: /^flowsmith: unknown command "emualtor" \(did you mean "emulator"\?\)\n/ },
    ],
    [
      "a command cut short",
      { given: ["dif", "a.yaml", "b.yaml"], want: /^flowsmith: unknown command "dif" \(did you mean "diff"\?\)\n/ },
    ],
    [
      "help for a mistyped command",
      { given: ["help", "inti"], want: /^flowsmith: unknown command "inti" \(did you mean "init"\?\)\n/ },
    ],
    ["a command like none", { given: ["generate"], want: /^flowsmith: unknown command "generate"\n\nUsage:/ }],
    [
      "a mistyped option",
      {
        given: ["codegen", "--chek"],
        want: /^flowsmith codegen: Unknown option '--chek' \(did you mean --check\?\)\nRun `flowsmith codegen --help`/,
      },
    ],
    [
      "a mistyped option of a command taking positionals",
      {
        given: ["add", "x", "--enviroment", "live"],
        want: /^flowsmith add: Unknown option '--enviroment' \(did you mean --environment\?\)\. To specify a positional/,
      },
    ],
    [
      "a mistyped emulator option",
      {
        given: ["emulator", "--api-prot", "1"],
        want: /^flowsmith emulator: Unknown option '--api-prot' \(did you mean --api-port\?\)\n/,
      },
    ],
    ["an option like none", { given: ["flows", "--zzz"], want: /^flowsmith flows: Unknown option '--zzz'\nRun/ }],
  ])("did you mean: %s (usage error, exit 2)", async (_name, { given, want }) => {
    const run = await cli(given, REPO, {});
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toMatch(want);
  });

  it("a reader that goes away (| head -1) ends the printing, not the run: exit 0, output written, no EPIPE trace (the built bin)", async () => {
    const project = await makeProject({ flows: ["signing"] });
    const child = spawn(
      process.execPath,
      [path.join(REPO, "bin/flowsmith.js"), "codegen", "--config", project.config],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    // Closed before the first line is printed: every write to stdout meets a closed pipe.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    expect(stderr).not.toMatch(/EPIPE|unexpected error|Unhandled/);
    expect(code).toBe(0);
    expect(await readdir(project.out)).toEqual(expect.arrayContaining(["signing", "index.ts"]));
  });

  it.each(["codegen", "init", "add", "flows", "diff", "emulator"].map((command) => [command]))(
    "%s --help describes every option the command parses, and only those",
    async (command) => {
      const help = await cli([command, "--help"]);
      expect(help.code).toBe(0);
      // Read from the module's source, as parseArgs gets them: a flag added without a help line fails here.
      const source = await readFile(path.join(REPO, `cli/commands/${command}.ts`), "utf8");
      const parsed = [...source.matchAll(/"?([a-z][a-z-]*)"?: \{\s*type: "(?:string|boolean)"/g)].map(
        (match) => `--${match[1] ?? ""}`,
      );
      expect(parsed.length).toBeGreaterThan(0);
      const described = [...help.stdout.matchAll(/^ {2}(?:-h, )?(--[a-z-]+)/gm)].map((match) => match[1]);
      expect(described.sort()).toEqual([...parsed, "--help"].sort());
      for (const option of parsed)
        expect(help.stdout).toMatch(new RegExp(`^ {2}${option}( <[^>]+>)?( +\\S|\\n {10,}\\S)`, "m"));
      // -h and --help are the dispatcher's alone: no command parses them.
      expect(source).not.toMatch(/help: \{ type|short: "h"/);
      expect((await cli([command, "-h"])).stdout).toBe(help.stdout);
    },
  );

  it("only the dispatcher imports the emulator, and the emulator reads the generator only through generator/index.ts", async () => {
    const offenders: string[] = [];
    for (const folder of ["generator", "runtime"]) {
      for (const file of await sources(path.join(REPO, folder))) {
        if (/from "(\.\.\/)+emulator\/|import\("(\.\.\/)+emulator\//.test(await readFile(file, "utf8")))
          offenders.push(path.relative(REPO, file));
      }
    }
    for (const file of await sources(path.join(REPO, "emulator"))) {
      for (const match of (await readFile(file, "utf8")).matchAll(/from "((?:\.\.\/)+generator\/[^"]+)"/g)) {
        const specifier = match[1] ?? "";
        if (!specifier.endsWith("generator/index.js")) offenders.push(`${path.relative(REPO, file)} → ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe("every command's errors: one line with the code, one exit code per meaning (reportError, usageError)", () => {
  const COMMANDS = ["codegen", "init", "add", "flows", "diff", "emulator"] as const;

  it.each(COMMANDS.map((command) => [command]))(
    "%s: an unknown option is a usage error (exit 2) naming its --help",
    async (command) => {
      const run = await cli([command, "--nope"], REPO, {});
      expect(run.code).toBe(2);
      // parseArgs's message, on one line (longer for a command taking positionals), then where the options are.
      expect(run.stderr).toMatch(
        new RegExp(
          `^flowsmith ${command}: Unknown option '--nope'.*\nRun \`flowsmith ${command} --help\` for the options\\.\n$`,
        ),
      );
    },
  );

  // cwd: "project" (flows/ and a config), "no config" (flows/ alone), "empty" (nothing). No FLOWSMITH_* variable is set.
  it.each<[string, string[], "project" | "no config" | "empty", number, RegExp]>([
    ["codegen: no config", ["codegen"], "empty", 1, /^flowsmith: error CONFIG_NOT_FOUND: /],
    ["codegen --watch: no config", ["codegen", "--watch"], "empty", 1, /^flowsmith: error CONFIG_NOT_FOUND: /],
    [
      "codegen: an unknown --flow",
      ["codegen", "--flow", "nope"],
      "project",
      2,
      /^flowsmith: error UNKNOWN_FLOW: codegen.config.json: --flow nope: no such flow/,
    ],
    [
      "init: an unknown --flow",
      ["init", "--flow", "nope"],
      "no config",
      2,
      /^flowsmith: error UNKNOWN_FLOW: --flow nope: no such flow/,
    ],
    [
      "init: nothing to start from",
      ["init", "--yes"],
      "empty",
      1,
      /^flowsmith: error NO_FLOWS_FOUND: no flow description found/,
    ],
    [
      "init --from-api: no API client",
      ["init", "--yes", "--from-api"],
      "empty",
      1,
      /^flowsmith: error CREDENTIALS_MISSING: no API client is set/,
    ],
    [
      "add: no service",
      ["add", "a-flow-id", "--environment", "staging"],
      "project",
      1,
      /^flowsmith: error SERVICE_NOT_CONFIGURED: /,
    ],
    [
      "flows: no API client",
      ["flows"],
      "project",
      1,
      /^flowsmith: error CREDENTIALS_MISSING: no API client is set: set FLOWSMITH_STAGING_CLIENT_ID/,
    ],
    [
      "diff: a missing description",
      ["diff", "flows/signing.yaml", "flows/nope.yaml"],
      "project",
      1,
      /^flowsmith: error SOURCE_NOT_FOUND: flows\/nope\.yaml/,
    ],
    [
      "emulator: no config",
      ["emulator", "--config", "missing.json"],
      "empty",
      1,
      /^flowsmith: error CONFIG_NOT_FOUND: /,
    ],
  ])("%s", async (_name, args, where, code, says) => {
    const project = await makeProject({ flows: ["signing"] });
    if (where === "no config") await rm(project.config);
    if (where === "empty") await rm(project.dir, { recursive: true });
    const run = await cli(args, where === "empty" ? project.root : project.dir, {});
    expect(run.stderr).toMatch(says);
    expect(run.stderr).not.toMatch(/unexpected error/);
    expect(run.code).toBe(code);
  });
});

describe("flowsmith codegen (CLI)", () => {
  it("prints flow lines once the outcome is known: generated, unchanged, checked; a stale file exits 1", async () => {
    const { dir } = await makeProject({ flows: ["signing"], runtimeImport: "@flowsmith/runtime/flow-module" });
    const first = await flowsmith(["codegen"], { cwd: dir }); // the built bin, as users run it
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /signing\s+6f1c2a9e-3b7d-4e58-9c41-0a2d7e5b8f13\s+v1\s+staging\s+→ generated\/signing\s+generated in \d+ ms/,
    );
    // The flow's index.ts, descriptions.json, index.ts and the manifest: no validator file beside the module.
    expect(first.stdout).toMatch(/Wrote generated\/ \(4 file\(s\) changed\)/);

    const again = await cli(["codegen"], dir);
    expect(again.stdout).toMatch(/generated\/signing\s+unchanged\n[\s\S]*already up to date; nothing written/);

    const check = await cli(["codegen", "--check"], dir);
    expect(check).toMatchObject({ code: 0 });
    expect(check.stdout).toMatch(/generated\/signing\s+checked in \d+ ms\n[\s\S]*generated\/ is up to date/);
    expect(check.stdout).not.toMatch(/generated in/);

    const manifestFile = path.join(dir, "generated/.flowsmith-manifest.json");
    const manifest = await readFile(manifestFile, "utf8");
    await writeFile(manifestFile, manifest.replace(/"flowsmith": "[^"]+"/, '"flowsmith": "0.0.9"'));
    const otherVersion = await cli(["codegen", "--check"], dir);
    expect(otherVersion.code).toBe(0);
    expect(otherVersion.stdout).toMatch(
      /note: generated\/\.flowsmith-manifest\.json was written by flowsmith 0\.0\.9 \(@flowsmith\/runtime [^)]+\); this is flowsmith [^.]+\.[^.]+\.[^ ]+ .*the check passes/,
    );

    // A description changed since the output was written: stale.
    const description = path.join(dir, "flows/signing.yaml");
    await writeFile(
      description,
      (await readFile(description, "utf8")).replace("summary: Create a session", "summary: Start a session"),
    );
    const stale = await cli(["codegen", "--check"], dir);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/changed\s+generated\/signing\/index\.ts/);
    expect(stale.stderr).toContain("Run `npx flowsmith codegen` and commit the result.");
    expect(stale.stderr).not.toMatch(/npm run/);

    // A generated file edited by hand: the check says a write refuses it, and how to go on.
    await writeFile(path.join(dir, "generated/index.ts"), "// mine\n");
    const edited = await cli(["codegen", "--check"], dir);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain(
      "generated/index.ts: edited by hand, so `npx flowsmith codegen` refuses to replace it; move the change out of generated/, or discard it with `npx flowsmith codegen --force`",
    );
  });

  it("a run that fails prints no flow as generated, and exits 1 with the code and the place", async () => {
    const { dir } = await makeProject({ flows: ["signing", "aml-screening"] });
    await writeFile(path.join(dir, "flows/aml-screening.yaml"), "openapi: 3.0.3\ninfo: [unclosed\n");
    const failed = await cli(["codegen"], dir);
    expect(failed.code).toBe(1);
    expect(failed.stdout).not.toMatch(/generated/);
    expect(failed.stderr).toMatch(
      /flowsmith: error SYNTAX_ERROR: flow "aml-screening": flows\/aml-screening\.yaml:3: not valid YAML/,
    );

    const missing = await cli(["codegen", "--config", "nope.json"], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/error CONFIG_NOT_FOUND: nope\.json/);
  });

  it("a lookahead pattern (issue 31): the client is generated, and a note names the field and the reason; the pattern the engine runs is still checked", async () => {
    const { dir, out } = await makeProject({ flows: ["aml-screening"] });
    const description = path.join(dir, "flows/aml-screening.yaml");
    // "Not blank": a lookahead found in public schemas, which RE2 (the linear-time engine) cannot run.
    const lookahead = "^(?!\\s*$).+";
    const yaml = await readFile(description, "utf8");
    const identity =
      "        givenName:\n          type: string\n          maxLength: 150\n        familyName:\n          type: string\n          maxLength: 150\n";
    expect(yaml).toContain(identity);
    await writeFile(
      description,
      // A function, so the `$'` of the patterns is not read as a replacement pattern.
      yaml.replace(
        identity,
        () =>
          `        givenName:\n          type: string\n          maxLength: 150\n          pattern: '${lookahead}'\n        familyName:\n          type: string\n          maxLength: 150\n          pattern: '^[^0-9]*$'\n`,
      ),
    );

    const run = await cli(["codegen"], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /aml-screening\s+a41f0c6d-5e2b-47c9-8d13-b9e60f27c8a5\s+v7\s+staging\s+→ generated\/aml-screening\s+generated in \d+ ms/,
    );
    // Beside the progress line, one note: the field, the reason and the pattern's place in the description.
    const notes = (stderr: string) => stderr.split(/[\r\n]+/).filter((line) => line.startsWith("note:"));
    const note =
      "note: aml-screening: request.input.basicIdentity.givenName keeps its pattern unchecked on the client, and the service checks it: " +
      "a lookahead ((?= or (?!) (#/components/schemas/BasicIdentity/properties/givenName/pattern)";
    expect(notes(run.stderr)).toEqual([note]);
    expect(run.stderr).not.toMatch(/error|UNSUPPORTED_PATTERN/);
    // The module leaves the lookahead out of its request schema; the other pattern stays, and the engine is imported for it.
    const module = await readFile(path.join(out, "aml-screening/index.ts"), "utf8");
    const spec = module.slice(
      module.indexOf("export const spec"),
      module.indexOf("}`);", module.indexOf("export const spec")),
    );
    expect(spec).toContain('"request": {');
    expect(spec).not.toContain("(?!");
    expect(spec).toContain('"familyName": {"type": "string", "pattern": "^[^0-9]*$", "maxLength": 150}');
    expect(spec).toContain('"givenName": {"type": "string", "maxLength": 150}');
    expect(module).toContain('import "@flowsmith/runtime/patterns";');
    // The JSDoc still shows the whole pattern to the user, who must meet it for the service.
    expect(module).toContain(`@pattern ${lookahead}`);

    // A check regenerates the flow, so it says the same; a write that reuses the flow has nothing new to say.
    const check = await cli(["codegen", "--check"], dir);
    expect(check.code).toBe(0);
    expect(notes(check.stderr)).toEqual([note]);
    const again = await cli(["codegen"], dir);
    expect(again.code).toBe(0);
    expect(notes(again.stderr)).toEqual([]);
    expect(again.stdout).toMatch(/generated\/aml-screening\s+unchanged/);
  });

  it("an unknown --flow is a usage error (exit 2) naming the known flows", async () => {
    const { dir } = await makeProject({ flows: ["signing"] });
    const run = await cli(["codegen", "--flow", "signin"], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--flow signin: no such flow \(known: signing\)/);
  });
});

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.parentPath.includes(`${path.sep}dist`))
    .map((entry) => path.join(entry.parentPath, entry.name));
}
