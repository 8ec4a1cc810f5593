import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { loadConfigOrThrow } from "../../generator/config/load-config";
import { CodegenError } from "../../generator/errors";
import { runCodegen } from "../../generator/pipeline";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "flowsmith-config-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function configFile(content: unknown): Promise<string> {
  const file = path.join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

const fileFlow = { name: "signing", source: { file: "flows/signing.yaml" } };

describe("loadConfigOrThrow", () => {
  it("applies defaults and resolves paths against the config's folder", async () => {
    const config = await loadConfigOrThrow(await configFile({ flows: [fileFlow] }));
    expect(config.outputDir).toBe(path.join(dir, "generated"));
    expect(config.runtimeImport).toBe("@flowsmith/runtime/flow-module");
    expect(config.flows[0]).toMatchObject({ name: "signing", pointer: "#/flows/0" });
    expect(config.flows[0]!.source).toMatchObject({ kind: "file", path: path.join(dir, "flows/signing.yaml") });
  });

  it("keeps an api source as given", async () => {
    const config = await loadConfigOrThrow(
      await configFile({ flows: [{ source: { api: { flowId: "f-1", environment: "live" } } }] }),
    );
    expect(config.flows[0]!.source).toEqual({
      kind: "api",
      flowId: "f-1",
      environment: "live",
      snapshot: { path: path.join(dir, "flows/f-1-live.json"), display: "flows/f-1-live.json" },
    });
  });

  const bad: [string, { given: unknown; code: string; message: RegExp; pointer?: string }][] = [
    [
      "unknown top-level key",
      {
        given: { flows: [fileFlow], outDir: "x" },
        code: "CONFIG_INVALID",
        message: /unknown key "outDir" \(did you mean "outputDir"\?\)/,
        pointer: "#",
      },
    ],
    [
      "a key in the wrong case",
      {
        given: { flows: [fileFlow], outputdir: "x" },
        code: "CONFIG_INVALID",
        message: /unknown key "outputdir" \(did you mean "outputDir"\?\)/,
        pointer: "#",
      },
    ],
    [
      "unknown flow key",
      {
        given: { flows: [{ ...fileFlow, nmae: "x" }] },
        code: "CONFIG_INVALID",
        message: /unknown key "nmae" \(did you mean "name"\?\)/,
        pointer: "#/flows/0",
      },
    ],
    [
      "a misspelt required key",
      {
        given: { flows: [{ sorce: { file: "a.yaml" } }] },
        code: "CONFIG_INVALID",
        message: /unknown key "sorce" \(did you mean "source"\?\); "source" is missing/,
        pointer: "#/flows/0",
      },
    ],
    [
      "an unknown key like none",
      {
        given: { flows: [fileFlow], zzzzzz: 1 },
        code: "CONFIG_INVALID",
        message:
          /unknown key "zzzzzz" \(known keys here: \$schema, outputDir, runtimeImport, closedDataBlocks, service, flows\)/,
        pointer: "#",
      },
    ],
    [
      "wrong type",
      {
        given: { outputDir: 3, flows: [fileFlow] },
        code: "CONFIG_INVALID",
        message: /"outputDir" must be a string/,
        pointer: "#/outputDir",
      },
    ],
    [
      "no flows",
      {
        given: { flows: [] },
        code: "CONFIG_INVALID",
        message: /"flows" must list at least one flow: `npx flowsmith add/,
        pointer: "#/flows",
      },
    ],
    [
      "a __proto__ key",
      {
        given: '{ "flows": [], "__proto__": { "outputDir": "x" } }',
        code: "CONFIG_INVALID",
        message: /:1:16: unknown key "__proto__"/,
      },
    ],
    ["missing flows", { given: {}, code: "CONFIG_INVALID", message: /missing required key "flows"/ }],
    [
      "bad name",
      {
        given: { flows: [{ ...fileFlow, name: "Signing Flow" }] },
        code: "CONFIG_INVALID",
        message: /"name" must be lower-case/,
        pointer: "#/flows/0/name",
      },
    ],
    [
      "bad environment",
      {
        given: { flows: [{ source: { api: { flowId: "f", environment: "prod" } } }] },
        code: "CONFIG_INVALID",
        message: /"environment" must be one of "staging", "live"/,
        pointer: "#/flows/0/source/api/environment",
      },
    ],
    [
      "both file and api",
      {
        given: { flows: [{ source: { file: "a.yaml", api: { flowId: "f", environment: "live" } } }] },
        code: "CONFIG_INVALID",
        message: /"source" takes "file" or "api", not both/,
        pointer: "#/flows/0/source",
      },
    ],
    [
      "unknown source key",
      {
        given: { flows: [{ source: { file: "a.yaml", url: "x" } }] },
        code: "CONFIG_INVALID",
        message: /unknown key "url"/,
        pointer: "#/flows/0/source",
      },
    ],
    [
      "duplicate names",
      {
        given: { flows: [fileFlow, fileFlow] },
        code: "DUPLICATE_FLOW_NAME",
        message: /"signing" is also used by #\/flows\/0/,
        pointer: "#/flows/1/name",
      },
    ],
    ["not JSON", { given: '{ "flows": [ }', code: "CONFIG_INVALID", message: /not valid JSON/ }],
    // Deeper than the parser's recursion could go: a message, not a stack overflow.
    [
      "nested 100000 levels deep",
      {
        given: `{ "flows": ${"[".repeat(100_000)}${"]".repeat(100_000)} }`,
        code: "CONFIG_INVALID",
        message: /:1:75: nested more than 64 levels deep here/,
      },
    ],
  ];

  it.each(bad)("%s → a CodegenError naming the key", async (_name, { given, code, message, pointer }) => {
    const file = await configFile(given);
    const error = await loadConfigOrThrow(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CodegenError);
    expect((error as CodegenError).code).toBe(code);
    expect((error as CodegenError).message).toMatch(message);
    if (pointer) expect((error as CodegenError).context.pointer).toBe(pointer);
    expect((error as CodegenError).message).toContain(path.basename(file));
  });

  it("a JSON fault names its line and column, and what is wrong", async () => {
    const cases = [
      ['{\n  "flows": [\n', { line: 3, column: 1, says: "a closing ] was expected" }],
      ['{\n  "outputDir": "g"\n  "flows": []\n}', { line: 3, column: 3, says: "a comma was expected" }],
      ['{\n  "flows": [] }\n}', { line: 3, column: 1, says: "nothing may follow the closing }" }],
    ] as const;
    for (const [given, where] of cases) {
      const error = (await loadConfigOrThrow(await configFile(given)).catch(
        (caught: unknown) => caught,
      )) as CodegenError;
      expect(error).toMatchObject({ code: "CONFIG_INVALID", context: { line: where.line, column: where.column } });
      expect(error.message).toContain(
        `:${String(where.line)}:${String(where.column)}: not valid JSON (comments and trailing commas are allowed): ${where.says}`,
      );
    }
  });

  it("reads comments and trailing commas (JSONC), and names the line and column of a schema error", async () => {
    const text =
      '{\n  // where the clients go\n  "outputDir": "out", /* beside src */\n  "flows": [\n    { "name": "signing", "source": { "file": "flows/signing.yaml" } },\n  ],\n}\n';
    const config = await loadConfigOrThrow(await configFile(text));
    expect(config.outputDir).toBe(path.join(dir, "out"));
    expect(config.lineOfOrUndefined("#/flows/0/name")).toBe(5);
    const misspelt = text.replace('"outputDir"', '"outputdir"');
    const error = (await loadConfigOrThrow(await configFile(misspelt)).catch(
      (caught: unknown) => caught,
    )) as CodegenError;
    expect(error.message).toMatch(/config-\w+\.json:3:3 #: unknown key "outputdir" \(did you mean "outputDir"\?\)$/);
    const wrongType = text.replace('"flows/signing.yaml"', "7");
    const typed = (await loadConfigOrThrow(await configFile(wrongType)).catch(
      (caught: unknown) => caught,
    )) as CodegenError;
    expect(typed.message).toMatch(/:5:46 #\/flows\/0\/source\/file: "file" must be a string$/);
    const snapshot = text.replace(
      '{ "file": "flows/signing.yaml" }',
      '{ "api": { "flowId": "f", "environment": "live", "snapshot": "x.yaml" } }',
    );
    const resolved = (await loadConfigOrThrow(await configFile(snapshot)).catch(
      (caught: unknown) => caught,
    )) as CodegenError;
    expect(resolved.message).toMatch(/:5:\d+ #\/flows\/0\/source\/api\/snapshot: "snapshot" must name a \.json file/);
  });

  it("a later step's error about a key of the config names its line and column too", async () => {
    const file = await configFile(
      '{\n  "outputDir": "out-missing",\n  "flows": [\n    { "source": { "file": "flows/missing.yaml" } }\n  ]\n}\n',
    );
    const error = (await runCodegen({ configPath: file }).catch((caught: unknown) => caught)) as CodegenError;
    expect(error).toMatchObject({ code: "SOURCE_NOT_FOUND", context: { line: 4, column: 27 } });
    expect(error.message).toMatch(
      /\.json:4:27 #\/flows\/0\/source\/file: flow description not found: flows\/missing\.yaml$/,
    );
  });

  it("is found in the working directory or the nearest folder above it", async () => {
    const project = await mkdtemp(path.join(dir, "project-"));
    await writeFile(path.join(project, "codegen.config.json"), JSON.stringify({ flows: [fileFlow] }));
    const deep = path.join(project, "src", "app");
    await mkdir(deep, { recursive: true });
    const cwd = process.cwd();
    try {
      process.chdir(deep);
      const config = await loadConfigOrThrow();
      expect(config.configPath).toBe(path.join(project, "codegen.config.json"));
      expect(config.outputDir).toBe(path.join(project, "generated"));
      process.chdir(await mkdtemp(path.join(os.tmpdir(), "flowsmith-no-config-")));
      const error = await loadConfigOrThrow().catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "CONFIG_NOT_FOUND" });
      expect((error as Error).message).toMatch(
        /no codegen\.config\.json in \S+ or any folder above it; run `npx flowsmith init` to create one, or pass --config <path>/,
      );
    } finally {
      process.chdir(cwd);
    }
  });

  it("says an empty config file is empty, and what it needs", async () => {
    for (const given of ["", "\uFEFF", " \n\t\n"]) {
      const error = await loadConfigOrThrow(await configFile(given)).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "CONFIG_INVALID" });
      expect((error as Error).message).toMatch(/the config file is empty: write at least \{ "outputDir"/);
    }
  });

  it("reads a config saved with a byte order mark", async () => {
    const config = await loadConfigOrThrow(await configFile(`\uFEFF${JSON.stringify({ flows: [fileFlow] })}`));
    expect(config.flows).toHaveLength(1);
  });

  it("reports a missing config file with a hint", async () => {
    const error = await loadConfigOrThrow(path.join(dir, "nope.json")).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "CONFIG_NOT_FOUND" });
    expect((error as Error).message).toMatch(/--config/);
  });
});
