/**
 * `flowsmith add <flowId> --environment <env> [--name] [--version] [--snapshot] [--config]`:
 * parses its arguments, runs runAdd (generator/fetch/add-flow.ts: the flow
 * fetched and checked, its snapshot stored, an api entry appended to the
 * config; nothing written unless all of that succeeds), and says what it added.
 */
import { ENVIRONMENTS, type Environment } from "@flowsmith/runtime";
import { runAdd, type AddOptions } from "../../generator/index.js";
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
  environment: { type: "string", arg: "<env>", help: "staging or live (required)" },
  name: {
    type: "string",
    arg: "<name>",
    help: "the entry's name: output folder and snapshot name (default: the description's title in kebab-case)",
  },
  version: {
    type: "string",
    arg: "<n>",
    help: "pin the flow version: refused, and nothing written, when the service publishes another one (default: no pin)",
  },
  snapshot: {
    type: "string",
    arg: "<path>",
    help: "where to keep the snapshot, a .json file relative to the config (default: flows/<name>.json)",
  },
  config: {
    type: "string",
    arg: "<path>",
    help: "the config file (default: the nearest codegen.config.json in this folder or above it; none: a new one here)",
  },
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

export async function run(args: readonly string[], io: CommandIo = process): Promise<number> {
  const parsed = parseAddArgs(args);
  if ("usageError" in parsed) return usageError("add", parsed.usageError, io);
  try {
    const added = await runAdd({ ...parsed, env: io.env ?? process.env });
    io.stdout.write(
      `Added "${added.name}" (flow ${parsed.flowId}, ${parsed.environment}, version ${added.version}) to ${added.created ? "a new " : ""}${added.config} ${added.pointer}; ` +
        `${added.snapshotWritten ? "snapshot" : "its snapshot is already"} ${added.snapshot}.\nRun \`npx flowsmith codegen\` to generate its client.\n`,
    );
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io);
  }
}

/** What runAdd takes from the command line. */
type AddArgs = Omit<AddOptions, "env">;

function parseAddArgs(args: readonly string[]): AddArgs | { readonly usageError: string } {
  const parsed = parsedArgs(args, OPTIONS, true);
  if ("usageError" in parsed) return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 1 || positionals[0] === undefined || positionals[0].trim() === "") {
    return { usageError: `expected one flow id (\`flowsmith flows\` lists them); got ${positionals.length}` };
  }
  const environment = values.environment;
  if (environment === undefined)
    return { usageError: "--environment staging|live is required (an API client reaches one environment)" };
  if (!(ENVIRONMENTS as readonly string[]).includes(environment))
    return { usageError: `--environment must be staging or live; got ${JSON.stringify(environment)}` };
  if (values.name !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(values.name)) {
    return {
      usageError: `--name must be lower-case letters, digits and hyphens, starting with a letter or digit; got ${JSON.stringify(values.name)}`,
    };
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
    ...(values.config !== undefined ? { configPath: values.config } : {}),
  };
}
