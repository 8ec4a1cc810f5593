/**
 * One flow of the config: read (or fetch) its description → build its model
 * → emit its files (emit/), unless the files on disk are what it would
 * write (reuse.ts) or --flow leaves it out.
 */
import { performance } from "node:perf_hooks";
import type { ResolvedFlowConfig } from "../config/config-types.js";
import { CodegenError } from "../errors.js";
import { checkApiFlowOrThrow, readApiSourceOrThrow, type FetchedSnapshot } from "../fetch/api-source.js";
import { changeSinceCopyOrUndefined } from "../output/description-copies.js";
import { descriptionJson } from "../output/description-json.js";
import { recordOf, sha256, type ManifestFlow } from "../output/manifest.js";
import { readSourceOrThrow, type SourceBytes, type SourceContext } from "../read/read-source.js";
import { generated, leftOut, reused, type MadeFlow } from "./flow-outcome.js";
import { generationSteps } from "./generation-steps.js";
import { nameInManifestOrUndefined, reusableOrUndefined } from "./reuse.js";
import { isLeftOut, type Run } from "./run-context.js";

export async function generateFlowOrThrow(flow: ResolvedFlowConfig, run: Run): Promise<MadeFlow> {
  const started = performance.now();
  const known = flow.name ?? nameInManifestOrUndefined(flow, run);
  if (known !== undefined && isLeftOut(known, run)) return await leftOut(flow, known, run);
  const where = {
    pointer: flow.pointer,
    configFile: run.config.configDisplay,
    ...(flow.name ? { flow: flow.name } : {}),
  };
  const source = await readFlowSourceOrThrow(flow, where, run);
  const fetched = source.fetched;
  const inputsHash = sha256(
    [
      run.config.runtimeImport,
      flow.name ?? "",
      source.display,
      sha256(source.bytes),
      ...(run.config.closedDataBlocks ? ["closedDataBlocks"] : []),
    ].join("\n"),
  );
  const reusable = run.reuse ? await reusableOrUndefined(inputsHash, run) : undefined;
  if (reusable) {
    checkSourceIdentityOrThrow(flow, reusable.entry, reusable.name, fetched, run);
    return reused(flow, reusable.name, reusable, fetched, started, run);
  }
  const steps = await generationSteps();
  try {
    const description = steps.parseDescriptionOrThrow(source.bytes, source.display);
    const model = steps.buildFlowModelOrThrow(description, flow.name ? { name: flow.name } : {});
    if (isLeftOut(model.name, run)) return await leftOut(flow, model.name, run);
    checkSourceIdentityOrThrow(flow, model, model.name, fetched, run);
    const { runtimeImport } = run.config;
    const emitted = await steps.emitFlowOrThrow(
      run.config.closedDataBlocks ? steps.withClosedDataBlocks(model) : model,
      { runtimeImport },
    );
    const copy = descriptionJson(description.document);
    const files = new Map(emitted.map((file): [string, string] => [file.path, file.content]));
    const changed = await changeSinceCopyOrUndefined(copy, model, run.previous);
    const hashes = recordOf([...files].map(([file, content]) => [file, sha256(content)]));
    const { version, environment } = model;
    const entry = {
      source: source.display,
      inputsHash,
      id: detached(model.id),
      version,
      environment,
      description: sha256(copy),
      files: hashes,
    };
    return generated(
      flow,
      model.name,
      { entry, files, copy, changed, fetched, leftToService: steps.patternsLeftToService(model) },
      started,
      run,
    );
  } catch (error) {
    throw withFlowName(error, flow.name);
  }
}

/**
 * A value of the description that outlives its flow (in the manifest entry and
 * the report), copied: the YAML reader's strings are slices of the
 * description's whole text, and a slice keeps that text alive to the end of
 * the run, which made memory grow with the number of flows.
 */
function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** A file source is read; an api source is its snapshot, or fetched (fetch/api-source.ts). */
async function readFlowSourceOrThrow(
  flow: ResolvedFlowConfig,
  where: SourceContext,
  run: Run,
): Promise<SourceBytes & { readonly fetched?: FetchedSnapshot }> {
  if (flow.source.kind === "file") return readSourceOrThrow(flow.source, where);
  return readApiSourceOrThrow(flow.source, where, run.api);
}

/** An api flow must be the flow and (when pinned) the version its entry names; a file flow is what it is. */
function checkSourceIdentityOrThrow(
  flow: ResolvedFlowConfig,
  found: Pick<ManifestFlow, "id" | "version" | "environment">,
  name: string,
  fetched: FetchedSnapshot | undefined,
  run: Run,
): void {
  if (flow.source.kind !== "api") return;
  checkApiFlowOrThrow(flow.source, found, fetched !== undefined, { name, pointer: flow.pointer, config: run.config });
}

/** The reader and model builder know the file, not the config's name for the flow: add it. */
function withFlowName(error: unknown, name: string | undefined): unknown {
  if (!(error instanceof CodegenError) || error.context.flow || name === undefined) return error;
  return new CodegenError(error.code, error.detail, { ...error.context, flow: name }, { cause: error });
}
