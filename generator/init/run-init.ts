/**
 * `flowsmith init`, from nothing to a generated client: finds the flow
 * descriptions under the folder (find-descriptions.ts), or lists the
 * service's flows with the FLOWSMITH_* credentials; asks which to use and
 * where the clients go on a terminal (prompts.ts), takes the options
 * otherwise; checks outputDir as codegen will; writes the flows' snapshots
 * and codegen.config.json (never over an existing one, through the one
 * config writer); runs the first codegen; and gives a first call
 * (first-call.ts). Nothing is written until every flow and outputDir passed.
 */
import path from "node:path";
import { ENV, type ResolvedConfig } from "../config/config-types.js";
import {
  DEFAULT_CONFIG_FILE,
  findConfigOrUndefined,
  newConfigOrThrow,
  resolveServiceOrThrow,
  type Env,
} from "../config/load-config.js";
import { writeNewConfigOrThrow } from "../config/write-config.js";
import { CodegenError } from "../errors.js";
import { removeNewSnapshot, writePreparedSnapshotOrThrow, type PreparedApiFlow } from "../fetch/api-flow.js";
import { environmentsWithClientId, ServiceClients } from "../fetch/service-clients.js";
import { isFolder, isTaken } from "../file-checks.js";
import { openOutputDirOrThrow } from "../output/output-dir.js";
import { assertOutputDirSafeOrThrow } from "../output/output-safety.js";
import { runCodegen, type Progress, type WriteResult } from "../pipeline.js";
import { FIND_LIMITS, findDescriptions } from "./find-descriptions.js";
import type { FirstCall } from "./first-call.js";
import {
  listedFlowsOrThrow,
  plannedApiFlowsOrThrow,
  plannedFileFlowsOrThrow,
  type PlannedFlow,
} from "./planned-flows.js";
import { askInteractively, type Choices } from "./prompts.js";

export interface InitOptions {
  /** The project's folder: the config goes here, descriptions are looked for under it. */
  readonly cwd: string;
  readonly env: Env;
  /** A person is there to answer the questions; otherwise the options below are the answers. */
  readonly interactive: boolean;
  /** The service's flows instead of files. */
  readonly fromApi: boolean;
  /** Only these (flow ids, names, or a file's path); empty: every flow found or listed. */
  readonly flows: readonly string[];
  /** Default: src/generated when ./src exists, else generated. */
  readonly outputDir?: string;
  /** Told as it is found, before any question. */
  readonly onNote?: (note: InitNote) => void;
  /** The first codegen's progress (runCodegen's). */
  readonly onProgress?: (progress: Progress) => void;
}

export type InitNote =
  /** A config of a folder above: init starts a separate one here. */
  | { readonly kind: "config-above"; readonly file: string }
  /** A YAML or JSON file that is not a flow description flowsmith can generate. */
  | { readonly kind: "skipped"; readonly file: string; readonly why: string }
  /** The search looked at its bound of files (nearest folders first) and stopped. */
  | { readonly kind: "search-stopped"; readonly files: number };

export type InitResult =
  /** Refused, nothing written: init never overwrites a config. */
  | { readonly outcome: "config-exists"; readonly config: string }
  /** Ctrl-C at a question: nothing written. */
  | { readonly outcome: "cancelled" }
  | {
      readonly outcome: "written";
      readonly config: string;
      /** The names of the flows the config lists, in its order. */
      readonly flows: readonly string[];
      /** The first codegen: what it wrote, or why it failed (the config stays). */
      readonly codegen:
        { readonly ok: true; readonly result: WriteResult } | { readonly ok: false; readonly error: unknown };
      /** Of a flow generated, when codegen succeeded. */
      readonly firstCall?: FirstCall;
    };

export async function runInit(options: InitOptions): Promise<InitResult> {
  const { cwd, env } = options;
  const configPath = path.join(cwd, DEFAULT_CONFIG_FILE);
  if (await isTaken(configPath)) return { outcome: "config-exists", config: DEFAULT_CONFIG_FILE };
  const above = await findConfigOrUndefined(path.dirname(cwd));
  if (above) options.onNote?.({ kind: "config-above", file: above });
  const planned = await plannedOrCancelled(configPath, options);
  if (planned === "cancelled") return { outcome: "cancelled" };
  const flows = planned.flows.map((flow) => flow.entry.name);
  let result: WriteResult;
  try {
    result = await runCodegen({ configPath, env, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
  } catch (error) {
    return { outcome: "written", config: DEFAULT_CONFIG_FILE, flows, codegen: { ok: false, error } };
  }
  // Loaded only here: it prints through the emitter's escaping (ts-morph), which codegen has loaded by now.
  const { firstCall, hasOwnNamespace } = await import("./first-call.js");
  const first = planned.flows.find((flow) => hasOwnNamespace(flow.entry.name, flows));
  const folder = path.relative(cwd, path.resolve(cwd, planned.outputDir)).split(path.sep).join("/");
  return {
    outcome: "written",
    config: DEFAULT_CONFIG_FILE,
    flows,
    codegen: { ok: true, result },
    ...(first ? { firstCall: firstCall({ ...first.model, name: first.entry.name }, `./${folder}/index.js`) } : {}),
  };
}

/** Found (or listed), chosen, checked and written: the flows and where their clients go. */
async function plannedOrCancelled(
  configPath: string,
  options: InitOptions,
): Promise<{ flows: PlannedFlow[]; outputDir: string } | "cancelled"> {
  const { cwd, env } = options;
  let clients: ServiceClients | undefined;
  // Made on first use: a run from files never needs the service.
  const service = () =>
    (clients ??= new ServiceClients(
      resolveServiceOrThrow(undefined, DEFAULT_CONFIG_FILE, env),
      env,
      DEFAULT_CONFIG_FILE,
    ));
  try {
    const outputDir = options.outputDir ?? ((await isFolder(path.join(cwd, "src"))) ? "src/generated" : "generated");
    const found = options.fromApi ? { found: [], skipped: [], truncated: false } : await findDescriptions(cwd);
    for (const file of found.skipped) options.onNote?.({ kind: "skipped", file: file.display, why: file.why });
    if (found.truncated) options.onNote?.({ kind: "search-stopped", files: FIND_LIMITS.maxFiles });
    const credentials = environmentsWithClientId(env);
    // Nothing to ask about: no description here, and no API client to list the service's flows with.
    if (!options.fromApi && found.found.length === 0 && credentials.length === 0) throw noDescriptionError(cwd);
    const choices: Choices | "cancelled" = options.interactive
      ? await askInteractively({
          found: found.found,
          fromApi: options.fromApi,
          credentials,
          outputDir,
          outputDirGiven: options.outputDir !== undefined,
          flows: options.flows,
          listApi: () => listedFlowsOrThrow(service(), credentials),
        })
      : { source: options.fromApi ? "api" : "files", outputDir, flows: options.flows };
    if (choices === "cancelled") return "cancelled";
    const start = await newConfigOrThrow(configPath, env, { outputDir: choices.outputDir });
    await refuseOutputDirOrThrow(start.config);
    const planned =
      choices.source === "api"
        ? await plannedApiFlowsOrThrow(choices, start.config, service(), credentials)
        : plannedFileFlowsOrThrow(found.found, choices, () => noDescriptionError(cwd));
    const { baseUrl, authUrl } = start.config.service;
    // The service's flows: where the service is, as found now, so codegen --refresh finds it again.
    const written = await newConfigOrThrow(configPath, env, {
      outputDir: choices.outputDir,
      ...(choices.source === "api" && baseUrl && authUrl
        ? { service: { baseUrl: baseUrl.value, authUrl: authUrl.value } }
        : {}),
      flows: planned.map((flow) => flow.entry),
    });
    await writeAllOrThrow(configPath, written.text, planned);
    return { flows: planned, outputDir: choices.outputDir };
  } finally {
    await clients?.close();
  }
}

/**
 * outputDir as codegen will take it: a folder of its own, and, on a first
 * run, empty or flowsmith's (opened as --check opens it, changing nothing).
 * Said now, before a config naming it is written.
 */
async function refuseOutputDirOrThrow(config: ResolvedConfig): Promise<void> {
  await assertOutputDirSafeOrThrow(config, true);
  try {
    await (await openOutputDirOrThrow(config, "check")).release();
  } catch (error) {
    // No config is written yet: the message names the flag, not the config's key.
    if (!(error instanceof CodegenError) || error.code !== "OUTPUT_DIR_NOT_EMPTY") throw error;
    throw new CodegenError(
      error.code,
      `${error.detail}. With init, --output-dir chooses the folder`,
      {},
      { cause: error },
    );
  }
}

/** Snapshots first, then the config, created (never replaced); a config that cannot be created takes the new snapshots back. */
async function writeAllOrThrow(configPath: string, text: string, planned: readonly PlannedFlow[]): Promise<void> {
  const written: PreparedApiFlow[] = [];
  try {
    for (const flow of planned) {
      if (flow.prepared && (await writePreparedSnapshotOrThrow(flow.prepared))) written.push(flow.prepared);
    }
    await writeNewConfigOrThrow(configPath, text);
  } catch (error) {
    await Promise.all(written.map(removeNewSnapshot));
    throw error;
  }
}

function noDescriptionError(cwd: string): CodegenError {
  return new CodegenError(
    "NO_FLOWS_FOUND",
    `no flow description found under ${cwd} (node_modules, .git and generated output are not searched): download one from the dashboard ` +
      `(flow versions view) into this folder, for example flows/onboarding.yaml, or pass --from-api with ${ENV.baseUrl}, ${ENV.authUrl} and ${ENV.clientId.staging}/_SECRET set`,
  );
}
