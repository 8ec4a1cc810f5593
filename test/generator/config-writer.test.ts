/**
 * The one writer of codegen.config.json (generator/config/write-config.ts):
 * a new config's text, as `init` writes it and `add` starts it, read back by
 * the loader; and where its `$schema` points. Appending to a config a person
 * wrote (JSONC kept) is api-source/commands.test.ts's, through `add`.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { loadConfigOrThrow } from "../../generator/config/load-config";
import { DEFAULT_SCHEMA_PATH, newConfigText, schemaPathFor, type NewConfig } from "../../generator/config/write-config";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "flowsmith-config-writer-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const SCHEMA = "./node_modules/flowsmith/codegen.config.schema.json";
const API = { name: "signing", source: { api: { flowId: "6f1c", environment: "staging" as const } } };
const FILE = { name: "aml", source: { file: "flows/aml.yaml" } };

describe("newConfigText", () => {
  it.each<[string, { given: NewConfig; want: string }]>([
    [
      "no flows yet (add appends the first)",
      {
        given: { schema: SCHEMA, outputDir: "generated" },
        want: `{\n  "$schema": "${SCHEMA}",\n  "outputDir": "generated",\n  "flows": []\n}\n`,
      },
    ],
    [
      "flows, one a line",
      {
        given: { schema: SCHEMA, outputDir: "src/generated", flows: [FILE, API] },
        want:
          `{\n  "$schema": "${SCHEMA}",\n  "outputDir": "src/generated",\n  "flows": [\n` +
          `    { "name": "aml", "source": { "file": "flows/aml.yaml" } },\n` +
          `    { "name": "signing", "source": { "api": { "flowId": "6f1c", "environment": "staging" } } }\n  ]\n}\n`,
      },
    ],
    [
      "the service on one line",
      {
        given: {
          schema: "../node_modules/flowsmith/codegen.config.schema.json",
          outputDir: "clients",
          service: { baseUrl: "http://127.0.0.1:4010", authUrl: "http://127.0.0.1:4011" },
          flows: [API],
        },
        want:
          `{\n  "$schema": "../node_modules/flowsmith/codegen.config.schema.json",\n  "outputDir": "clients",\n` +
          `  "service": { "baseUrl": "http://127.0.0.1:4010", "authUrl": "http://127.0.0.1:4011" },\n  "flows": [\n` +
          `    { "name": "signing", "source": { "api": { "flowId": "6f1c", "environment": "staging" } } }\n  ]\n}\n`,
      },
    ],
    [
      "text that JSON escapes",
      {
        given: { schema: SCHEMA, outputDir: 'out "1"\\x', flows: [{ source: { file: "flows/a\u2028b.yaml" } }] },
        want: `{\n  "$schema": "${SCHEMA}",\n  "outputDir": "out \\"1\\"\\\\x",\n  "flows": [\n    { "source": { "file": "flows/a\u2028b.yaml" } }\n  ]\n}\n`,
      },
    ],
  ])("%s", async (_name, { given, want }) => {
    const text = newConfigText(given);
    expect(text).toBe(want);
    // What the loader reads back is what was given.
    const file = path.join(await mkdtemp(path.join(dir, "read-")), "codegen.config.json");
    await writeFile(file, text);
    const loaded = await loadConfigOrThrow(file, {}, { allowNoFlows: true });
    expect(loaded.outputDir).toBe(path.resolve(path.dirname(file), given.outputDir));
    expect(loaded.flows.map((flow) => flow.name)).toEqual((given.flows ?? []).map((flow) => flow.name));
    expect(loaded.service.baseUrl?.value).toBe(given.service?.baseUrl);
  });
});

describe("schemaPathFor: $schema of a new config", () => {
  it.each<[string, { given: { installedIn?: string; configIn: string }; want: string }]>([
    ["flowsmith installed nowhere above", { given: { configIn: "a" }, want: DEFAULT_SCHEMA_PATH }],
    [
      "flowsmith installed beside the config",
      { given: { installedIn: "b", configIn: "b" }, want: "./node_modules/flowsmith/codegen.config.schema.json" },
    ],
    [
      "flowsmith installed in a workspace above",
      {
        given: { installedIn: "c", configIn: "c/packages/api" },
        want: "../../node_modules/flowsmith/codegen.config.schema.json",
      },
    ],
  ])("%s", async (_name, { given, want }) => {
    const base = await mkdtemp(path.join(dir, "schema-"));
    await mkdir(path.join(base, given.configIn), { recursive: true });
    if (given.installedIn !== undefined) {
      await mkdir(path.join(base, given.installedIn, "node_modules/flowsmith"), { recursive: true });
      await writeFile(path.join(base, given.installedIn, "node_modules/flowsmith/codegen.config.schema.json"), "{}");
    }
    expect(await schemaPathFor(path.join(base, given.configIn))).toBe(want);
  });
});
