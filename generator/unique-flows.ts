/**
 * The two rules that keep a set of flows unambiguous, each checked where a
 * set is made or changed: the config (load-config.ts), codegen over the
 * flows outputDir holds after a run (pipeline.ts), `flowsmith add` and
 * `flowsmith init` before they write a config, and the emulator over the
 * flows it serves (through generator/index.ts).
 *
 * - One name per flow (DUPLICATE_FLOW_NAME): the name is the flow's folder
 *   in outputDir, its key in the manifest and its snapshot's file name.
 * - One published version per flow and environment (DUPLICATE_FLOW;
 *   docs/service.md section 1): a flow version is published to `staging` or
 *   `live`, and the service runs the one it has there. Two flows with the
 *   same `x-flow-id` and `x-environment` cannot both be served or
 *   generated: which one would a session follow?
 */
import { CodegenError, type CodegenErrorContext } from "./errors.js";

/** A flow's identity at the service. */
interface ServiceFlow {
  readonly id: string;
  readonly environment: string;
}

/** A flow of a set, as the messages name it (a FlowModel is one). */
export interface FlowIdentity extends ServiceFlow {
  readonly name: string;
  readonly version: number;
  /** The description (or snapshot) it was read from, as the user wrote it. */
  readonly source: { readonly file: string };
}

const ONE_VERSION = "the service runs one published version per flow and environment";

/** The first two items, in order, whose flows have the same id and environment. */
function firstPairOfOneFlowOrUndefined<T>(items: readonly T[], flowOf: (item: T) => ServiceFlow): [T, T] | undefined {
  return firstPairOrUndefined(items, (item) => {
    const { id, environment } = flowOf(item);
    return `${environment}\u0000${id}`;
  });
}

/** The config's "flows": a name given twice. `at` places a pointer in the config. */
export function checkConfigNamesOrThrow(
  flows: readonly { readonly name?: string }[],
  at: (pointer: string) => CodegenErrorContext,
): void {
  const pair = firstPairOrUndefined([...flows.entries()], ([, flow]) => flow.name);
  if (!pair) return;
  const [[first], [second, flow]] = pair;
  throw new CodegenError(
    "DUPLICATE_FLOW_NAME",
    `flow name "${String(flow.name)}" is also used by #/flows/${String(first)}; names must be unique`,
    at(`#/flows/${String(second)}/name`),
  );
}

/** A flow of the config, once codegen has read it (its name may come from its title). */
export interface ConfigFlow {
  readonly name: string;
  readonly pointer: string;
  readonly entry: Omit<FlowIdentity, "name" | "source"> & { readonly source: string };
}

/**
 * Both rules over every flow outputDir holds after a codegen run: those
 * generated, reused, or left out by --flow with output from before. The
 * config entries are named.
 */
export function checkFlowsInOutputDirOrThrow(flows: readonly ConfigFlow[], configFile: string): void {
  const pair = firstPairOfOneFlowOrUndefined(flows, (flow) => flow.entry);
  if (pair) {
    const identity = ({ entry, name }: ConfigFlow): FlowIdentity => ({
      ...entry,
      name,
      source: { file: entry.source },
    });
    throw new CodegenError(
      "DUPLICATE_FLOW",
      `${oneFlowTwiceDetail(identity(pair[0]), identity(pair[1]))} (config entries ${pair[0].pointer} and ${pair[1].pointer})`,
      { file: configFile, pointer: pair[1].pointer },
    );
  }
  const named = firstPairOrUndefined(flows, (flow) => flow.name);
  if (!named) return;
  const [first, second] = named;
  throw new CodegenError(
    "DUPLICATE_FLOW_NAME",
    `two flows are named "${second.name}" (${first.pointer} and ${second.pointer}); give one a different "name"`,
    {
      file: configFile,
      pointer: second.pointer,
    },
  );
}

/** The emulator's flows (at start and on each reload): one version per flow and environment. */
export function checkOneVersionPerFlowOrThrow(flows: readonly FlowIdentity[]): void {
  const pair = firstPairOfOneFlowOrUndefined(flows, (flow) => flow);
  if (pair)
    throw new CodegenError("DUPLICATE_FLOW", oneFlowTwiceDetail(pair[0], pair[1]), { file: pair[1].source.file });
}

/** `flowsmith init`: two of the descriptions chosen are one flow (an old download kept beside the new). */
export function checkChosenDescriptionsOrThrow(
  chosen: readonly { readonly display: string; readonly model: ServiceFlow & { readonly version: number } }[],
): void {
  const pair = firstPairOfOneFlowOrUndefined(chosen, (file) => file.model);
  if (!pair) return;
  const [first, second] = pair;
  throw new CodegenError(
    "DUPLICATE_FLOW",
    `${first.display} (version ${String(first.model.version)}) and ${second.display} (version ${String(second.model.version)}) are both flow "${second.model.id}" in ${second.model.environment}; ` +
      `${ONE_VERSION}: choose one with --flow <path> (on a terminal, select one), or remove the other`,
  );
}

/** A config entry as `flowsmith add` finds it (a ResolvedFlowConfig is one). */
interface ConfigEntry {
  readonly name?: string;
  readonly pointer: string;
  readonly source:
    | { readonly kind: "file"; readonly display: string }
    | { readonly kind: "api"; readonly snapshot: { readonly display: string } };
}

/**
 * `flowsmith add`: the config already has this flow. The way to its current
 * version depends on where the entry takes it from: an api entry is fetched
 * again by `codegen --refresh`, which never touches a description file.
 */
export function flowInConfigError(flow: ServiceFlow, entry: ConfigEntry, configFile: string): CodegenError {
  const file = entry.source.kind === "api" ? entry.source.snapshot.display : entry.source.display;
  const advice =
    entry.source.kind === "api"
      ? `To fetch its current version into ${file}, run \`npx flowsmith codegen --refresh${entry.name ? ` --flow ${entry.name}` : ""}\``
      : `It is generated from the description file ${file}, which codegen reads as it is and never fetches: to update it, download the flow's current version ` +
        `from the dashboard over ${file} and run \`npx flowsmith codegen\`; to take the flow from the service instead, remove ${entry.pointer} from the config and run this \`flowsmith add\` again`;
  return new CodegenError(
    "DUPLICATE_FLOW",
    `flow ${flow.id} (${flow.environment}) is already in the config as ${entry.name ? `"${entry.name}" ` : ""}(${entry.pointer}, ${file}); ${ONE_VERSION}. ${advice}`,
    { file: configFile, pointer: entry.pointer },
  );
}

/** `flowsmith add` and `init`: a name the config (or an entry added with it) already has. */
export function checkNameFreeOrThrow(
  name: string,
  flows: readonly { readonly name?: string; readonly pointer: string }[],
  added: readonly string[],
  configFile: string,
): void {
  const taken = flows.find((flow) => flow.name === name);
  if (!taken && !added.includes(name)) return;
  const by = taken ? taken.pointer : "another flow added with it";
  throw new CodegenError(
    "DUPLICATE_FLOW_NAME",
    `the name "${name}" is already used by ${by}; pass another with --name`,
    {
      file: configFile,
      ...(taken ? { pointer: taken.pointer } : {}),
    },
  );
}

/** Names for flows from their titles, made unique: a title in both environments gets `-staging`/`-live`, then `-2`, `-3`. */
export function uniqueNames(flows: readonly { readonly name: string; readonly environment: string }[]): string[] {
  const count = (name: string) => flows.filter((flow) => flow.name === name).length;
  const names: string[] = [];
  for (const flow of flows) {
    let name = count(flow.name) > 1 ? `${flow.name}-${flow.environment}` : flow.name;
    for (let suffix = 2; names.includes(name); suffix += 1) name = `${flow.name}-${flow.environment}-${String(suffix)}`;
    names.push(name);
  }
  return names;
}

function oneFlowTwiceDetail(first: FlowIdentity, second: FlowIdentity): string {
  return `${describe(first)} and ${describe(second)} are both flow "${second.id}" in ${second.environment}; ${ONE_VERSION}, so keep only one of them`;
}

function describe(flow: FlowIdentity): string {
  return `entry "${flow.name}" (${flow.source.file}, version ${String(flow.version)})`;
}

/** The first two items, in order, with the same key (a name, or a flow's id and environment); items without one are passed over. */
function firstPairOrUndefined<T>(items: readonly T[], keyOf: (item: T) => string | undefined): [T, T] | undefined {
  const seen = new Map<string, T>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === undefined) continue;
    if (seen.has(key)) return [seen.get(key) as T, item];
    seen.set(key, item);
  }
  return undefined;
}
