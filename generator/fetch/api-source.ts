/**
 * The description of an api flow for one codegen run: its snapshot, read
 * like a file, or (with --refresh, or on a plain run when there is no
 * snapshot yet) fetched from the service. Fetching writes nothing: the
 * pipeline writes the snapshot once the whole run has succeeded, so a
 * refused description (another version than the pinned one, a secret in it,
 * a model error) leaves every file as it was.
 */
import type { ConfigPath, FlowSource, ResolvedConfig } from "../config/config-types.js";
import { CodegenError, type CodegenErrorContext } from "../errors.js";
import type { Environment } from "../model/types.js";
import { descriptionJson } from "../output/description-json.js";
import { readSourceOrThrow, type SourceBytes, type SourceContext } from "../read/read-source.js";
import type { ServiceClients } from "./service-clients.js";
import { inspectSnapshot, refuseOtherFileOrThrow, refuseSecretsOrThrow } from "./snapshot.js";

export type ApiSource = Extract<FlowSource, { kind: "api" }>;

export interface FetchedSnapshot {
  readonly file: ConfigPath;
  readonly text: string;
  /** added: there was no snapshot; changed: it held another description; unchanged: these very bytes. */
  readonly change: "added" | "changed" | "unchanged";
  /** The flow, for messages. */
  readonly flowId: string;
  readonly environment: Environment;
}

export interface ApiSourceRun {
  readonly mode: "write" | "check";
  /** --refresh: fetch again even where a snapshot exists. */
  readonly refresh: boolean;
  readonly clients: ServiceClients;
}

export async function readApiSourceOrThrow(
  source: ApiSource,
  where: SourceContext,
  run: ApiSourceRun,
): Promise<SourceBytes & { readonly fetched?: FetchedSnapshot }> {
  const context = entryContext(where);
  const onDisk = await inspectSnapshot(source.snapshot);
  if (!run.refresh && onDisk.kind !== "absent") return readSourceOrThrow(source, where);
  if (!run.refresh && run.mode === "check") {
    throw new CodegenError(
      "SNAPSHOT_MISSING",
      `no snapshot of flow ${source.flowId} (${source.environment}) at ${source.snapshot.display}, and --check never fetches: ` +
        `run \`npx flowsmith codegen --refresh${where.flow ? ` --flow ${where.flow}` : ""}\` and commit the snapshot (or \`codegen --check --refresh\` to compare with the service)`,
      context,
    );
  }
  if (onDisk.kind === "other") refuseOtherFileOrThrow(source.snapshot, onDisk, context);
  const document = await run.clients.fetchDescriptionOrThrow(source.flowId, source.environment, {
    ...context,
    what: `the description of flow ${source.flowId} (${source.environment})`,
  });
  const text = descriptionJson(document);
  refuseSecretsOrThrow(text, run.clients, context);
  const change = onDisk.kind === "absent" ? "added" : onDisk.text === text ? "unchanged" : "changed";
  return {
    bytes: Buffer.from(text, "utf8"),
    display: source.snapshot.display,
    fetched: { file: source.snapshot, text, change, flowId: source.flowId, environment: source.environment },
  };
}

/** What the flow's description says it is. */
interface FlowIdentity {
  readonly id: string;
  readonly version: number;
  readonly environment: Environment;
}

/**
 * An api flow's description must be the flow its entry names, in the version
 * it pins. Fetched: the service's answer is refused. From the snapshot: the
 * entry changed since the snapshot was taken, and --refresh fetches anew.
 */
export function checkApiFlowOrThrow(
  source: ApiSource,
  found: FlowIdentity,
  fetched: boolean,
  entry: { readonly name: string; readonly pointer: string; readonly config: ResolvedConfig },
): void {
  const { config, pointer, name } = entry;
  const holder = fetched ? "the service publishes" : `the snapshot ${source.snapshot.display} holds`;
  const refresh = `\`npx flowsmith codegen --refresh --flow ${name}\``;
  if (found.id !== source.flowId || found.environment !== source.environment) {
    throw new CodegenError(
      fetched ? "FLOW_MISMATCH" : "SNAPSHOT_MISMATCH",
      `${holder} flow ${found.id} (${found.environment}), but the entry names flow ${source.flowId} (${source.environment})` +
        (fetched
          ? '; check "descriptionPath" in the config: nothing was written'
          : `: run ${refresh} to fetch the flow the entry names`),
      { flow: name, file: config.configDisplay, pointer: `${pointer}/source/api` },
    );
  }
  if (source.version === undefined || found.version === source.version) return;
  const versionPointer = `${pointer}/source/api/version`;
  const line = config.lineOfOrUndefined(versionPointer);
  throw new CodegenError(
    "VERSION_MISMATCH",
    fetched
      ? `${holder} version ${found.version} of flow ${found.id} in ${found.environment}, but this line pins version ${source.version}; nothing was written. ` +
          `To move to version ${found.version}, change "version" to ${found.version} (or remove it) and run ${refresh} again`
      : `${holder} version ${found.version} of flow ${found.id}, but this line pins version ${source.version}: run ${refresh} to fetch version ${source.version}, ` +
          `or set "version" back to ${found.version}`,
    { flow: name, file: config.configDisplay, pointer: versionPointer, ...(line !== undefined ? { line } : {}) },
  );
}

function entryContext(where: SourceContext): CodegenErrorContext {
  return {
    file: where.configFile,
    pointer: `${where.pointer}/source/api`,
    ...(where.flow ? { flow: where.flow } : {}),
  };
}
