/**
 * `flowsmith init`: from nothing to a generated client. Finds the flow
 * descriptions under the working directory (init/find-descriptions.ts), or
 * lists the service's flows with the FLOWSMITH_* credentials; asks which to
 * use and where the clients go on a terminal (@clack/prompts), takes flags
 * otherwise; writes codegen.config.json (never over an existing one), runs
 * the first codegen (the codegen command itself), and prints a first call
 * (init/first-call.ts).
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { ENV, type UserFlowConfig } from "../../generator/config/config-types.js";
import { writeNewConfigOrThrow } from "../../generator/config/append-flow.js";
import { configFromTextOrThrow, DEFAULT_CONFIG_FILE, DEFAULT_SCHEMA_PATH, findConfigOrUndefined, newConfig, resolveServiceOrThrow, type Env } from "../../generator/config/load-config.js";
import { CodegenError } from "../../generator/errors.js";
import { fetchApiFlowOrThrow, namedApiFlowOrThrow, removeNewSnapshot, writePreparedSnapshotOrThrow, type FetchedApiFlow, type PreparedApiFlow } from "../../generator/fetch/api-flow.js";
import { isFolder, isTaken } from "../../generator/file-checks.js";
import { environmentsWithClientId, noApiClientError, ServiceClients } from "../../generator/fetch/service-clients.js";
import { firstCallSnippet } from "../../generator/init/first-call.js";
import { FIND_LIMITS, findDescriptions, type FoundDescription } from "../../generator/init/find-descriptions.js";
import { askInteractively, type Choices, type ListedFlow } from "../../generator/init/prompts.js";
import type { FlowModel } from "../../generator/model/types.js";
import { MANIFEST_FILE } from "../../generator/output/manifest.js";
import { assertOutputDirSafeOrThrow } from "../../generator/output/output-safety.js";
import { checkChosenDescriptionsOrThrow, uniqueNames } from "../../generator/unique-flows.js";
import { EXIT, optionLines, parsedArgs, reportError, usageError, type CommandIo, type CommandOptions } from "../command.js";

const OPTIONS = {
  yes: { type: "boolean", help: "use every flow found (or listed) and the default outputDir without asking" },
  "from-api": { type: "boolean", help: "flows from the service instead of files (their descriptions are kept as snapshots in flows/)" },
  flow: { type: "string", multiple: true, arg: "<id>", help: "only this flow (repeatable): its flow id, its name, or (a file) its path" },
  "output-dir": { type: "string", arg: "<dir>", help: "where the clients go (default: src/generated when ./src exists, else generated)" },
} as const satisfies CommandOptions;

export const usage = `Usage: flowsmith init [options]

Starts a project: finds the flow descriptions under this folder (not in
node_modules, .git or generated output), or with --from-api lists the flows
the service publishes (FLOWSMITH_BASE_URL, FLOWSMITH_AUTH_URL and
FLOWSMITH_<ENV>_CLIENT_ID/_SECRET); writes codegen.config.json here with
$schema; runs the first \`flowsmith codegen\`; prints a first call. On a
terminal it asks which flows and where the clients go; otherwise it takes
the flags below. It never overwrites a codegen.config.json.

Options:
${optionLines(OPTIONS)}

Without a terminal, pass --yes or at least one --flow.

Exit codes: 0 done, 1 an error (a config already here, nothing found, the service), 2 usage error.
`;

/** One flow the config will list. */
interface Planned {
  readonly entry: UserFlowConfig & { readonly name: string };
  readonly model: FlowModel;
  /** An api flow's snapshot, written before the config. */
  readonly prepared?: PreparedApiFlow;
}

export async function run(args: readonly string[], io: CommandIo = process): Promise<number> {
  const parsed = parsedArgs(args, OPTIONS, false);
  if ("usageError" in parsed) return usageError("init", parsed.usageError, io);
  const { values } = parsed;
  const interactive = !values.yes && (io.stdin ?? process.stdin).isTTY === true && io.stdout.isTTY === true;
  if (!interactive && !values.yes && !values.flow?.length) {
    return usageError("init", "no terminal to ask on: pass --yes to use every flow found, or --flow <id> for each flow to use", io);
  }
  const env = io.env ?? process.env;
  const cwd = process.cwd();
  const configPath = path.join(cwd, DEFAULT_CONFIG_FILE);
  if (await isTaken(configPath)) {
    io.stderr.write(`flowsmith init: ${DEFAULT_CONFIG_FILE} already exists here; init never overwrites a config. \`npx flowsmith add\` adds a flow to it, \`npx flowsmith codegen\` generates.\n`);
    return EXIT.failed;
  }
  const above = await findConfigOrUndefined(path.dirname(cwd));
  if (above) io.stderr.write(`note: ${above} is a config of a folder above; init starts a separate one here.\n`);
  let clients: ServiceClients | undefined;
  // Made on first use: a run from files never needs the service.
  const service = () => (clients ??= new ServiceClients(resolveServiceOrThrow(undefined, DEFAULT_CONFIG_FILE, env), env, DEFAULT_CONFIG_FILE));
  try {
    const outputDefault = values["output-dir"] ?? ((await isFolder(path.join(cwd, "src"))) ? "src/generated" : "generated");
    const fromApi = values["from-api"] ?? false;
    const found = fromApi ? { found: [], skipped: [], truncated: false } : await findDescriptions(cwd);
    for (const file of found.skipped) io.stderr.write(`note: ${file.display} is not a flow description flowsmith can generate (${file.why})\n`);
    if (found.truncated) {
      io.stderr.write(`note: stopped looking after ${String(FIND_LIMITS.maxFiles)} files (nearest folders first); a description not found can be added to the "flows" of codegen.config.json by hand\n`);
    }
    // Nothing to ask about: no description here, and no API client to list the service's flows with.
    if (!fromApi && found.found.length === 0 && environmentsWithClientId(env).length === 0) throw noDescriptionError(cwd);
    const base = { outputDir: outputDefault, flows: values.flow ?? [] };
    const choices: Choices | "cancelled" = interactive
      ? await askInteractively({
          found: found.found,
          fromApi,
          credentials: environmentsWithClientId(env),
          outputDir: outputDefault,
          outputDirGiven: values["output-dir"] !== undefined,
          flows: base.flows,
          listApi: () => listedFlowsOrThrow(service(), env),
        })
      : { ...base, source: fromApi ? "api" : "files" };
    if (choices === "cancelled") {
      io.stderr.write("flowsmith init: cancelled; nothing was written.\n");
      return EXIT.failed;
    }
    const start = newConfig(configPath, env, choices.outputDir);
    await assertOutputDirSafeOrThrow(start.config, true);
    await refuseFilledOutputDirOrThrow(start.config.outputDir, start.config.outputDisplay);
    let planned: Planned[];
    if (choices.source === "api") {
      planned = await plannedApiFlowsOrThrow(choices, start.config, service(), env);
    } else {
      planned = plannedFileFlowsOrThrow(found.found, choices, cwd);
    }
    const text = configText(await schemaPath(cwd), choices.outputDir, planned, choices.source === "api" ? start.config.service : undefined);
    configFromTextOrThrow(text, configPath, env);
    await writeAllOrThrow(configPath, text, planned);
    io.stdout.write(`Wrote ${DEFAULT_CONFIG_FILE} with ${planned.length} flow(s): ${planned.map((flow) => flow.entry.name).join(", ")}.\n`);
    const { run: codegen } = await import("./codegen.js");
    const code = await codegen(["--config", configPath], io);
    if (code !== EXIT.ok) {
      io.stderr.write(`flowsmith init: ${DEFAULT_CONFIG_FILE} was written, but the first codegen failed (above); fix that and run \`npx flowsmith codegen\`.\n`);
      return EXIT.failed;
    }
    printFirstCall(planned, choices.outputDir, cwd, io);
    return EXIT.ok;
  } catch (error) {
    return reportError(error, io);
  } finally {
    await clients?.close();
  }
}

function plannedFileFlowsOrThrow(found: readonly FoundDescription[], choices: Choices, cwd: string): Planned[] {
  const wanted = choices.selected ?? found.filter((file) => matches(choices.flows, [file.model.id, file.model.name, file.display]));
  refuseUnmatchedOrThrow(choices.flows, found.map((file) => [file.model.id, file.model.name, file.display]));
  if (wanted.length === 0) throw noDescriptionError(cwd);
  // Two copies of one flow (an old download kept beside the new): codegen would refuse the config, so none is written.
  checkChosenDescriptionsOrThrow(wanted);
  const names = uniqueNames(wanted.map((file) => file.model));
  return wanted.map((file, index) => {
    const name = names[index] ?? file.model.name;
    return { entry: { name, source: { file: file.display } }, model: file.model };
  });
}

/** Every flow the service lists in each environment whose API client is set. */
async function listedFlowsOrThrow(clients: ServiceClients, env: Env): Promise<ListedFlow[]> {
  const environments = environmentsWithClientId(env);
  if (environments.length === 0) throw noApiClientError();
  const listed: ListedFlow[] = [];
  for (const environment of environments) {
    for (const record of await clients.listFlowsOrThrow(environment, { what: `the flows of ${environment}` })) {
      const about = Object.entries(record)
        .filter(([key, value]) => key !== "id" && key !== "environment" && (typeof value === "string" || typeof value === "number"))
        .map(([key, value]) => `${key} ${clients.withoutCredentials(String(value)).replace(/[^\w .:/@+-]/g, "?")}`)
        .join(", ");
      listed.push({ flowId: record.id, environment, about });
    }
  }
  return listed;
}

async function plannedApiFlowsOrThrow(choices: Choices, config: ReturnType<typeof newConfig>["config"], clients: ServiceClients, env: Env): Promise<Planned[]> {
  let wanted = choices.selectedApi;
  if (!wanted) {
    const listed = await listedFlowsOrThrow(clients, env);
    refuseUnmatchedOrThrow(choices.flows, listed.map((flow) => [flow.flowId]));
    wanted = listed.filter((flow) => matches(choices.flows, [flow.flowId]));
  }
  if (wanted.length === 0) {
    throw new CodegenError("NO_FLOWS_FOUND", `the service lists no flows for ${environmentsWithClientId(env).join(" or ") || "any environment"}; publish one in the dashboard, or set the API client of the other environment`);
  }
  // Named as files are: a title two flows share (a flow in staging and in live, under one id or two) gets the environment.
  const fetched: FetchedApiFlow[] = [];
  for (const [index, flow] of wanted.entries()) fetched.push(await fetchApiFlowOrThrow({ flowId: flow.flowId, environment: flow.environment }, config, clients, index));
  const names = uniqueNames(fetched.map((flow) => flow.model));
  const planned: Planned[] = [];
  for (const [index, flow] of fetched.entries()) {
    const prepared = await namedApiFlowOrThrow(flow, names[index] ?? flow.model.name, config, planned.map((done) => done.entry.name));
    planned.push({ entry: { ...prepared.entry, name: prepared.entry.name ?? prepared.model.name }, model: prepared.model, prepared });
  }
  return planned;
}

function noDescriptionError(cwd: string): CodegenError {
  return new CodegenError(
    "NO_FLOWS_FOUND",
    `no flow description found under ${cwd} (node_modules, .git and generated output are not searched): download one from the dashboard ` +
      `(flow versions view) into this folder, for example flows/onboarding.yaml, or pass --from-api with ${ENV.baseUrl}, ${ENV.authUrl} and ${ENV.clientId.staging}/_SECRET set`,
  );
}

function matches(wanted: readonly string[], keys: readonly string[]): boolean {
  return wanted.length === 0 || keys.some((key) => wanted.includes(key));
}

function refuseUnmatchedOrThrow(wanted: readonly string[], keys: readonly (readonly string[])[]): void {
  const unknown = wanted.filter((flow) => !keys.some((each) => each.includes(flow)));
  if (unknown.length === 0) return;
  throw new CodegenError("UNKNOWN_FLOW", `--flow ${unknown.join(", ")}: no such flow (found: ${keys.map((each) => each[0]).join(", ") || "none"})`);
}

/** The config as init writes it: one flow a line, as `flowsmith add` appends them. */
function configText(schema: string, outputDir: string, planned: readonly Planned[], service: ReturnType<typeof newConfig>["config"]["service"] | undefined): string {
  const line = (value: unknown) => JSON.stringify(value, null, 1).replace(/\n\s*/g, " ");
  const serviceLine = service?.baseUrl && service.authUrl ? [`  "service": ${line({ baseUrl: service.baseUrl.value, authUrl: service.authUrl.value })},`] : [];
  return [
    "{",
    `  "$schema": ${JSON.stringify(schema)},`,
    `  "outputDir": ${JSON.stringify(outputDir)},`,
    ...serviceLine,
    '  "flows": [',
    planned.map((flow) => `    ${line(flow.entry)}`).join(",\n"),
    "  ]",
    "}",
    "",
  ].join("\n");
}

/** Snapshots first, then the config, created (never replaced); a config that cannot be created takes the new snapshots back. */
async function writeAllOrThrow(configPath: string, text: string, planned: readonly Planned[]): Promise<void> {
  const written: PreparedApiFlow[] = [];
  try {
    for (const flow of planned) {
      if (flow.prepared && (await writePreparedSnapshotOrThrow(flow.prepared))) written.push(flow.prepared);
    }
    await writeNewConfigOrThrow(configPath, text);
  } catch (error) {
    await Promise.all(written.map(removeNewSnapshot));
    throw error;
  }
}

/** codegen refuses a first run into a folder holding files; say it before anything is written. */
async function refuseFilledOutputDirOrThrow(outputDir: string, display: string): Promise<void> {
  const entries = await readdir(outputDir).catch((): string[] => []);
  if (entries.length === 0 || entries.includes(MANIFEST_FILE)) return;
  throw new CodegenError("OUTPUT_DIR_NOT_EMPTY", `${display} already holds files (${entries.slice(0, 5).join(", ")}); choose another folder with --output-dir, one flowsmith can own`);
}

/** `$schema`: the installed flowsmith's schema, relative to the config, when it is in a node_modules above; else the usual place. */
async function schemaPath(cwd: string): Promise<string> {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", "flowsmith", "codegen.config.schema.json");
    if (await isTaken(candidate)) return `./${path.relative(cwd, candidate).split(path.sep).join("/")}`;
    if (path.dirname(dir) === dir) return DEFAULT_SCHEMA_PATH;
  }
}

function printFirstCall(planned: readonly Planned[], outputDir: string, cwd: string, io: CommandIo): void {
  const first = planned[0];
  if (!first) return;
  const folder = path.relative(cwd, path.resolve(cwd, outputDir)).split(path.sep).join("/");
  const snippet = firstCallSnippet({ ...first.model, name: first.entry.name }, `./${folder}/${first.entry.name}/index.js`);
  // The flow takes files: the call reads them from disk, so say which, or its first run ends in ENOENT.
  const files = [...new Set([...snippet.matchAll(/fileFromPath\("([\w.-]+)"\)/g)].map((match) => match[1]))];
  const reads = files.length > 0 ? `;\nit reads ${files.join(" and ")}: put such a file beside it;` : ";";
  io.stdout.write(
    `\nYour first call (for example first-call.mts beside ${DEFAULT_CONFIG_FILE}; \`npx tsx first-call.mts\` runs it${reads}\n` +
      `\`npx flowsmith emulator\` runs a local service and prints one JSON line for the FLOWSMITH_* variables:\n` +
      `baseUrl and authUrl are FLOWSMITH_BASE_URL and FLOWSMITH_AUTH_URL, clients.<environment> the client id and secret):\n\n${snippet}\n\n`,
  );
}
