/**
 * `flowsmith flows [--environment staging|live] [--json] [--config <path>]`:
 * the flows the service publishes to an environment (GET
 * /api/v1/flows/{environment}, docs/service.md 4), with every field it
 * returns, and which of them the config already has. Same service config
 * and credentials as codegen.
 */
import { ENVIRONMENTS, type Environment, type FlowRecord } from "@flowsmith/runtime";
import type { ResolvedConfig } from "../../generator/config/config-types.js";
import { DEFAULT_CONFIG_FILE, loadConfigOrThrow, resolveServiceOrThrow, type Env } from "../../generator/config/load-config.js";
import { CodegenError } from "../../generator/errors.js";
import { configEntryOfOrUndefined } from "../../generator/fetch/config-entry.js";
import { environmentsWithClientId, noApiClientError, ServiceClients } from "../../generator/fetch/service-clients.js";
import { EXIT, optionLines, parsedArgs, reportError, usageError, type CommandIo, type CommandOptions } from "../command.js";

const OPTIONS = {
  environment: { type: "string", arg: "<env>", help: "staging or live (default: each environment whose FLOWSMITH_<ENV>_CLIENT_ID is set)" },
  json: { type: "boolean", help: 'print {"<environment>": [<flow as the service returns it>, ...]}' },
  config: { type: "string", arg: "<path>", help: "the config file (default: the nearest codegen.config.json; without one, the environment variables alone are used)" },
} as const satisfies CommandOptions;

export const usage = `Usage: flowsmith flows [--environment staging|live] [--json] [--config <path>]

Lists the flows the service publishes to an environment, with every field it
returns for each (id, and for example name and version), and marks those the
config already has. Where the service is: "service" in the config, or
FLOWSMITH_BASE_URL and FLOWSMITH_AUTH_URL (which win). Credentials: the
environment's API client, FLOWSMITH_STAGING_CLIENT_ID and
FLOWSMITH_STAGING_CLIENT_SECRET, or FLOWSMITH_LIVE_CLIENT_ID and
FLOWSMITH_LIVE_CLIENT_SECRET.

Options:
${optionLines(OPTIONS)}

Then \`npx flowsmith add <flowId> --environment <env>\` adds one to the config.

Exit codes: 0 listed, 1 an error (no credentials, the service unreachable), 2 usage error.
`;

export async function run(args: readonly string[], io: CommandIo = process): Promise<number> {
  const parsed = parsedArgs(args, OPTIONS, false);
  if ("usageError" in parsed) return usageError("flows", parsed.usageError, io);
  const { values } = parsed;
  const env = io.env ?? process.env;
  if (values.environment !== undefined && !isEnvironment(values.environment)) {
    return usageError("flows", `--environment must be staging or live; got ${JSON.stringify(values.environment)}`, io);
  }
  const environments = values.environment !== undefined ? [values.environment] : environmentsWithClientId(env);
  if (environments.length === 0) return reportError(noApiClientError(), io);
  let clients: ServiceClients | undefined;
  try {
    const config = await configOrUndefined(values.config, env);
    const display = config?.configDisplay ?? DEFAULT_CONFIG_FILE;
    clients = new ServiceClients(config?.service ?? resolveServiceOrThrow(undefined, display, env), env, display);
    const listed: Partial<Record<Environment, readonly FlowRecord[]>> = {};
    for (const environment of environments) {
      listed[environment] = await clients.listFlowsOrThrow(environment, { what: `the flows of ${environment}` });
    }
    // What the service returned is printed; an echoing service may have put the secret or the token in it.
    io.stdout.write(clients.withoutCredentials(values.json ? `${JSON.stringify(listed, null, 2)}\n` : await formatFlows(listed, config)));
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io);
  } finally {
    await clients?.close();
  }
}

/** The config when there is one; `flows` also works from the environment variables alone. */
async function configOrUndefined(configPath: string | undefined, env: Env): Promise<ResolvedConfig | undefined> {
  try {
    return await loadConfigOrThrow(configPath, env);
  } catch (error) {
    if (configPath === undefined && error instanceof CodegenError && error.code === "CONFIG_NOT_FOUND") return undefined;
    throw error;
  }
}

async function formatFlows(listed: Partial<Record<Environment, readonly FlowRecord[]>>, config: ResolvedConfig | undefined): Promise<string> {
  const lines: string[] = [];
  for (const [environment, flows] of Object.entries(listed) as [Environment, readonly FlowRecord[]][]) {
    lines.push(`${environment}: ${flows.length} flow(s)`);
    const width = Math.max(0, ...flows.map((flow) => shown(flow.id).length));
    for (const flow of flows) {
      const entry = config ? await configEntryOfOrUndefined(config, flow.id, environment) : undefined;
      const fields = Object.entries(flow)
        .filter(([key]) => key !== "id" && key !== "environment")
        .map(([key, value]) => `${key} ${shown(value)}`);
      const added = config && entry ? [`in ${config.configDisplay} as ${entry.name ?? entry.pointer}`] : [];
      lines.push(`  ${shown(flow.id).padEnd(width)}  ${[...fields, ...added].join(", ")}`.trimEnd());
    }
  }
  return `${lines.join("\n")}\n`;
}

/** What the service returned, on one line: a plain string bare, anything else as JSON (no control characters reach the terminal). */
function shown(value: unknown): string {
  if (typeof value === "string" && /^[\w .:/@+-]*$/.test(value)) return value;
  // Values parsed from JSON: never undefined or a function, so always JSON text.
  return JSON.stringify(value);
}

function isEnvironment(value: string): value is Environment {
  return (ENVIRONMENTS as readonly string[]).includes(value);
}
