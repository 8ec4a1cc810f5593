/**
 * `flowsmith add`: a flow of the service added to the config (api-flow.ts:
 * fetched, checked, its snapshot stored, its entry appended), or to a new
 * config when there is none yet, written only once the flow is added.
 */
import { readFile } from "node:fs/promises";
import type { ResolvedConfig } from "../config/config-types.js";
import {
  DEFAULT_CONFIG_FILE,
  loadConfigOrThrow,
  newConfigOrThrow,
  withConfigPosition,
  type Env,
} from "../config/load-config.js";
import { CodegenError } from "../errors.js";
import { isTaken } from "../file-checks.js";
import { addApiFlowOrThrow, type AddedFlow, type WantedApiFlow } from "./api-flow.js";
import { ServiceClients } from "./service-clients.js";

export interface AddOptions extends WantedApiFlow {
  /** Default: the nearest codegen.config.json in the working directory or above; none: a new one here. */
  readonly configPath?: string;
  readonly env: Env;
}

/** What `add` did, and to which config. */
export interface AddResult extends AddedFlow {
  /** The config, as shown in messages. */
  readonly config: string;
  /** The config did not exist: this run wrote it. */
  readonly created: boolean;
}

export async function runAdd(options: AddOptions): Promise<AddResult> {
  const { configPath, env, ...wanted } = options;
  const { config, text, created } = await configOrNewOrThrow(configPath, env);
  const clients = new ServiceClients(config.service, env, config.configDisplay);
  try {
    const added = await addApiFlowOrThrow(wanted, config, text, clients);
    return { ...added, config: config.configDisplay, created };
  } catch (error) {
    throw withConfigPosition(config, error);
  } finally {
    await clients.close();
  }
}

/** The config to add to; when there is none yet, a new one with the defaults. */
async function configOrNewOrThrow(
  configPath: string | undefined,
  env: Env,
): Promise<{ config: ResolvedConfig; text: string; created: boolean }> {
  try {
    const config = await loadConfigOrThrow(configPath, env, { allowNoFlows: true });
    return { config, text: await readFile(config.configPath, "utf8"), created: false };
  } catch (error) {
    if (
      !(error instanceof CodegenError) ||
      error.code !== "CONFIG_NOT_FOUND" ||
      (await isTaken(configPath ?? DEFAULT_CONFIG_FILE))
    )
      throw error;
    return { ...(await newConfigOrThrow(configPath ?? DEFAULT_CONFIG_FILE, env)), created: true };
  }
}
