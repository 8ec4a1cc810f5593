/** The config as users write it (codegen.config.json) and as the pipeline uses it, defaults applied. */
import type { Environment } from "@flowsmith/runtime";

export interface UserConfig {
  readonly $schema?: string;
  /** Default "generated". */
  readonly outputDir?: string;
  /** Default "@flowsmith/runtime". */
  readonly runtimeImport?: string;
  readonly flows: readonly UserFlowConfig[];
}

export interface UserFlowConfig {
  /** Default: the description's title in kebab-case. */
  readonly name?: string;
  readonly source: { readonly file: string } | { readonly api: { readonly flowId: string; readonly environment: Environment } };
}

export const CONFIG_DEFAULTS = {
  outputDir: "generated",
  runtimeImport: "@flowsmith/runtime",
} as const;

export type FlowSource =
  | { readonly kind: "file"; readonly path: string; /** Relative to the config file, posix separators. */ readonly display: string }
  | { readonly kind: "api"; readonly flowId: string; readonly environment: Environment };

export interface ResolvedFlowConfig {
  readonly name?: string;
  readonly source: FlowSource;
  /** Where this flow sits in the config, for error messages: `#/flows/2`. */
  readonly pointer: string;
}

export interface ResolvedConfig {
  readonly configPath: string;
  /** Config path as the user gave it, for messages. */
  readonly configDisplay: string;
  /** Absolute. */
  readonly outputDir: string;
  /** Relative to the current directory when inside it, for messages. */
  readonly outputDisplay: string;
  readonly runtimeImport: string;
  readonly flows: readonly ResolvedFlowConfig[];
}
