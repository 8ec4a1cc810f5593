/**
 * `flowsmith add <flowId> --environment <env> [--name] [--version] [--snapshot] [--config]`:
 * fetches a flow's description, checks it is a flow flowsmith can generate
 * (and the pinned version, when given), stores its snapshot, and appends an
 * api entry to the config, leaving the rest of the file as it was
 * (generator/fetch/api-flow.ts). Nothing is written unless all of that succeeds.
 */
import { readFile } from "node:fs/promises";
import { ENVIRONMENTS, type Environment } from "@flowsmith/runtime";
import type { ResolvedConfig } from "../../generator/config/config-types.js";
import { DEFAULT_CONFIG_FILE, loadConfigOrThrow, newConfig, withConfigPosition, type Env } from "../../generator/config/load-config.js";
import { CodegenError } from "../../generator/errors.js";
import { addApiFlowOrThrow, type WantedApiFlow } from "../../generator/fetch/api-flow.js";
import { isTaken } from "../../generator/file-checks.js";
import { ServiceClients } from "../../generator/fetch/service-clients.js";
import { EXIT, optionLines, parsedArgs, reportError, usageError, type CommandIo, type CommandOptions } from "../command.js";

const OPTIONS = {
  environment: { type: "string", arg: "<env>", help: "staging or live (required)" },
  name: { type: "string", arg: "<name>", help: "the entry's name: output folder and snapshot name (default: the description's title in kebab-case)" },
  version: { type: "string", arg: "<n>", help: "pin the flow version: refused, and nothing written, when the service publishes another one (default: no pin)" },
  snapshot: { type: "string", arg: "<path>", help: "where to keep the snapshot, a .json file relative to the config (default: flows/<name>.json)" },
  config: { type: "string", arg: "<path>", help: "the config file (default: the nearest codegen.config.json in this folder or above it; none: a new one here)" },
} as const satisfies CommandOptions;

export const usage = `Usage: flowsmith add <flowId> --environment staging|live [options]

Fetches the flow's description from the service, stores it as a snapshot
(flows/<name>.json), and appends to the config's "flows" (a config that does
not exist yet is created, with outputDir "generated"):
  { "name": "<name>", "source": { "api": { "flowId": "<flowId>", "environment": "<env>" } } }
The rest of the config stays as it was. Then run \`npx flowsmith codegen\`.
\`flowsmith flows\` lists the flow ids. Service and credentials as for codegen
(FLOWSMITH_BASE_URL, FLOWSMITH_AUTH_URL, FLOWSMITH_<ENV>_CLIENT_ID/_SECRET).

Options:
${optionLines(OPTIONS)}

Refused, writing nothing: a flow and environment the config already has, a
name in use, a file flowsmith did not write where the snapshot goes.

Exit codes: 0 added, 1 an error, 2 usage error.
`;

interface AddArgs extends WantedApiFlow {
  readonly config?: string;
}

export async function run(args: readonly string[], io: CommandIo = process): Promise<number> {
  const parsed = parseAddArgs(args);
  if ("usageError" in parsed) return usageError("add", parsed.usageError, io);
  const env = io.env ?? process.env;
  let clients: ServiceClients | undefined;
  let loaded: ResolvedConfig | undefined;
  try {
    const { config, text, created } = await configOrNewOrThrow(parsed.config, env);
    loaded = config;
    clients = new ServiceClients(config.service, env, config.configDisplay);
    const added = await addApiFlowOrThrow(parsed, config, text, clients);
    io.stdout.write(
      `Added "${added.name}" (flow ${parsed.flowId}, ${parsed.environment}, version ${added.version}) to ${created ? "a new " : ""}${config.configDisplay} ${added.pointer}; ` +
        `${added.snapshotWritten ? "snapshot" : "its snapshot is already"} ${added.snapshot}.\nRun \`npx flowsmith codegen\` to generate its client.\n`,
    );
    return EXIT.ok;
  } catch (error) {
    return reportError(loaded ? withConfigPosition(loaded, error) : error, io);
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
    if (!(error instanceof CodegenError) || error.code !== "CONFIG_NOT_FOUND" || (await isTaken(configPath ?? DEFAULT_CONFIG_FILE))) throw error;
    return { ...newConfig(configPath ?? DEFAULT_CONFIG_FILE, env), created: true };
  }
}

function parseAddArgs(args: readonly string[]): AddArgs | { readonly usageError: string } {
  const parsed = parsedArgs(args, OPTIONS, true);
  if ("usageError" in parsed) return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 1 || positionals[0] === undefined || positionals[0].trim() === "") {
    return { usageError: `expected one flow id (\`flowsmith flows\` lists them); got ${positionals.length}` };
  }
  const environment = values.environment;
  if (environment === undefined) return { usageError: "--environment staging|live is required (an API client reaches one environment)" };
  if (!(ENVIRONMENTS as readonly string[]).includes(environment)) return { usageError: `--environment must be staging or live; got ${JSON.stringify(environment)}` };
  if (values.name !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(values.name)) {
    return { usageError: `--name must be lower-case letters, digits and hyphens, starting with a letter or digit; got ${JSON.stringify(values.name)}` };
  }
  // Checked before anything is fetched: a snapshot is the service's JSON, kept as it came.
  if (values.snapshot !== undefined && !values.snapshot.toLowerCase().endsWith(".json")) {
    return { usageError: `--snapshot must name a .json file; got ${JSON.stringify(values.snapshot)}` };
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
