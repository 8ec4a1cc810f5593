/**
 * `closedDataBlocks`: a JSON data block whose description allows extra keys
 * is typed with an index signature by default, so a misspelt field compiles
 * and goes out; with the option it is a tsc error in a literal, and the
 * validator refuses it in any value before anything is sent. The emulator
 * answers as the service does: it accepts the extra key either way.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startEmulator } from "../../emulator/index";
import { runCodegen } from "../../generator/pipeline";
import { createClient, type Client } from "../../runtime/index";
import { makeTempDir, removeDir, REPO_ROOT, runtimeImportFor, typeCheck } from "../fixtures/golden/compile";

let dir: string;
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let client: Client<"staging">;

interface GeneratedFlow {
  createSession(
    client: Client<"staging">,
    request: unknown,
  ): Promise<{ readonly sessionContext: { readonly sessionId: string } }>;
}

/** aml-screening with open objects: `input` and BasicIdentity without `additionalProperties: false`, plus a free-form block. */
function openDescription(): string {
  const text = readFileSync(path.join(REPO_ROOT, "flows/aml-screening.yaml"), "utf8")
    .replace(
      "          required: [basicIdentity]\n          additionalProperties: false\n",
      "          required: [basicIdentity]\n",
    )
    .replace(
      "      required: [givenName, familyName, birthDate]\n      additionalProperties: false\n",
      "      required: [givenName, familyName, birthDate]\n",
    )
    .replace(
      "            basicIdentity:\n",
      "            extras:\n              type: object\n            scores:\n              type: object\n              additionalProperties:\n                type: number\n            basicIdentity:\n",
    );
  expect(text).not.toMatch(/required: \[givenName, familyName, birthDate\]\n\s+additionalProperties/);
  return text;
}

const CONSUMER = (flow: string, expectError: boolean) => `import { createSession } from "./${flow}/aml/index.js";
import type { Client } from "RUNTIME";
export function call(client: Client<"staging">) {
  const metadata = { subjectId: "x" };
  ${expectError ? "// @ts-expect-error brithDate is not a field of BasicIdentity" : ""}
  void createSession(client, { input: { basicIdentity: { givenName: "A", familyName: "B", birthDate: "2000-01-01", brithDate: "2000-01-01" } }, metadata });
  // Still open: a block without properties, and a map whose values have a schema.
  void createSession(client, { input: { basicIdentity: { givenName: "A", familyName: "B", birthDate: "2000-01-01" }, extras: { any: 1 }, scores: { a: 1 } }, metadata });
}
`;

beforeAll(async () => {
  dir = makeTempDir();
  writeFileSync(path.join(dir, "aml.yaml"), openDescription());
  for (const closed of [false, true]) {
    const name = closed ? "closed" : "open";
    const config = {
      outputDir: name,
      runtimeImport: runtimeImportFor(path.join(dir, name)),
      ...(closed ? { closedDataBlocks: true } : {}),
      flows: [{ name: "aml", source: { file: "aml.yaml" } }],
    };
    writeFileSync(path.join(dir, `${name}.config.json`), JSON.stringify(config));
    await runCodegen({ configPath: path.join(dir, `${name}.config.json`) });
  }
  emulator = await startEmulator({ configPath: path.join(dir, "open.config.json"), createdMs: 50, stepMs: 50 });
  client = createClient({
    baseUrl: emulator.baseUrl,
    authUrl: emulator.authUrl,
    environment: "staging",
    ...emulator.clients.staging,
    userAgent: "closed-blocks/1",
  });
}, 60_000);

afterAll(async () => {
  await client.close();
  await emulator.close();
  removeDir(dir);
});

it("types a misspelt field as an error only with closedDataBlocks; free-form blocks and typed maps stay open", () => {
  const runtime = path.relative(dir, path.join(REPO_ROOT, "runtime/index.js")).split(path.sep).join("/");
  // One program for both (a type check is the costly part); the open consumer has no @ts-expect-error.
  const files = (
    [
      ["open", false],
      ["closed", true],
    ] as const
  ).map(([flow, expectError]) => {
    const file = path.join(dir, `${flow}-consumer.ts`);
    writeFileSync(file, CONSUMER(flow, expectError).replace("RUNTIME", runtime));
    return file;
  });
  expect(typeCheck(files)).toEqual([]);
  const open = readFileSync(path.join(dir, "open/aml/index.ts"), "utf8");
  const closed = readFileSync(path.join(dir, "closed/aml/index.ts"), "utf8");
  const basicIdentity = (module: string) => /export interface BasicIdentity \{[^}]*\}/.exec(module)?.[0] ?? "";
  expect(basicIdentity(open)).toContain("[key: string]: unknown");
  expect(basicIdentity(closed)).not.toContain("[key: string]");
  expect(closed).toMatch(/export interface Scores \{\s*\[key: string\]: number;\s*\}/);
  expect(closed).toMatch(/export interface Extras \{\s*\[key: string\]: unknown;\s*\}/);
});

it("the closed validator refuses the extra key before sending; the open one sends it and the emulator, like the service, accepts it", async () => {
  const basicIdentity: Record<string, string> = {
    givenName: "A",
    familyName: "B",
    birthDate: "2000-01-01",
    brithDate: "2000-01-01",
  };
  const request = { input: { basicIdentity }, metadata: { subjectId: "x" } };
  const closed = jest.requireActual<GeneratedFlow>(path.join(dir, "closed/aml/index.ts"));
  const open = jest.requireActual<GeneratedFlow>(path.join(dir, "open/aml/index.ts"));
  const refused = await closed.createSession(client, request).catch((error: unknown) => error);
  expect(refused).toMatchObject({ name: "RequestValidationError", code: "VALIDATION_FAILED" });
  expect(JSON.stringify((refused as { issues: unknown }).issues)).toMatch(/input\.basicIdentity.*brithDate/);
  const created = await open.createSession(client, request);
  expect(created.sessionContext.sessionId).toEqual(expect.any(String));
});

it("the manifest's inputs hash follows the option, so turning it on regenerates", () => {
  const hash = (name: string) =>
    (
      JSON.parse(readFileSync(path.join(dir, name, ".flowsmith-manifest.json"), "utf8")) as {
        flows: { aml: { inputsHash: string } };
      }
    ).flows.aml.inputsHash;
  expect(hash("closed")).not.toBe(hash("open"));
});
