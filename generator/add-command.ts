/**
 * `flowsmith add <flowId> --environment <env> [--name] [--version] [--snapshot] [--config]`:
 * fetches a flow's description, checks it is a flow flowsmith can generate
 * (and the pinned version, when given), stores its snapshot, and appends an
 * api entry to the config, leaving the rest of the file as it was. Nothing
 * is written unless all of that succeeds. Exit codes: 0 added, 1 failure
 * (a duplicate, a refused description, the service), 2 usage.
 */
import { lstat, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { ENVIRONMENTS, type Environment } from "@flowsmith/runtime";
import { withFlowAppended, writeConfigOrThrow } from "./config/append-flow.js";
import { CONFIG_DEFAULTS, type ResolvedConfig, type UserApiSource, type UserFlowConfig } from "./config/config-types.js";
import { DEFAULT_CONFIG_FILE, loadConfigOrThrow, newConfig, withConfigPosition, type Env } from "./config/load-config.js";
import { CodegenError, errorLine } from "./errors.js";
import { configEntryOfOrUndefined } from "./fetch/config-entry.js";
import { ServiceClients } from "./fetch/service-clients.js";
import { inspectSnapshot, refuseOtherFileOrThrow, refuseSecretsOrThrow, writeSnapshotOrThrow } from "./fetch/snapshot.js";
import { buildFlowModelOrThrow } from "./model/build-flow-model.js";
import { descriptionJson } from "./output/description-json.js";
import type { FlowModel } from "./model/types.js";
import { parseDescriptionOrThrow } from "./read/load-description.js";

interface CommandIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env?: Env;
}

export const usage = `Usage: flowsmith add <flowId> --environment staging|live [options]

Fetches the flow's description from the service, stores it as a snapshot
(flows/<name>.json), and appends to the config's "flows" (a config that does
not exist yet is created, with outputDir "generated"):
  { "name": "<name>", "source": { "api": { "flowId": "<flowId>", "environment": "<env>" } } }
The rest of the config stays as it was. Then run \`npx flowsmith codegen\`.
\`flowsmith flows\` lists the flow ids. Service and credentials as for codegen
(FLOWSMITH_BASE_URL, FLOWSMITH_AUTH_URL, FLOWSMITH_<ENV>_CLIENT_ID/_SECRET).

Options:
  --environment <env>  staging or live (required)
  --name <name>        the entry's name: output folder and snapshot name
                       (default: the description's title in kebab-case)
  --version <n>        pin the flow version: refused, and nothing written,
                       when the service publishes another one (default: no pin)
  --snapshot <path>    where to keep the snapshot, relative to the config
                       (default: flows/<name>.json)
  --config <path>      the config file (default: the nearest codegen.config.json
                       in this folder or above it; none: a new one here)
  -h, --help           this help

Refused, writing nothing: a flow and environment the config already has, a
name in use, a file flowsmith did not write where the snapshot goes.

Exit codes: 0 added, 1 an error, 2 usage error.
`;

export interface AddArgs {
  readonly flowId: string;
  readonly environment: Environment;
  readonly name?: string;
  readonly version?: number;
  readonly snapshot?: string;
  readonly config?: string;
}

export async function run(args: readonly string[], io: CommandIo = process): Promise<number> {
  const parsed = parseAddArgs(args);
  if ("help" in parsed) {
    io.stdout.write(usage);
    return 0;
  }
  if ("usageError" in parsed) {
    io.stderr.write(`flowsmith add: ${parsed.usageError}\nRun \`flowsmith add --help\` for the options.\n`);
    return 2;
  }
  const env = io.env ?? process.env;
  let clients: ServiceClients | undefined;
  let loaded: ResolvedConfig | undefined;
  try {
    const { config, text, created } = await configOrNewOrThrow(parsed.config, env);
    loaded = config;
    await refuseDuplicateFlowOrThrow(parsed, config);
    clients = new ServiceClients(config.service, env, config.configDisplay);
    const added = await addFlowOrThrow(parsed, config, text, clients);
    io.stdout.write(
      `Added "${added.name}" (flow ${parsed.flowId}, ${parsed.environment}, version ${added.version}) to ${created ? "a new " : ""}${config.configDisplay} ${added.pointer}; ` +
        `${added.snapshotWritten ? "snapshot" : "its snapshot is already"} ${added.snapshot}.\nRun \`npx flowsmith codegen\` to generate its client.\n`,
    );
    return 0;
  } catch (error) {
    const placed = loaded ? withConfigPosition(loaded, error) : error;
    if (!(placed instanceof CodegenError)) throw placed;
    io.stderr.write(`${errorLine(placed)}\n`);
    return 1;
  } finally {
    await clients?.close();
  }
}

/** The config to add to; when there is none yet, a new one with the defaults (written only once the flow is added). */
async function configOrNewOrThrow(configPath: string | undefined, env: Env): Promise<{ config: ResolvedConfig; text: string; created: boolean }> {
  try {
    const config = await loadConfigOrThrow(configPath, env, { allowNoFlows: true });
    return { config, text: await readFile(config.configPath, "utf8"), created: false };
  } catch (error) {
    if (!(error instanceof CodegenError) || error.code !== "CONFIG_NOT_FOUND" || !(await isMissing(configPath ?? DEFAULT_CONFIG_FILE))) throw error;
    return { ...newConfig(configPath ?? DEFAULT_CONFIG_FILE, env), created: true };
  }
}

async function isMissing(file: string): Promise<boolean> {
  return lstat(file).then(
    () => false,
    () => true,
  );
}

async function addFlowOrThrow(
  args: AddArgs,
  config: ResolvedConfig,
  configText: string,
  clients: ServiceClients,
): Promise<{ name: string; version: number; pointer: string; snapshot: string; snapshotWritten: boolean }> {
  const prepared = await prepareApiFlowOrThrow(args, config, clients);
  const newText = withFlowAppended(configText, prepared.entry);
  const snapshotWritten = await writePreparedSnapshotOrThrow(prepared);
  try {
    await writeConfigOrThrow(config.configPath, newText);
  } catch (error) {
    // The config was not changed: a snapshot no entry names would be left behind.
    await removeNewSnapshot(prepared);
    throw new CodegenError("WRITE_FAILED", `could not write ${config.configDisplay}: ${(error as Error).message}; nothing was added`, prepared.where, { cause: error });
  }
  return { name: prepared.entry.name ?? prepared.model.name, version: prepared.model.version, pointer: prepared.where.pointer, snapshot: prepared.snapshot.display, snapshotWritten };
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

/**
 * Fetches the flow's description, reads and models it as codegen will (a
 * flow flowsmith cannot generate is refused now, not at the next codegen),
 * and checks its name and snapshot path against `config` (and `taken`, names
 * about to be added beside it). Writes nothing.
 */
export async function prepareApiFlowOrThrow(args: AddArgs, config: ResolvedConfig, clients: ServiceClients, taken: readonly string[] = []): Promise<PreparedApiFlow> {
  const fetched = await fetchApiFlowOrThrow(args, config, clients, taken.length);
  return namedApiFlowOrThrow(fetched, args.name ?? fetched.model.name, config, taken);
}

/** A flow's description fetched, checked and modelled, not yet named (init names several at once, from all their titles). */
export interface FetchedApiFlow {
  readonly args: AddArgs;
  readonly model: FlowModel;
  readonly text: string;
  readonly where: { readonly file: string; readonly pointer: string };
}

/** `added`: entries added before this one beside the config's, for its pointer. */
export async function fetchApiFlowOrThrow(args: AddArgs, config: ResolvedConfig, clients: ServiceClients, added = 0): Promise<FetchedApiFlow> {
  const pointer = `#/flows/${config.flows.length + added}`;
  const where = { file: config.configDisplay, pointer };
  const what = `the description of flow ${args.flowId} (${args.environment})`;
  const document = await clients.fetchDescriptionOrThrow(args.flowId, args.environment, { ...where, what });
  const text = descriptionJson(document);
  refuseSecretsOrThrow(text, clients, where);
  const model = buildFlowModelOrThrow(parseDescriptionOrThrow(text, what), args.name !== undefined ? { name: args.name } : {});
  if (model.id !== args.flowId || model.environment !== args.environment) {
    throw new CodegenError("FETCH_FAILED", `the service answered with flow ${model.id} (${model.environment}), not ${args.flowId} (${args.environment}); check "descriptionPath"`, where);
  }
  if (args.version !== undefined && model.version !== args.version) {
    throw new CodegenError(
      "VERSION_MISMATCH",
      `the service publishes version ${model.version} of flow ${args.flowId} in ${args.environment}, not the version ${args.version} given by --version; nothing was written. ` +
        `Pass --version ${model.version}, or leave it out`,
      where,
    );
  }
  return { args, model, text, where };
}

/** The fetched flow under `name`: its entry and snapshot path, checked against `config` and `taken`. */
export async function namedApiFlowOrThrow(fetched: FetchedApiFlow, name: string, config: ResolvedConfig, taken: readonly string[] = []): Promise<PreparedApiFlow> {
  const { args, model, text, where } = fetched;
  refuseNameInUseOrThrow(name, config, taken);
  const relative = args.snapshot ?? `${CONFIG_DEFAULTS.snapshotDir}/${name}.json`;
  const snapshot = snapshotPathOrThrow(relative, config);
  refuseSharedFileOrThrow(snapshot, config);
  const onDisk = await inspectSnapshot(snapshot);
  if (onDisk.kind === "other") refuseOtherFileOrThrow(snapshot, onDisk, where);
  const api: UserApiSource = {
    flowId: args.flowId,
    environment: args.environment,
    ...(args.version !== undefined ? { version: args.version } : {}),
    ...(args.snapshot !== undefined ? { snapshot: args.snapshot } : {}),
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

/** The config already generating this flow in this environment: an api entry, or a description file of it. */
async function refuseDuplicateFlowOrThrow(args: AddArgs, config: ResolvedConfig): Promise<void> {
  const flow = await configEntryOfOrUndefined(config, args.flowId, args.environment);
  if (!flow) return;
  const file = flow.source.kind === "api" ? flow.source.snapshot.display : flow.source.display;
  throw new CodegenError(
    "DUPLICATE_FLOW",
    `flow ${args.flowId} (${args.environment}) is already in the config as ${flow.name ? `"${flow.name}" ` : ""}(${flow.pointer}, ${file}); ` +
      "the service runs one published version per flow and environment. To fetch its current version, run `npx flowsmith codegen --refresh`",
    { file: config.configDisplay, pointer: flow.pointer },
  );
}

function refuseNameInUseOrThrow(name: string, config: ResolvedConfig, added: readonly string[]): void {
  const taken = config.flows.find((flow) => flow.name === name);
  if (!taken && !added.includes(name)) return;
  const by = taken ? taken.pointer : "another flow added with it";
  throw new CodegenError("DUPLICATE_NAME", `the name "${name}" is already used by ${by}; pass another with --name`, {
    file: config.configDisplay,
    ...(taken ? { pointer: taken.pointer } : {}),
  });
}

function snapshotPathOrThrow(relative: string, config: ResolvedConfig): { path: string; display: string } {
  if (!relative.toLowerCase().endsWith(".json")) {
    throw new CodegenError("CONFIG_INVALID", `--snapshot must name a .json file; got ${JSON.stringify(relative)}`, { file: config.configDisplay });
  }
  const root = path.dirname(config.configPath);
  const absolute = path.resolve(root, relative);
  return { path: absolute, display: path.relative(root, absolute).split(path.sep).join("/") };
}

/** A snapshot path another entry reads (its description file or snapshot), or one inside outputDir. */
function refuseSharedFileOrThrow(snapshot: { path: string; display: string }, config: ResolvedConfig): void {
  const user = config.flows.find((flow) => (flow.source.kind === "api" ? flow.source.snapshot.path : flow.source.path) === snapshot.path);
  const inOutput = !path.relative(config.outputDir, snapshot.path).startsWith("..");
  if (!user && !inOutput) return;
  throw new CodegenError(
    "SNAPSHOT_CONFLICT",
    `${snapshot.display} is ${user ? `the source of ${user.pointer}` : "inside outputDir, which flowsmith replaces"}; pass another --name or --snapshot`,
    { file: config.configDisplay },
  );
}

function parseAddArgs(args: readonly string[]): AddArgs | { readonly usageError: string } | { readonly help: true } {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: {
        environment: { type: "string" },
        name: { type: "string" },
        version: { type: "string" },
        snapshot: { type: "string" },
        config: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return { usageError: (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (positionals.length !== 1 || positionals[0] === undefined || positionals[0].trim() === "") {
    return { usageError: `expected one flow id (\`flowsmith flows\` lists them); got ${positionals.length}` };
  }
  const environment = values.environment;
  if (environment === undefined) return { usageError: "--environment staging|live is required (an API client reaches one environment)" };
  if (!(ENVIRONMENTS as readonly string[]).includes(environment)) return { usageError: `--environment must be staging or live; got ${JSON.stringify(environment)}` };
  if (values.name !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(values.name)) {
    return { usageError: `--name must be lower-case letters, digits and hyphens, starting with a letter or digit; got ${JSON.stringify(values.name)}` };
  }
  const version = values.version === undefined ? undefined : Number(values.version);
  if (version !== undefined && (!Number.isSafeInteger(version) || version < 1)) {
    return { usageError: `--version must be a whole number >= 1; got ${JSON.stringify(values.version)}` };
  }
  return {
    flowId: positionals[0],
    environment: environment as Environment,
    ...(values.name !== undefined ? { name: values.name } : {}),
    ...(version !== undefined ? { version } : {}),
    ...(values.snapshot !== undefined ? { snapshot: values.snapshot } : {}),
    ...(values.config !== undefined ? { config: values.config } : {}),
  };
}
