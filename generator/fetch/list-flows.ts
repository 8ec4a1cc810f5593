/**
 * The flows the service publishes (GET /api/v1/flows/{environment},
 * docs/service.md 4), for `flowsmith flows` (runFlows: with which of them
 * the config already has) and `flowsmith init --from-api` (what it offers).
 * What the service returned is scrubbed of every credential before anything
 * else sees it: an echoing service may have put the secret or the token in it.
 */
import type { Environment, FlowRecord } from "@flowsmith/runtime";
import type { ResolvedConfig } from "../config/config-types.js";
import { DEFAULT_CONFIG_FILE, loadConfigOrThrow, resolveServiceOrThrow, type Env } from "../config/load-config.js";
import { CodegenError } from "../errors.js";
import { configEntryOfOrUndefined } from "./config-entry.js";
import { environmentsWithClientId, noApiClientError, ServiceClients } from "./service-clients.js";

/** A flow the service lists. */
export interface PublishedFlow {
  readonly environment: Environment;
  /** As the service returned it: what the flow is fetched and matched by. */
  readonly id: string;
  /** Every field the service returned, each client's secret and tokens scrubbed from its keys and values: safe to print. */
  readonly shown: FlowRecord;
}

export interface FlowsOptions {
  /** Default: the nearest codegen.config.json; without one, the environment variables alone. */
  readonly configPath?: string;
  /** Default: each environment whose FLOWSMITH_<ENV>_CLIENT_ID is set. */
  readonly environment?: Environment;
  readonly env: Env;
}

/** What `flowsmith flows` prints. */
export interface FlowsResult {
  /** The config read, as shown in messages; undefined when there is none. */
  readonly config?: string;
  /** Each environment listed, in order, with its flows (maybe none). */
  readonly environments: readonly {
    readonly environment: Environment;
    readonly flows: readonly (PublishedFlow & {
      /** The config's entry that generates it: its name, or its pointer when it has none. */
      readonly inConfigAs?: string;
    })[];
  }[];
}

export async function runFlows(options: FlowsOptions): Promise<FlowsResult> {
  const environments =
    options.environment !== undefined ? [options.environment] : environmentsWithClientId(options.env);
  if (environments.length === 0) throw noApiClientError();
  const config = await configOrUndefined(options.configPath, options.env);
  const display = config?.configDisplay ?? DEFAULT_CONFIG_FILE;
  const clients = new ServiceClients(
    config?.service ?? resolveServiceOrThrow(undefined, display, options.env),
    options.env,
    display,
  );
  try {
    const published = await publishedFlowsOrThrow(clients, environments);
    const listed = [];
    for (const environment of environments) {
      const flows = [];
      for (const flow of published.filter((each) => each.environment === environment)) {
        const entry = config ? await configEntryOfOrUndefined(config, flow.id, environment) : undefined;
        flows.push({ ...flow, ...(entry ? { inConfigAs: entry.name ?? entry.pointer } : {}) });
      }
      listed.push({ environment, flows });
    }
    return { ...(config ? { config: config.configDisplay } : {}), environments: listed };
  } finally {
    await clients.close();
  }
}

/** Every flow the service lists in each of `environments`, in that order. */
export async function publishedFlowsOrThrow(
  clients: ServiceClients,
  environments: readonly Environment[],
): Promise<PublishedFlow[]> {
  const published: PublishedFlow[] = [];
  for (const environment of environments) {
    for (const record of await clients.listFlowsOrThrow(environment, { what: `the flows of ${environment}` })) {
      published.push({ environment, id: record.id, shown: scrubbed(record, clients) as FlowRecord });
    }
  }
  return published;
}

/** The config when there is one; `flows` also works from the environment variables alone. */
async function configOrUndefined(configPath: string | undefined, env: Env): Promise<ResolvedConfig | undefined> {
  try {
    return await loadConfigOrThrow(configPath, env);
  } catch (error) {
    if (configPath === undefined && error instanceof CodegenError && error.code === "CONFIG_NOT_FOUND")
      return undefined;
    throw error;
  }
}

/** A value parsed from the service's JSON, every string in it (keys too) scrubbed. */
function scrubbed(value: unknown, clients: ServiceClients): unknown {
  if (typeof value === "string") return clients.withoutCredentials(value);
  if (Array.isArray(value)) return value.map((item) => scrubbed(item, clients));
  if (typeof value !== "object" || value === null) return value;
  // fromEntries defines each key as the object's own, "__proto__" included.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [clients.withoutCredentials(key), scrubbed(item, clients)]),
  );
}
