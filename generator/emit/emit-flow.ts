/**
 * The emitter: a flow's model in, the files of its generated client out
 * (`<name>/index.ts`, byte-identical on every run). Pure: the pipeline
 * writes them.
 */
import type { FlowModel } from "../model/types.js";
import type { EmittedFile } from "./emitted-file.js";
import { flowModuleStatementsOrThrow } from "./flow-module.js";
import { flowHeader } from "./header.js";
import { moduleText } from "./module-text.js";

export interface EmitOptions {
  /** Module specifier of the runtime's flow-module entry as seen from `<outputDir>/<name>/index.ts`. */
  readonly runtimeImport: string;
}

export async function emitFlowOrThrow(model: FlowModel, options: EmitOptions): Promise<EmittedFile[]> {
  const statements = flowModuleStatementsOrThrow(model, options.runtimeImport);
  return [{ path: `${model.name}/index.ts`, content: await moduleText(flowHeader(model.source), statements) }];
}
