/**
 * read/, model/ and emit/, loaded on first use: they load YAML, ts-morph
 * with its TypeScript, and ajv on a validator cache miss, so a run whose
 * flows are all reused (and --help) never pays for them (as
 * output/description-copy.ts loads the reader and changes/ only for a
 * changed description).
 */
let steps: Promise<GenerationSteps> | undefined;

type GenerationSteps = typeof import("../read/load-description.js") &
  typeof import("../model/build-flow-model.js") &
  typeof import("../model/closed-data-blocks.js") &
  typeof import("../emit/emit-flow.js") &
  typeof import("../emit/emit-index.js");

export function generationSteps(): Promise<GenerationSteps> {
  steps ??= Promise.all([
    import("../read/load-description.js"),
    import("../model/build-flow-model.js"),
    import("../model/closed-data-blocks.js"),
    import("../emit/emit-flow.js"),
    import("../emit/emit-index.js"),
  ]).then(([read, model, closed, emitFlow, emitIndex]) => ({ ...read, ...model, ...closed, ...emitFlow, ...emitIndex }));
  return steps;
}
