/**
 * Codegen of one description in this process, as the pipeline runs it for a
 * flow (read → model → emit), with the outcome classified: generated files,
 * a refusal (a CodegenError), or a crash (anything else).
 */
import { emitFlowOrThrow } from "../../generator/emit/emit-flow.js";
import type { EmittedFile } from "../../generator/emit/emitted-file.js";
import { CodegenError } from "../../generator/errors.js";
import { buildFlowModelOrThrow } from "../../generator/model/build-flow-model.js";
import type { FlowModel } from "../../generator/model/types.js";
import { parseDescriptionOrThrow } from "../../generator/read/load-description.js";

export type Outcome =
  | { readonly kind: "generated"; readonly model: FlowModel; readonly files: readonly EmittedFile[] }
  | { readonly kind: "refused"; readonly error: CodegenError }
  | { readonly kind: "crashed"; readonly error: unknown };

export async function runCodegen(text: string, display: string, runtimeImport: string): Promise<Outcome> {
  try {
    const model = buildFlowModelOrThrow(parseDescriptionOrThrow(text, display));
    return { kind: "generated", model, files: await emitFlowOrThrow(model, { runtimeImport }) };
  } catch (error) {
    return error instanceof CodegenError ? { kind: "refused", error } : { kind: "crashed", error };
  }
}
