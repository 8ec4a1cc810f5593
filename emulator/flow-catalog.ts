/**
 * The flows the emulator serves, read through the generator's model, with
 * each flow's request check made once from that model by the runtime's own
 * schema checker, so the emulator and the generated clients agree on what is
 * valid. One published
 * version per flow and environment, as in the service: two flows with the
 * same id and environment are refused at start (DUPLICATE_FLOW); a version
 * published later (the control API, --watch) replaces the one served.
 */
import type { Environment } from "@flowsmith/runtime";
import { schemaCheckOrThrow, type Check } from "@flowsmith/runtime/internal";
import { linearPatterns } from "@flowsmith/runtime/patterns";
import {
  checkOneVersionPerFlowOrThrow,
  hasFile,
  loadFlowsOrThrow,
  toJsonSchema,
  type FlowModel,
  type JsonSchema,
} from "../generator/index.js";
import { EmulatorControlError } from "./control-error.js";
import { notFound } from "./errors.js";
import type { EmulatedFlow, FlowChange } from "./options.js";
import { PartTable } from "./part-names.js";
import { requestLimitsOf, type RequestLimits } from "./request-limits.js";

export interface CatalogFlow {
  readonly model: FlowModel;
  readonly document: unknown;
  readonly hasFiles: boolean;
  readonly parts: PartTable;
  readonly limits: RequestLimits;
  /** For both body forms: multipart parts are read as their declared types before (emulator/part-values.ts). */
  readonly validate: Check;
}

/** What a received file becomes in the request the validator sees (a FileReference). */
const FILE_SCHEMA: JsonSchema = {
  type: "object",
  required: ["vaultEntryId"],
  properties: { vaultEntryId: { type: "string" } },
};

/** Where a served flow came from: the config (or `flows`), or POST /__emulator/flows. */
type Origin = "config" | "published";

interface Served {
  readonly flow: CatalogFlow;
  readonly origin: Origin;
}

/** A flow published over one already served: the version it replaced (null: none). */
export interface Publication {
  readonly flowId: string;
  readonly environment: Environment;
  readonly flowVersion: number;
  readonly previousVersion: number | null;
}

/** Flows served at most, published ones included: a test publishing a new id per run cannot grow it without bound. */
export const MAX_FLOWS = 1000;

/**
 * One version per flow id and environment, as the service publishes them; a
 * new version replaces the one served (sessions keep the version they were
 * created with). The config's flows are tracked by their description's hash,
 * so a reload publishes only what changed in the files and keeps a version
 * published over the control API until the file itself changes.
 */
export class FlowCatalog {
  /** By `environment/id`, in the order first published. */
  private readonly served = new Map<string, Served>();
  /** The config's flows at the last load, by key: their description's sha256. */
  private configured = new Map<string, string>();

  private constructor() {}

  static createOrThrow(flows: readonly (FlowModel | EmulatedFlow)[]): FlowCatalog {
    const catalog = new FlowCatalog();
    catalog.loadConfiguredOrThrow(flows);
    return catalog;
  }

  /**
   * The config's flows, read again: new or changed ones published, ones gone
   * from the config withdrawn (unless published over since). All or nothing:
   * a set that breaks a rule changes nothing.
   */
  loadConfiguredOrThrow(given: readonly (FlowModel | EmulatedFlow)[]): FlowChange[] {
    const flows = given.map((entry): EmulatedFlow => ("model" in entry ? entry : { model: entry }));
    checkOneVersionPerFlowOrThrow(flows.map((flow) => flow.model));
    const compiled = flows.map((flow) => ({
      key: keyOf(flow.model),
      sha256: flow.model.source.sha256,
      flow: catalogFlowOf(flow),
    }));
    const changes: FlowChange[] = [];
    for (const { key, sha256, flow } of compiled) {
      const { id: flowId, environment, version } = flow.model;
      if (this.configured.get(key) === sha256) {
        changes.push({
          flowId,
          environment,
          version: this.served.get(key)?.flow.model.version ?? version,
          change: "unchanged",
        });
        continue;
      }
      changes.push({ flowId, environment, version, change: this.served.has(key) ? "changed" : "added" });
      this.served.set(key, { flow, origin: "config" });
    }
    const kept = new Set(compiled.map(({ key }) => key));
    for (const key of this.configured.keys()) {
      const served = this.served.get(key);
      if (kept.has(key) || served?.origin !== "config") continue;
      this.served.delete(key);
      const { id: flowId, environment, version } = served.flow.model;
      changes.push({ flowId, environment, version, change: "removed" });
    }
    this.configured = new Map(compiled.map(({ key, sha256 }) => [key, sha256]));
    return changes;
  }

  /** POST /__emulator/flows: served from now on, in place of the version served before. */
  publish(flow: EmulatedFlow): Publication {
    const key = keyOf(flow.model);
    const previous = this.served.get(key);
    if (!previous && this.served.size >= MAX_FLOWS) {
      throw new EmulatorControlError(
        "TOO_MANY_FLOWS",
        `the emulator serves at most ${String(MAX_FLOWS)} flows; POST /__emulator/reset does not drop flows, restart it`,
      );
    }
    this.served.set(key, { flow: catalogFlowOf(flow), origin: "published" });
    const { id: flowId, environment, version: flowVersion } = flow.model;
    return { flowId, environment, flowVersion, previousVersion: previous?.flow.model.version ?? null };
  }

  inEnvironment(environment: Environment): readonly CatalogFlow[] {
    return [...this.served.values()].map(({ flow }) => flow).filter((flow) => flow.model.environment === environment);
  }

  /** Flows are published to one environment: the same id in the other one is not found. */
  findOrThrow(flowId: string, environment: Environment): CatalogFlow {
    const served = this.served.get(`${environment}/${flowId}`);
    if (!served) throw notFound(`no flow "${flowId}" is published to ${environment}`);
    return served.flow;
  }
}

function keyOf(model: FlowModel): string {
  return `${model.environment}/${model.id}`;
}

function catalogFlowOf(flow: EmulatedFlow): CatalogFlow {
  return {
    model: flow.model,
    document: flow.document,
    hasFiles: hasFile(flow.model.request),
    parts: new PartTable(flow.model.request),
    limits: requestLimitsOf(flow.model.request),
    // Patterns run on the runtime's linear-time engine: no request can make one backtrack and block the
    // emulator. One the engine cannot run is left out of the schema (the model says so): not checked here either.
    validate: schemaCheckOrThrow(toJsonSchema(flow.model.request, { file: FILE_SCHEMA }), { patterns: linearPatterns }),
  };
}

/** The flows of a config. `configPath` absolute, found once by the caller (configPathOrThrow). */
export async function readConfiguredFlowsOrThrow(configPath: string): Promise<EmulatedFlow[]> {
  const loaded = await loadFlowsOrThrow(configPath);
  return loaded.map((flow) => ({ model: flow.model, document: flow.description.document }));
}
