/**
 * `flowsmith flows [--environment staging|live] [--json] [--config <path>]`:
 * parses its options, runs runFlows (generator/fetch/list-flows.ts: the
 * flows the service publishes to an environment, with every field it
 * returns, scrubbed of credentials, and which of them the config already
 * has), and prints them. Same service config and credentials as codegen.
 */
import { ENVIRONMENTS, type Environment, type FlowRecord } from "@flowsmith/runtime";
import { runFlows, type FlowsResult } from "../../generator/index.js";
import {
  EXIT,
  optionLines,
  parsedArgs,
  reportError,
  usageError,
  type CommandIo,
  type CommandOptions,
} from "../command.js";

const OPTIONS = {
  environment: {
    type: "string",
    arg: "<env>",
    help: "staging or live (default: each environment whose FLOWSMITH_<ENV>_CLIENT_ID is set)",
  },
  json: { type: "boolean", help: 'print {"<environment>": [<flow as the service returns it>, ...]}' },
  config: {
    type: "string",
    arg: "<path>",
    help: "the config file (default: the nearest codegen.config.json; without one, the environment variables alone are used)",
  },
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
  if (values.environment !== undefined && !isEnvironment(values.environment)) {
    return usageError("flows", `--environment must be staging or live; got ${JSON.stringify(values.environment)}`, io);
  }
  try {
    const listed = await runFlows({
      ...(values.config !== undefined ? { configPath: values.config } : {}),
      ...(values.environment !== undefined ? { environment: values.environment } : {}),
      env: io.env ?? process.env,
    });
    io.stdout.write(values.json ? `${JSON.stringify(byEnvironment(listed), null, 2)}\n` : formatFlows(listed));
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io);
  }
}

/** `{ "<environment>": [<flow as the service returned it>, ...] }`. */
function byEnvironment(listed: FlowsResult): Partial<Record<Environment, FlowRecord[]>> {
  return Object.fromEntries(
    listed.environments.map(({ environment, flows }) => [environment, flows.map((flow) => flow.shown)]),
  );
}

function formatFlows(listed: FlowsResult): string {
  const lines: string[] = [];
  for (const { environment, flows } of listed.environments) {
    lines.push(`${environment}: ${flows.length} flow(s)`);
    const width = Math.max(0, ...flows.map((flow) => shown(flow.shown.id).length));
    for (const flow of flows) {
      const fields = Object.entries(flow.shown)
        .filter(([key]) => key !== "id" && key !== "environment")
        .map(([key, value]) => `${key} ${shown(value)}`);
      const added = flow.inConfigAs !== undefined ? [`in ${listed.config ?? "the config"} as ${flow.inConfigAs}`] : [];
      lines.push(`  ${shown(flow.shown.id).padEnd(width)}  ${[...fields, ...added].join(", ")}`.trimEnd());
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
