/**
 * A flow of the service made into a config entry with its snapshot, for
 * `flowsmith add` and `flowsmith init --from-api`: its description fetched,
 * checked to be a flow flowsmith can generate (in the pinned version, when
 * one is given), named, its snapshot path checked; then written, snapshot
 * first. Nothing is written until all of that succeeded.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import type { Environment } from "@flowsmith/runtime";
import { withFlowAppended, writeConfigOrThrow } from "../config/write-config.js";
import {
  CONFIG_DEFAULTS,
  type ResolvedConfig,
  type UserApiSource,
  type UserFlowConfig,
} from "../config/config-types.js";
import { CodegenError } from "../errors.js";
import { buildFlowModelOrThrow } from "../model/build-flow-model.js";
import type { FlowModel } from "../model/types.js";
import { descriptionJson } from "../output/description-json.js";
import { parseDescriptionOrThrow } from "../read/load-description.js";
import { checkNameFreeOrThrow, flowInConfigError } from "../unique-flows.js";
import { configEntryOfOrUndefined } from "./config-entry.js";
import type { ServiceClients } from "./service-clients.js";
import { inspectSnapshot, refuseOtherFileOrThrow, refuseSecretsOrThrow, writeSnapshotOrThrow } from "./snapshot.js";

/** The flow wanted, and how its entry should read. */
export interface WantedApiFlow {
  readonly flowId: string;
  readonly environment: Environment;
  /** Default: the description's title in kebab-case. */
  readonly name?: string;
  /** Pinned: refused when the service publishes another version. */
  readonly version?: number;
  /** Relative to the config, a .json file (`flowsmith add` refuses another). Default flows/<name>.json. */
  readonly snapshot?: string;
}

/** A flow's description fetched, checked and modelled, not yet named (init names several at once, from all their titles). */
export interface FetchedApiFlow {
  readonly wanted: WantedApiFlow;
  readonly model: FlowModel;
  readonly text: string;
  readonly where: { readonly file: string; readonly pointer: string };
}

/** A flow fetched, checked and modelled, its entry and snapshot ready: nothing written yet. */
export interface PreparedApiFlow {
  readonly entry: UserFlowConfig;
  readonly model: FlowModel;
  readonly snapshot: { readonly path: string; readonly display: string };
  /** The snapshot's text (the description, normalised). */
  readonly text: string;
  readonly onDisk: Awaited<ReturnType<typeof inspectSnapshot>>;
  readonly where: { readonly file: string; readonly pointer: string };
}

/** What `add` did. */
export interface AddedFlow {
  readonly name: string;
  readonly version: number;
  /** The new entry's pointer in the config. */
  readonly pointer: string;
  readonly snapshot: string;
  /** False when the same snapshot was there already. */
  readonly snapshotWritten: boolean;
}

/**
 * `flowsmith add`: the flow fetched, checked against the config (a flow and
 * environment it has, a name in use, a snapshot path another entry reads)
 * and appended to `configText`, the config's text as read; its snapshot
 * written first. A config that cannot be written takes a new snapshot back.
 */
export async function addApiFlowOrThrow(
  wanted: WantedApiFlow,
  config: ResolvedConfig,
  configText: string,
  clients: ServiceClients,
): Promise<AddedFlow> {
  await refuseFlowInConfigOrThrow(wanted, config);
  const fetched = await fetchApiFlowOrThrow(wanted, config, clients);
  const prepared = await namedApiFlowOrThrow(fetched, wanted.name ?? fetched.model.name, config);
  const newText = withFlowAppended(configText, prepared.entry);
  const snapshotWritten = await writePreparedSnapshotOrThrow(prepared);
  try {
    await writeConfigOrThrow(config.configPath, newText);
  } catch (error) {
    // The config was not changed: a snapshot no entry names would be left behind.
    await removeNewSnapshot(prepared);
    throw new CodegenError(
      "WRITE_FAILED",
      `could not write ${config.configDisplay}: ${(error as Error).message}; nothing was added`,
      prepared.where,
      { cause: error },
    );
  }
  return {
    name: prepared.entry.name ?? prepared.model.name,
    version: prepared.model.version,
    pointer: prepared.where.pointer,
    snapshot: prepared.snapshot.display,
    snapshotWritten,
  };
}

/** `added`: entries added before this one beside the config's, for its pointer. */
export async function fetchApiFlowOrThrow(
  wanted: WantedApiFlow,
  config: ResolvedConfig,
  clients: ServiceClients,
  added = 0,
): Promise<FetchedApiFlow> {
  const pointer = `#/flows/${config.flows.length + added}`;
  const where = { file: config.configDisplay, pointer };
  const what = `the description of flow ${wanted.flowId} (${wanted.environment})`;
  const document = await clients.fetchDescriptionOrThrow(wanted.flowId, wanted.environment, { ...where, what });
  const text = descriptionJson(document);
  refuseSecretsOrThrow(text, clients, where);
  const model = buildFlowModelOrThrow(
    parseDescriptionOrThrow(text, what),
    wanted.name !== undefined ? { name: wanted.name } : {},
  );
  if (model.id !== wanted.flowId || model.environment !== wanted.environment) {
    throw new CodegenError(
      "FLOW_MISMATCH",
      `the service answered with flow ${model.id} (${model.environment}), not ${wanted.flowId} (${wanted.environment}); check "descriptionPath"`,
      where,
    );
  }
  if (wanted.version !== undefined && model.version !== wanted.version) {
    throw new CodegenError(
      "VERSION_MISMATCH",
      `the service publishes version ${model.version} of flow ${wanted.flowId} in ${wanted.environment}, not the version ${wanted.version} given by --version; nothing was written. ` +
        `Pass --version ${model.version}, or leave it out`,
      where,
    );
  }
  return { wanted, model, text, where };
}

/** The fetched flow under `name`: its entry and snapshot path, checked against `config` and `taken` (names about to be added beside it). */
export async function namedApiFlowOrThrow(
  fetched: FetchedApiFlow,
  name: string,
  config: ResolvedConfig,
  taken: readonly string[] = [],
): Promise<PreparedApiFlow> {
  const { wanted, model, text, where } = fetched;
  checkNameFreeOrThrow(name, config.flows, taken, config.configDisplay);
  const relative = wanted.snapshot ?? `${CONFIG_DEFAULTS.snapshotDir}/${name}.json`;
  const snapshot = snapshotPath(relative, config);
  refuseSharedFileOrThrow(snapshot, config);
  const onDisk = await inspectSnapshot(snapshot);
  if (onDisk.kind === "other") refuseOtherFileOrThrow(snapshot, onDisk, where);
  const api: UserApiSource = {
    flowId: wanted.flowId,
    environment: wanted.environment,
    ...(wanted.version !== undefined ? { version: wanted.version } : {}),
    ...(wanted.snapshot !== undefined ? { snapshot: wanted.snapshot } : {}),
  };
  return { entry: { name, source: { api } }, model, snapshot, text, onDisk, where };
}

/** Writes the snapshot unless the same one is there; says whether it wrote. */
export async function writePreparedSnapshotOrThrow(prepared: PreparedApiFlow): Promise<boolean> {
  if (prepared.onDisk.kind === "snapshot" && prepared.onDisk.text === prepared.text) return false;
  await writeSnapshotOrThrow(prepared.snapshot, prepared.text, prepared.where);
  return true;
}

/** Undoes writePreparedSnapshotOrThrow where there was no file before. */
export async function removeNewSnapshot(prepared: PreparedApiFlow): Promise<void> {
  if (prepared.onDisk.kind === "absent") await rm(prepared.snapshot.path, { force: true });
}

/** The config already generating this flow in this environment: an api entry, or a description file of it (unique-flows.ts). */
async function refuseFlowInConfigOrThrow(wanted: WantedApiFlow, config: ResolvedConfig): Promise<void> {
  const flow = await configEntryOfOrUndefined(config, wanted.flowId, wanted.environment);
  if (flow) throw flowInConfigError({ id: wanted.flowId, environment: wanted.environment }, flow, config.configDisplay);
}

/** `relative` ends in .json: the default does, and `flowsmith add` refuses a --snapshot that does not. */
function snapshotPath(relative: string, config: ResolvedConfig): { path: string; display: string } {
  const root = path.dirname(config.configPath);
  const absolute = path.resolve(root, relative);
  return { path: absolute, display: path.relative(root, absolute).split(path.sep).join("/") };
}

/** A snapshot path another entry reads (its description file or snapshot), or one inside outputDir. */
function refuseSharedFileOrThrow(snapshot: { path: string; display: string }, config: ResolvedConfig): void {
  const user = config.flows.find(
    (flow) => (flow.source.kind === "api" ? flow.source.snapshot.path : flow.source.path) === snapshot.path,
  );
  const inOutput = !path.relative(config.outputDir, snapshot.path).startsWith("..");
  if (!user && !inOutput) return;
  throw new CodegenError(
    "SNAPSHOT_CONFLICT",
    `${snapshot.display} is ${user ? `the source of ${user.pointer}` : "inside outputDir, which flowsmith replaces"}; pass another --name or --snapshot`,
    { file: config.configDisplay },
  );
}
