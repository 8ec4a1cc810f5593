/** The config as users write it (codegen.config.json) and as the pipeline uses it, defaults applied. */
import type { Environment } from "@flowsmith/runtime";

export interface UserConfig {
  readonly $schema?: string;
  /** Default "generated". */
  readonly outputDir?: string;
  /** The module generated code imports the runtime's flow-module entry from. Default "@flowsmith/runtime/flow-module". */
  readonly runtimeImport?: string;
  /**
   * Type the request's open objects (JSON data blocks and the objects in
   * them whose description allows any extra key) as closed: no index
   * signature, and the request validator refuses keys they do not declare.
   * Default false: the description, which allows extra keys, is the contract.
   */
  readonly closedDataBlocks?: boolean;
  /** Where the service is; only api sources, `flows` and `add` need it. */
  readonly service?: UserServiceConfig;
  readonly flows: readonly UserFlowConfig[];
}

export interface UserServiceConfig {
  /** No default; FLOWSMITH_BASE_URL overrides it. */
  readonly baseUrl?: string;
  /** No default; FLOWSMITH_AUTH_URL overrides it. */
  readonly authUrl?: string;
  /** Default "/api/v1/flows/{flowId}/{environment}/openapi". */
  readonly descriptionPath?: string;
}

export interface UserApiSource {
  readonly flowId: string;
  readonly environment: Environment;
  /** Default: none, any version is accepted. */
  readonly version?: number;
  /** Default "flows/<name>.json" (unnamed entry: "flows/<flowId>-<environment>.json"). */
  readonly snapshot?: string;
}

export interface UserFlowConfig {
  /** Default: the description's title in kebab-case. */
  readonly name?: string;
  readonly source: { readonly file: string } | { readonly api: UserApiSource };
}

export const CONFIG_DEFAULTS = {
  outputDir: "generated",
  runtimeImport: "@flowsmith/runtime/flow-module",
  closedDataBlocks: false,
  /** Folder of default snapshot paths, relative to the config. */
  snapshotDir: "flows",
} as const;

/** The environment variables flowsmith reads: the service's address and one API client per environment. */
export const ENV = {
  baseUrl: "FLOWSMITH_BASE_URL",
  authUrl: "FLOWSMITH_AUTH_URL",
  clientId: { staging: "FLOWSMITH_STAGING_CLIENT_ID", live: "FLOWSMITH_LIVE_CLIENT_ID" },
  clientSecret: { staging: "FLOWSMITH_STAGING_CLIENT_SECRET", live: "FLOWSMITH_LIVE_CLIENT_SECRET" },
} as const;

/** A file the config names: absolute, and as shown (relative to the config file, posix separators). */
export interface ConfigPath {
  readonly path: string;
  readonly display: string;
}

export type FlowSource =
  | ({ readonly kind: "file" } & ConfigPath)
  | {
      readonly kind: "api";
      readonly flowId: string;
      readonly environment: Environment;
      /** Undefined: any version. */
      readonly version?: number;
      /** Where the fetched description is kept; generation reads it like a file. */
      readonly snapshot: ConfigPath;
    };

export interface ResolvedFlowConfig {
  readonly name?: string;
  readonly source: FlowSource;
  /** Where this flow sits in the config, for error messages: `#/flows/2`. */
  readonly pointer: string;
}

/** A setting and where it came from, for messages: an environment variable or a config pointer. */
export interface Sourced<T> {
  readonly value: T;
  readonly from: string;
}

export interface ResolvedServiceConfig {
  /** Undefined when neither the config nor the environment gives it (an error only once a request is needed). */
  readonly baseUrl?: Sourced<string>;
  readonly authUrl?: Sourced<string>;
  readonly descriptionPath: Sourced<string>;
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
  readonly closedDataBlocks: boolean;
  readonly service: ResolvedServiceConfig;
  readonly flows: readonly ResolvedFlowConfig[];
  /** 1-based line of a pointer's key in the config file, for messages that name a line to change. */
  lineOfOrUndefined(pointer: string): number | undefined;
  /** 1-based line and column of a pointer's value in the config file, for messages about it. */
  positionOfOrUndefined(pointer: string): { readonly line: number; readonly column: number } | undefined;
}
