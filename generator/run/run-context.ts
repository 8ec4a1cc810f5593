/**
 * One codegen run's options, as the caller gives them (CodegenOptions) and
 * as every step reads them (Run): defaulted once, here.
 */
import type { ResolvedConfig } from "../config/config-types.js";
import type { Env } from "../config/load-config.js";
import type { ApiSourceRun } from "../fetch/api-source.js";
import type { ServiceClients } from "../fetch/service-clients.js";
import { PreviousDescriptions } from "../output/description-copies.js";
import { generatorStamp } from "../output/fingerprint.js";
import type { GeneratorStamp } from "../output/manifest.js";
import type { OutputDirState } from "../output/output-dir.js";

export interface CodegenOptions {
  /** Default "codegen.config.json" in the working directory. */
  readonly configPath?: string;
  /** Regenerate every selected flow and compare bytes with outputDir; write nothing. Default false. */
  readonly check?: boolean;
  /** Only these flows, by the config's name or, for a flow without one, the name derived from its title. Default: all. */
  readonly flows?: readonly string[];
  /** A write regenerates even the flows the manifest shows unchanged, and replaces generated files edited by hand (else OUTPUT_EDITED). Default false. */
  readonly force?: boolean;
  /** Fetch every selected api flow from the service again, even where a snapshot exists. Default false. */
  readonly refresh?: boolean;
  /** Where FLOWSMITH_BASE_URL, FLOWSMITH_AUTH_URL and the client credentials are read. Default process.env. */
  readonly env?: Env;
  /** Called as each flow is done (generated, reused or left out), in config order. */
  readonly onProgress?: (progress: Progress) => void;
}

export interface Progress {
  readonly done: number;
  readonly total: number;
  readonly flow: string;
}

/** The run as every step reads it. */
export interface Run {
  readonly config: ResolvedConfig;
  readonly output: OutputDirState;
  /** The descriptions the last run's output was made from (descriptions.json), read on first need. */
  readonly previous: PreviousDescriptions;
  readonly mode: "write" | "check";
  readonly generator: GeneratorStamp;
  /** A write without --force: flows the manifest shows unchanged are not regenerated. */
  readonly reuse: boolean;
  /** --flow names; undefined = every flow. */
  readonly selected: ReadonlySet<string> | undefined;
  readonly progress: (flow: string) => void;
  readonly api: ApiSourceRun;
}

export async function startRun(
  config: ResolvedConfig,
  output: OutputDirState,
  clients: ServiceClients,
  options: CodegenOptions,
): Promise<Run> {
  const mode = options.check ? "check" : "write";
  const generator = await generatorStamp();
  return {
    config,
    output,
    previous: new PreviousDescriptions(output),
    mode,
    generator,
    reuse: mode === "write" && !options.force,
    selected: options.flows && options.flows.length > 0 ? new Set(options.flows) : undefined,
    progress: progressCounter(config.flows.length, options.onProgress),
    api: { mode, refresh: options.refresh ?? false, clients },
  };
}

/** Left out by --flow. */
export function isLeftOut(name: string, run: Run): boolean {
  return run.selected !== undefined && !run.selected.has(name);
}

function progressCounter(total: number, onProgress: CodegenOptions["onProgress"]): (flow: string) => void {
  let count = 0;
  return (flow) => onProgress?.({ done: (count += 1), total, flow });
}
