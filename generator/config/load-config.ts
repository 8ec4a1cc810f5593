/**
 * Reads codegen.config.json, validates it against codegen.config.schema.json
 * (the same file editors use for completion) and resolves it once: defaults
 * applied, paths made absolute, the service's address taken from the
 * environment where it overrides the file. Credentials are not read here:
 * only a run that fetches needs them (fetch/service-clients.ts).
 */
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { ValidateFunction } from "ajv";
import { DEFAULT_DESCRIPTION_PATH } from "@flowsmith/runtime/service-limits";
import { CodegenError } from "../errors.js";
import { precompiledValidatorOrUndefined } from "../precompiled-validator.js";
import { checkConfigNamesOrThrow } from "../unique-flows.js";
import { configProblemOrUndefined } from "./config-errors.js";
import { parseConfigTextOrThrow, type ConfigText } from "./config-text.js";
import { newConfigText, schemaPathFor, type NewConfig } from "./write-config.js";
import configSchema from "../../codegen.config.schema.json";
import {
  CONFIG_DEFAULTS,
  ENV,
  type ConfigPath,
  type FlowSource,
  type ResolvedServiceConfig,
  type ResolvedConfig,
  type ResolvedFlowConfig,
  type UserConfig,
  type UserFlowConfig,
  type UserServiceConfig,
} from "./config-types.js";

export const DEFAULT_CONFIG_FILE = "codegen.config.json";

/** The environment variables config resolution reads (FLOWSMITH_BASE_URL, FLOWSMITH_AUTH_URL); default process.env. */
export type Env = Readonly<Record<string, string | undefined>>;

export interface LoadConfigOptions {
  /**
   * Accept a config whose `flows` is empty: `flowsmith add` appends the
   * first one. Default false: codegen and the emulator need a flow.
   */
  readonly allowNoFlows?: boolean;
}

/**
 * Without a path, the nearest codegen.config.json in the working directory
 * or a folder above it (as git, tsc and eslint find theirs), so a command
 * run from `src/` finds the project's config.
 */
export async function loadConfigOrThrow(
  configPath?: string,
  env: Env = process.env,
  options: LoadConfigOptions = {},
): Promise<ResolvedConfig> {
  const absolute = configPath !== undefined ? path.resolve(configPath) : await findConfigOrThrow(process.cwd());
  const file = displayPath(absolute);
  const text = await readConfigTextOrThrow(absolute, file);
  return configFromTextOrThrow(text, absolute, env, options);
}

/** An error of a later step about a key of this config (a description file not found, two entries of one flow), with its line and column. */
export function withConfigPosition(config: ResolvedConfig, error: unknown): unknown {
  if (
    !(error instanceof CodegenError) ||
    error.context.file !== config.configDisplay ||
    error.context.pointer === undefined ||
    error.context.line !== undefined
  )
    return error;
  const position = config.positionOfOrUndefined(error.context.pointer);
  return position
    ? new CodegenError(error.code, error.detail, { ...error.context, ...position }, { cause: error })
    : error;
}

/** A resolution error about a key of this config, with that key's line and column. */
function withPositionIn(parsed: ConfigText, file: string, error: unknown): unknown {
  if (
    !(error instanceof CodegenError) ||
    error.context.file !== file ||
    error.context.pointer === undefined ||
    error.context.line !== undefined
  )
    return error;
  const position = parsed.positionOfOrUndefined(error.context.pointer);
  return position
    ? new CodegenError(error.code, error.detail, { ...error.context, ...position }, { cause: error })
    : error;
}

/** The nearest codegen.config.json from `start` up to the file system's root. */
export async function findConfigOrThrow(start: string): Promise<string> {
  const found = await findConfigOrUndefined(start);
  if (found !== undefined) return found;
  throw new CodegenError(
    "CONFIG_NOT_FOUND",
    `no ${DEFAULT_CONFIG_FILE} in ${displayPath(start) || "."} or any folder above it; run \`npx flowsmith init\` to create one, or pass --config <path>`,
    { file: DEFAULT_CONFIG_FILE },
  );
}

export async function findConfigOrUndefined(start: string): Promise<string | undefined> {
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, DEFAULT_CONFIG_FILE);
    if (await isFile(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

async function isFile(file: string): Promise<boolean> {
  return stat(file).then(
    (stats) => stats.isFile(),
    () => false,
  );
}

/**
 * A config not yet written, as the one writer (write-config.ts) lays it out
 * and resolved as if it were at `configPath`: `flowsmith add` starts one when
 * there is none (no flows yet, which a loaded config may not have), and
 * `flowsmith init` checks what it will write.
 */
export async function newConfigOrThrow(
  configPath: string,
  env: Env = process.env,
  config: Partial<Omit<NewConfig, "schema">> = {},
): Promise<{ readonly config: ResolvedConfig; readonly text: string }> {
  const absolute = path.resolve(configPath);
  const schema = await schemaPathFor(path.dirname(absolute));
  const text = newConfigText({ ...config, schema, outputDir: config.outputDir ?? CONFIG_DEFAULTS.outputDir });
  return { config: configFromTextOrThrow(text, absolute, env, { allowNoFlows: true }), text };
}

/** A config's text, validated and resolved as if it were at `configPath`. */
function configFromTextOrThrow(
  text: string,
  configPath: string,
  env: Env = process.env,
  options: LoadConfigOptions = {},
): ResolvedConfig {
  const file = displayPath(configPath);
  const parsed = parseConfigTextOrThrow(text, file);
  const config = validateConfigOrThrow(parsed, file, options);
  try {
    return resolveConfigOrThrow(config, { configPath, configDisplay: file, parsed, env });
  } catch (error) {
    throw withPositionIn(parsed, file, error);
  }
}

async function readConfigTextOrThrow(absolute: string, file: string): Promise<string> {
  try {
    // A byte order mark (editors on Windows write one) is not part of the JSON.
    return (await readFile(absolute, "utf8")).replace(/^\uFEFF/, "");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CodegenError(
      "CONFIG_NOT_FOUND",
      code === "ENOENT"
        ? "config file not found (pass --config <path>, or run `npx flowsmith init` to create one)"
        : `cannot read config file (${code ?? String(error)})`,
      { file },
    );
  }
}

/** Written by the build (build-config-validator.ts) beside the compiled module. */
export const PRECOMPILED_CONFIG_VALIDATOR = "config-validator.generated.js";

let validateConfig: ValidateFunction | undefined;

/** Loaded (or, from the .ts sources, compiled) once per process: the build compiles the schema, not each run (bench/analysis.md). */
function configValidator(): ValidateFunction {
  validateConfig ??=
    precompiledValidatorOrUndefined(PRECOMPILED_CONFIG_VALIDATOR, () =>
      // A specifier relative to this module: jest maps it to the build's file (jest.config.js).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(`./${PRECOMPILED_CONFIG_VALIDATOR}`),
    ) ?? compileConfigValidator().validate;
  return validateConfig;
}

/** ajv's standalone CommonJS module of the validator, for the build to write. */
export function configValidatorSource(): string {
  const { ajv, validate } = compileConfigValidator();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const standaloneCode = (require("ajv/dist/standalone") as typeof import("ajv/dist/standalone")).default;
  return standaloneCode(ajv, validate);
}

function compileConfigValidator() {
  // Loaded here only: with the build's precompiled validator, a run does not load ajv.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: Ajv } = require("ajv") as typeof import("ajv");
  const ajv = new Ajv({ allErrors: true, strict: false, code: { source: true } });
  return { ajv, validate: ajv.compile(configSchema) };
}

function validateConfigOrThrow(parsed: ConfigText, file: string, options: LoadConfigOptions): UserConfig {
  const raw = parsed.value;
  const validateConfig = configValidator();
  const at = (pointer: string, key?: string) => ({ file, pointer, ...parsed.positionOfOrUndefined(pointer, key) });
  if (validateConfig(raw)) {
    const config = raw as UserConfig;
    if (config.flows.length === 0 && !options.allowNoFlows) {
      throw new CodegenError(
        "CONFIG_INVALID",
        '"flows" must list at least one flow: `npx flowsmith add <flowId> --environment staging` adds one from the service, or write { "source": { "file": "flows/<name>.yaml" } }',
        at("#/flows"),
      );
    }
    checkConfigNamesOrThrow(config.flows, at);
    return config;
  }
  const problem = configProblemOrUndefined(validateConfig.errors ?? [], raw, configSchema);
  if (!problem) throw new CodegenError("CONFIG_INVALID", "does not match codegen.config.schema.json", at("#"));
  throw new CodegenError("CONFIG_INVALID", problem.message, at(problem.pointer, problem.key));
}

interface ConfigFile {
  readonly configPath: string;
  readonly configDisplay: string;
  readonly parsed: ConfigText;
  readonly env: Env;
}

function resolveConfigOrThrow(config: UserConfig, file: ConfigFile): ResolvedConfig {
  const root = path.dirname(file.configPath);
  const outputDir = path.resolve(root, config.outputDir ?? CONFIG_DEFAULTS.outputDir);
  const flows = config.flows.map((flow, index): ResolvedFlowConfig => {
    const pointer = `#/flows/${index}`;
    const source = resolveSourceOrThrow(flow, root, { file: file.configDisplay, pointer });
    // Whole literals, not a spread followed by other keys (model/json-schema.ts's nullable says why).
    return flow.name !== undefined ? { name: flow.name, source, pointer } : { source, pointer };
  });
  rejectSharedSnapshotsOrThrow(flows, file.configDisplay);
  return {
    configPath: file.configPath,
    configDisplay: file.configDisplay,
    outputDir,
    outputDisplay: displayPath(outputDir),
    runtimeImport: config.runtimeImport ?? CONFIG_DEFAULTS.runtimeImport,
    closedDataBlocks: config.closedDataBlocks ?? CONFIG_DEFAULTS.closedDataBlocks,
    service: resolveServiceOrThrow(config.service, file.configDisplay, file.env),
    flows,
    lineOfOrUndefined: (pointer) => file.parsed.positionOfOrUndefined(pointer)?.line,
    positionOfOrUndefined: (pointer) => file.parsed.positionOfOrUndefined(pointer),
  };
}

/**
 * A non-empty environment variable wins over the file (CI points the same
 * config at another service). Exported for commands that run without a
 * config file (`flowsmith flows`): `service` is then undefined.
 */
export function resolveServiceOrThrow(
  service: UserServiceConfig | undefined,
  configDisplay: string,
  env: Env,
): ResolvedServiceConfig {
  const sourced = (variable: string, key: "baseUrl" | "authUrl") => {
    const fromEnv = env[variable];
    if (fromEnv !== undefined && fromEnv.trim() !== "")
      return { value: fromEnv.trim(), from: `environment variable ${variable}` };
    const fromFile = service?.[key];
    return fromFile === undefined ? undefined : { value: fromFile, from: `${configDisplay} #/service/${key}` };
  };
  const baseUrl = sourced(ENV.baseUrl, "baseUrl");
  const authUrl = sourced(ENV.authUrl, "authUrl");
  const descriptionPath = service?.descriptionPath ?? DEFAULT_DESCRIPTION_PATH;
  checkDescriptionPathOrThrow(descriptionPath, configDisplay);
  return {
    ...(baseUrl ? { baseUrl } : {}),
    ...(authUrl ? { authUrl } : {}),
    descriptionPath: {
      value: descriptionPath,
      from:
        service?.descriptionPath === undefined
          ? "the default descriptionPath"
          : `${configDisplay} #/service/descriptionPath`,
    },
  };
}

/** A path under baseUrl: no query or fragment, and `{flowId}` in it, or every flow would fetch one document. */
function checkDescriptionPathOrThrow(template: string, file: string): void {
  const invalid = (why: string) =>
    new CodegenError("CONFIG_INVALID", `"descriptionPath" ${why}`, { file, pointer: "#/service/descriptionPath" });
  if (!template.startsWith("/"))
    throw invalid(`must start with "/" (it is appended to baseUrl); got ${JSON.stringify(template)}`);
  if (/[?#\s]/.test(template)) throw invalid("must be a path without query, fragment or spaces");
  const unknown = (template.match(/\{[^}]*\}/g) ?? []).filter(
    (part) => part !== "{flowId}" && part !== "{environment}",
  );
  if (unknown.length > 0) throw invalid(`knows only {flowId} and {environment}; got ${unknown.join(", ")}`);
  if (!template.includes("{flowId}")) throw invalid("must contain {flowId}");
}

function resolveSourceOrThrow(
  flow: UserFlowConfig,
  root: string,
  where: { file: string; pointer: string },
): FlowSource {
  const source = flow.source;
  if (!("api" in source)) return { kind: "file", ...pathFromConfig(root, source.file) };
  const api = source.api;
  if (api.snapshot !== undefined && !api.snapshot.toLowerCase().endsWith(".json")) {
    throw new CodegenError(
      "CONFIG_INVALID",
      `"snapshot" must name a .json file (flowsmith writes the description there as JSON); got ${JSON.stringify(api.snapshot)}`,
      {
        file: where.file,
        pointer: `${where.pointer}/source/api/snapshot`,
      },
    );
  }
  return {
    kind: "api",
    flowId: api.flowId,
    environment: api.environment,
    ...(api.version !== undefined ? { version: api.version } : {}),
    snapshot: pathFromConfig(
      root,
      api.snapshot ?? defaultSnapshotOrThrow(flow.name, api.flowId, api.environment, where),
    ),
  };
}

/** `flows/<name>.json`; an entry without a name has no name before its description is fetched, so its id names the file. */
function defaultSnapshotOrThrow(
  name: string | undefined,
  flowId: string,
  environment: string,
  where: { file: string; pointer: string },
): string {
  if (name !== undefined) return `${CONFIG_DEFAULTS.snapshotDir}/${name}.json`;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(flowId)) {
    throw new CodegenError(
      "CONFIG_INVALID",
      `flow id ${JSON.stringify(flowId)} cannot name its snapshot file; give the entry a "name" (the snapshot is then flows/<name>.json) or a "source.api.snapshot" path`,
      { file: where.file, pointer: where.pointer },
    );
  }
  return `${CONFIG_DEFAULTS.snapshotDir}/${flowId}-${environment}.json`;
}

/** Two entries writing one snapshot, or a snapshot over a description file, would overwrite each other. */
function rejectSharedSnapshotsOrThrow(flows: readonly ResolvedFlowConfig[], file: string): void {
  const seen = new Map<string, { pointer: string; snapshot: boolean }>();
  for (const flow of flows) {
    const snapshot = flow.source.kind === "api";
    const own = flow.source.kind === "api" ? flow.source.snapshot : flow.source;
    const first = seen.get(own.path);
    if (first !== undefined && (snapshot || first.snapshot)) {
      const pointer = snapshot ? `${flow.pointer}/source/api` : `${flow.pointer}/source/file`;
      throw new CodegenError(
        "CONFIG_INVALID",
        `${own.display} is also the source or snapshot of ${first.pointer}; give each flow its own file`,
        { file, pointer },
      );
    }
    if (first === undefined) seen.set(own.path, { pointer: flow.pointer, snapshot });
  }
}

/**
 * Relative to the config, not the working directory: it is written into
 * generated headers, which must not depend on where codegen was run from.
 */
function pathFromConfig(root: string, relative: string): ConfigPath {
  const absolute = path.resolve(root, relative);
  return { path: absolute, display: path.relative(root, absolute).split(path.sep).join("/") };
}

/** A path relative to the working directory when it is inside it, posix separators, for messages and headers. */
function displayPath(absolute: string): string {
  const relative = path.relative(process.cwd(), absolute);
  const shown = relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : absolute;
  return shown.split(path.sep).join("/");
}
