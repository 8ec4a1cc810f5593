/**
 * The emitter: a flow's model in, the files of its generated client out
 * (`<name>/index.ts` and `<name>/validate.ts`, byte-identical on every run).
 * Pure: the pipeline writes them.
 */
import type { FlowModel } from "../model/types.js";
import type { EmittedFile } from "./emitted-file.js";
import { flowModuleStatementsOrThrow } from "./flow-module.js";
import { flowHeader } from "./header.js";
import { moduleText } from "./module-text.js";
import { validatorSourceOrThrow, type ValidatorCache } from "./validator.js";

export interface EmitOptions {
  /** Module specifier of the runtime as seen from `<outputDir>/<name>/index.ts`. */
  readonly runtimeImport: string;
  /** Validators kept from earlier runs; without one, every validator is compiled. */
  readonly validatorCache?: ValidatorCache;
}

export async function emitFlowOrThrow(model: FlowModel, options: EmitOptions): Promise<EmittedFile[]> {
  const header = flowHeader(model.source);
  const statements = flowModuleStatementsOrThrow(model, options.runtimeImport);
  const validator = await validatorSourceOrThrow(model, options.runtimeImport, options.validatorCache);
  return [
    { path: `${model.name}/index.ts`, content: await moduleText(header, statements) },
    // ajv's code, indented by validator.ts; prettier over it cost more than all else.
    { path: `${model.name}/validate.ts`, content: `${header}// @ts-nocheck\n${validator}` },
  ];
}
