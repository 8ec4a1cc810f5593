/**
 * Golden files: each sample description (through the real reader) and the
 * awkward hand-built model against its committed expected output in
 * test/fixtures/golden/. After an intended change to the output, refresh
 * them with `UPDATE_GOLDEN=1 npx jest test/generator/emit-golden` and review the diff.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { emitFlowOrThrow } from "../../generator/emit/emit-flow.js";
import { emitIndex } from "../../generator/emit/emit-index.js";
import type { EmittedFile } from "../../generator/emit/emitted-file.js";
import { buildFlowModelOrThrow } from "../../generator/model/build-flow-model.js";
import type { FlowModel } from "../../generator/model/types.js";
import { parseDescriptionOrThrow } from "../../generator/read/load-description.js";
import { REPO_ROOT } from "../fixtures/golden/compile.js";
import { SAMPLE_MODELS } from "../fixtures/golden/models.js";
import { odd } from "../fixtures/golden/odd-model.js";

const GOLDEN_DIR = join(REPO_ROOT, "test", "fixtures", "golden");
const UPDATE = process.env["UPDATE_GOLDEN"] === "1";
/** The repo's own codegen.config.json value (the default), so the sample goldens equal the committed generated/ files. */
const RUNTIME = { runtimeImport: "@flowsmith/runtime/flow-module" };

function readSample(model: FlowModel): FlowModel {
  const loaded = parseDescriptionOrThrow(readFileSync(join(REPO_ROOT, model.source.file)), model.source.file);
  return buildFlowModelOrThrow(loaded, { name: model.name });
}

function expectGolden(file: EmittedFile): void {
  const path = join(GOLDEN_DIR, ...`${file.path}.golden`.split("/"));
  if (UPDATE) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
  }
  expect(file.content).toBe(readFileSync(path, "utf8"));
}

describe("golden output", () => {
  test.each(SAMPLE_MODELS.map((m) => [m.source.file, m] as const))("%s", async (_, sample) => {
    const files = await emitFlowOrThrow(readSample(sample), RUNTIME);
    files.forEach(expectGolden);
  });

  test("a model with every awkward name and text", async () => {
    (await emitFlowOrThrow(odd, RUNTIME)).forEach(expectGolden);
  });

  test("index.ts of the samples", async () => {
    expectGolden(await emitIndex(SAMPLE_MODELS));
  });

  // The hand-built models stand in for the reader in emit.test.ts; this keeps them honest.
  test.each(SAMPLE_MODELS.map((m) => [m.name, m] as const))(
    "hand-built %s model emits what the reader's does",
    async (_, sample) => {
      const real = readSample(sample);
      const hand = await emitFlowOrThrow({ ...sample, source: real.source }, RUNTIME);
      expect(hand).toEqual(await emitFlowOrThrow(real, RUNTIME));
    },
  );
});
