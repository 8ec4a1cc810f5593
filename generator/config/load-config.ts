/**
 * Reads codegen.config.json, validates it against codegen.config.schema.json
 * (the same file editors use for completion) and resolves it once: defaults
 * applied, paths made absolute.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import Ajv, { type ErrorObject } from "ajv";
import { CodegenError } from "../errors.js";
import configSchema from "../../codegen.config.schema.json";
import {
  CONFIG_DEFAULTS,
  type FlowSource,
  type ResolvedConfig,
  type ResolvedFlowConfig,
  type UserConfig,
  type UserFlowConfig,
} from "./config-types.js";

const DEFAULT_CONFIG_FILE = "codegen.config.json";

export async function loadConfigOrThrow(configPath: string = DEFAULT_CONFIG_FILE): Promise<ResolvedConfig> {
  const absolute = path.resolve(configPath);
  const file = displayPath(absolute);
  const text = await readConfigTextOrThrow(absolute, file);
  const raw = parseJsonOrThrow(text, file);
  const config = validateConfigOrThrow(raw, file);
  return resolveConfig(config, absolute, file);
}

async function readConfigTextOrThrow(absolute: string, file: string): Promise<string> {
  try {
    return await readFile(absolute, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CodegenError(
      "CONFIG_NOT_FOUND",
      code === "ENOENT" ? "config file not found (pass --config <path>)" : `cannot read config file (${code ?? String(error)})`,
      { file },
    );
  }
}

function parseJsonOrThrow(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message);
    const line = position ? text.slice(0, Number(position[1])).split("\n").length : undefined;
    throw new CodegenError("CONFIG_INVALID", `not valid JSON: ${(error as Error).message}`, { file, line });
  }
}

let validateConfig: ReturnType<Ajv["compile"]> | undefined;

function validateConfigOrThrow(raw: unknown, file: string): UserConfig {
  validateConfig ??= new Ajv({ allErrors: true, strict: false }).compile(configSchema);
  if (validateConfig(raw)) {
    const config = raw as UserConfig;
    rejectDuplicateNamesOrThrow(config.flows, file);
    return config;
  }
  const error = mostSpecificError(validateConfig.errors ?? [], raw);
  if (!error) throw new CodegenError("CONFIG_INVALID", "does not match codegen.config.schema.json", { file, pointer: "#" });
  throw new CodegenError("CONFIG_INVALID", describeConfigError(error), {
    file,
    pointer: `#${error.instancePath}`,
  });
}

function rejectDuplicateNamesOrThrow(flows: readonly UserFlowConfig[], file: string): void {
  const seen = new Map<string, number>();
  flows.forEach((flow, index) => {
    if (flow.name === undefined) return;
    const first = seen.get(flow.name);
    if (first !== undefined) {
      throw new CodegenError("DUPLICATE_NAME", `flow name "${flow.name}" is also used by #/flows/${first}; names must be unique`, {
        file,
        pointer: `#/flows/${index}/name`,
      });
    }
    seen.set(flow.name, index);
  });
}

/**
 * ajv reports every failing branch of `source`'s oneOf; the user meant the
 * branch whose key they wrote, so keep that branch's errors.
 */
function mostSpecificError(errors: readonly ErrorObject[], raw: unknown): ErrorObject | undefined {
  const branchErrors = errors.filter((error) => {
    const branch = /\/source\/oneOf\/(\d)\//.exec(error.schemaPath);
    if (!branch) return error.keyword !== "oneOf";
    const source = valueAt(raw, error.instancePath.replace(/(\/source).*$/, "$1"));
    const intended = source && typeof source === "object" && "api" in source ? "1" : "0";
    return branch[1] === intended;
  });
  const candidates = branchErrors.length > 0 ? branchErrors : errors;
  return [...candidates].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
}

function describeConfigError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const key = error.instancePath.split("/").pop() || "config";
  switch (error.keyword) {
    case "additionalProperty":
    case "additionalProperties":
      return `unknown key "${String(params.additionalProperty)}"`;
    case "required":
      return `missing required key "${String(params.missingProperty)}"`;
    case "type":
      return `"${key}" must be ${withArticle(String(params.type))}`;
    case "enum":
      return `"${key}" must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "pattern":
      return `"${key}" must be lower-case letters, digits and hyphens, starting with a letter or digit`;
    case "minItems":
      return `"${key}" must list at least one flow`;
    case "minLength":
      return `"${key}" must not be empty`;
    default:
      return `"${key}" ${error.message ?? "is invalid"}`;
  }
}

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const token of pointer.split("/").slice(1)) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[token.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return value;
}

function resolveConfig(config: UserConfig, configPath: string, configDisplay: string): ResolvedConfig {
  const root = path.dirname(configPath);
  const outputDir = path.resolve(root, config.outputDir ?? CONFIG_DEFAULTS.outputDir);
  return {
    configPath,
    configDisplay,
    outputDir,
    outputDisplay: displayPath(outputDir),
    runtimeImport: config.runtimeImport ?? CONFIG_DEFAULTS.runtimeImport,
    flows: config.flows.map((flow, index): ResolvedFlowConfig => ({
      ...(flow.name !== undefined ? { name: flow.name } : {}),
      source: resolveSource(flow.source, root),
      pointer: `#/flows/${index}`,
    })),
  };
}

function resolveSource(source: UserFlowConfig["source"], root: string): FlowSource {
  if ("api" in source) return { kind: "api", flowId: source.api.flowId, environment: source.api.environment };
  const absolute = path.resolve(root, source.file);
  // Relative to the config, not the working directory: it is written into
  // generated headers, which must not depend on where codegen was run from.
  return { kind: "file", path: absolute, display: path.relative(root, absolute).split(path.sep).join("/") };
}

/** A path relative to the working directory when it is inside it, posix separators, for messages and headers. */
function displayPath(absolute: string): string {
  const relative = path.relative(process.cwd(), absolute);
  const shown = relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : absolute;
  return shown.split(path.sep).join("/");
}
