/** `<outputDir>/index.ts`: one export per flow; it depends only on the flow names. */
import { sha256, type ManifestIndex } from "../output/manifest.js";
import type { PlannedFiles } from "../output/output-plan.js";
import { generationSteps } from "./generation-steps.js";
import { reusableIndexOrUndefined } from "./reuse.js";
import type { Run } from "./run-context.js";

export async function generateIndexOrThrow(names: readonly string[], run: Run): Promise<PlannedFiles<ManifestIndex>> {
  const sorted = [...names].sort();
  const inputsHash = sha256(sorted.join("\n"));
  const kept = await reusableIndexOrUndefined(inputsHash, run);
  if (kept) return { kind: "kept", entry: kept };
  const file = await (await generationSteps()).emitIndex(sorted.map((name) => ({ name })));
  return {
    kind: "written",
    entry: { inputsHash, files: { [file.path]: sha256(file.content) } },
    files: new Map([[file.path, file.content]]),
  };
}
