/**
 * Every flow of a config as the model the generator builds, with its parsed
 * description: what the emulator serves, so a flow's rules are written once.
 */
import { loadConfigOrThrow } from "./config/load-config.js";
import { buildFlowModelOrThrow } from "./model/build-flow-model.js";
import type { FlowModel } from "./model/types.js";
import { parseDescriptionOrThrow, type LoadedDescription } from "./read/load-description.js";
import { readSourceOrThrow } from "./read/read-source.js";

export interface LoadedFlow {
  readonly model: FlowModel;
  readonly description: LoadedDescription;
}

export async function loadFlowsOrThrow(configPath?: string): Promise<LoadedFlow[]> {
  const config = await loadConfigOrThrow(configPath);
  const flows: LoadedFlow[] = [];
  for (const flow of config.flows) {
    const source = await readSourceOrThrow(flow.source, {
      pointer: flow.pointer,
      configFile: config.configDisplay,
      ...(flow.name ? { flow: flow.name } : {}),
    });
    const description = parseDescriptionOrThrow(source.bytes, source.display);
    flows.push({ model: buildFlowModelOrThrow(description, flow.name ? { name: flow.name } : {}), description });
  }
  return flows;
}

/** One description given as its text (YAML or JSON), named by no config: the emulator's POST /__emulator/flows. */
export function loadFlowFromTextOrThrow(text: string | Uint8Array, displayPath: string): LoadedFlow {
  const description = parseDescriptionOrThrow(text, displayPath);
  return { model: buildFlowModelOrThrow(description), description };
}
