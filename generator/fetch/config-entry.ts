/**
 * Which config entry, if any, already generates a flow of the service: an
 * api entry naming it, or a description file whose info block is it. For
 * `flowsmith flows` (to mark what the config has) and `flowsmith add` (to
 * refuse a second entry for one flow and environment).
 */
import { readFile } from "node:fs/promises";
import type { Environment } from "@flowsmith/runtime";
import type { ResolvedConfig, ResolvedFlowConfig } from "../config/config-types.js";
import { parseYamlOrThrow } from "../read/yaml-source.js";

export async function configEntryOfOrUndefined(
  config: ResolvedConfig,
  flowId: string,
  environment: Environment,
): Promise<ResolvedFlowConfig | undefined> {
  for (const flow of config.flows) {
    const source = flow.source;
    if (
      source.kind === "api"
        ? source.flowId === flowId && source.environment === environment
        : await describesFlow(source.path, flowId, environment)
    ) {
      return flow;
    }
  }
  return undefined;
}

/** Only the info block is read; a description that does not even parse is codegen's to report. */
async function describesFlow(file: string, flowId: string, environment: Environment): Promise<boolean> {
  try {
    const { document } = parseYamlOrThrow(await readFile(file, "utf8"), file);
    const info = (document as { info?: Record<string, unknown> } | null)?.info;
    return info?.["x-flow-id"] === flowId && info["x-environment"] === environment;
  } catch {
    return false;
  }
}
