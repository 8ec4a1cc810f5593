import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { loadConfigOrThrow } from "../../generator/config/load-config";
import { CodegenError } from "../../generator/errors";

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
    expect(config.runtimeImport).toBe("@flowsmith/runtime");
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
    ["unknown top-level key", { given: { flows: [fileFlow], outDir: "x" }, code: "CONFIG_INVALID", message: /unknown key "outDir"/, pointer: "#" }],
    ["unknown flow key", { given: { flows: [{ ...fileFlow, nmae: "x" }] }, code: "CONFIG_INVALID", message: /unknown key "nmae"/, pointer: "#/flows/0" }],
    ["wrong type", { given: { outputDir: 3, flows: [fileFlow] }, code: "CONFIG_INVALID", message: /"outputDir" must be a string/, pointer: "#/outputDir" }],
    ["no flows", { given: { flows: [] }, code: "CONFIG_INVALID", message: /at least one flow/ }],
    ["missing flows", { given: {}, code: "CONFIG_INVALID", message: /missing required key "flows"/ }],
    ["bad name", { given: { flows: [{ ...fileFlow, name: "Signing Flow" }] }, code: "CONFIG_INVALID", message: /"name" must be lower-case/, pointer: "#/flows/0/name" }],
    ["bad environment", { given: { flows: [{ source: { api: { flowId: "f", environment: "prod" } } }] }, code: "CONFIG_INVALID", message: /"environment" must be one of "staging", "live"/, pointer: "#/flows/0/source/api/environment" }],
    ["unknown source key", { given: { flows: [{ source: { file: "a.yaml", url: "x" } }] }, code: "CONFIG_INVALID", message: /unknown key "url"/, pointer: "#/flows/0/source" }],
    ["duplicate names", { given: { flows: [fileFlow, fileFlow] }, code: "DUPLICATE_NAME", message: /"signing" is also used by #\/flows\/0/, pointer: "#/flows/1/name" }],
    ["not JSON", { given: '{ "flows": [ }', code: "CONFIG_INVALID", message: /not valid JSON/ }],
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

  it("a JSON fault names its line and column, also when Node's message gives no position", async () => {
    for (const [given, where] of [['{\n  "flows": [\n', { line: 3, column: 1 }], ['{\n  "outputDir": "g",\n  // a comment\n  "flows": []\n}', { line: 3, column: 3 }]] as const) {
      const error = (await loadConfigOrThrow(await configFile(given)).catch((caught: unknown) => caught)) as CodegenError;
      expect(error).toMatchObject({ code: "CONFIG_INVALID", context: { line: where.line } });
      expect(error.message).toContain(`:${String(where.line)}: not valid JSON (column ${String(where.column)})`);
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
