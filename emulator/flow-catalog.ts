/**
 * The flows the emulator serves, read through the generator's model, with
 * each flow's request validators compiled once from that model, so the
 * emulator and the generated clients agree on what is valid.
 */
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { Environment } from "@flowsmith/runtime";
import { JSON_SCHEMA_AJV_OPTIONS, loadFlowsOrThrow, toJsonSchema, type FlowModel, type JsonSchema, type Schema } from "../generator/index.js";
import { notFound } from "./errors.js";
import type { EmulatedFlow, EmulatorOptions } from "./options.js";
import { EMULATOR_DEFAULTS } from "./options.js";
import { PartTable } from "./part-names.js";

export interface CatalogFlow {
  readonly model: FlowModel;
  readonly document: unknown;
  readonly hasFiles: boolean;
  readonly parts: PartTable;
  readonly validateJson: ValidateFunction;
  /** Multipart values arrive as text, so this one coerces them to the declared types. */
  readonly validateMultipart: ValidateFunction;
}

/** What a received file becomes in the request the validator sees (a FileReference). */
const FILE_SCHEMA: JsonSchema = {
  type: "object",
  required: ["vaultEntryId"],
  properties: { vaultEntryId: { type: "string" } },
};

export class FlowCatalog {
  private constructor(private readonly flows: readonly CatalogFlow[]) {}

  static async loadOrThrow(options: EmulatorOptions): Promise<FlowCatalog> {
    const given = options.flows ?? (await loadConfiguredFlowsOrThrow(options.configPath ?? EMULATOR_DEFAULTS.configPath));
    const strict = withFormats(new Ajv({ ...JSON_SCHEMA_AJV_OPTIONS, allErrors: true, strict: false }));
    const coercing = withFormats(new Ajv({ ...JSON_SCHEMA_AJV_OPTIONS, allErrors: true, strict: false, coerceTypes: true }));
    return new FlowCatalog(
      given.map((entry) => {
        const flow: EmulatedFlow = "model" in entry ? entry : { model: entry };
        const schema = toJsonSchema(flow.model.request, { file: FILE_SCHEMA });
        return {
          model: flow.model,
          document: flow.document,
          hasFiles: hasFile(flow.model.request),
          parts: new PartTable(flow.model.request),
          validateJson: strict.compile(schema),
          validateMultipart: coercing.compile(schema),
        };
      }),
    );
  }

  inEnvironment(environment: Environment): readonly CatalogFlow[] {
    return this.flows.filter((flow) => flow.model.environment === environment);
  }

  /** Flows are published to one environment: the same id in the other one is not found. */
  findOrThrow(flowId: string, environment: Environment): CatalogFlow {
    const flow = this.flows.find((candidate) => candidate.model.id === flowId && candidate.model.environment === environment);
    if (!flow) throw notFound(`no flow "${flowId}" is published to ${environment}`);
    return flow;
  }
}

async function loadConfiguredFlowsOrThrow(configPath: string): Promise<EmulatedFlow[]> {
  const loaded = await loadFlowsOrThrow(configPath);
  return loaded.map((flow) => ({ model: flow.model, document: flow.description.document }));
}

function withFormats(ajv: Ajv): Ajv {
  addFormats(ajv);
  return ajv;
}

function hasFile(schema: Schema): boolean {
  switch (schema.kind) {
    case "file":
      return true;
    case "array":
      return hasFile(schema.items);
    case "object":
      return schema.properties.some((property) => hasFile(property.schema));
    default:
      return false;
  }
}
