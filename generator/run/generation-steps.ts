/**
 * read/, model/ and emit/, loaded on first use: they load YAML and ts-morph
 * with its TypeScript, so a run whose
 * flows are all reused (and --help) never pays for them (as
 * output/description-copies.ts loads the reader and changes/ only for a
 * changed description).
 */
let steps: Promise<GenerationSteps> | undefined;

type GenerationSteps = typeof import("../read/load-description.js") &
  typeof import("../model/build-flow-model.js") &
  typeof import("../model/closed-data-blocks.js") &
  typeof import("../model/patterns-left.js") &
  typeof import("../emit/emit-flow.js") &
  typeof import("../emit/emit-index.js");

export function generationSteps(): Promise<GenerationSteps> {
  steps ??= Promise.all([
    import("../read/load-description.js"),
    import("../model/build-flow-model.js"),
    import("../model/closed-data-blocks.js"),
    import("../model/patterns-left.js"),
    import("../emit/emit-flow.js"),
    import("../emit/emit-index.js"),
  ]).then(([read, model, closed, patterns, emitFlow, emitIndex]) => ({
    ...read,
    ...model,
    ...closed,
    ...patterns,
    ...emitFlow,
    ...emitIndex,
  }));
  return steps;
}
