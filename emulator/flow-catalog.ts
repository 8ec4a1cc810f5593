/**
 * The flows the emulator serves, read through the generator's model, with
 * each flow's request validator compiled once from that model, so the
 * emulator and the generated clients agree on what is valid. One published
 * version per flow and environment, as in the service: two flows with the
 * same id and environment are refused at start (DUPLICATE_FLOW).
 */
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { Environment } from "@flowsmith/runtime";
import { linearRegExp } from "@flowsmith/runtime/linear-pattern";
import { checkOneVersionPerFlowOrThrow, hasFile, JSON_SCHEMA_AJV_OPTIONS, loadFlowsOrThrow, toJsonSchema, type FlowModel, type JsonSchema } from "../generator/index.js";
import { notFound } from "./errors.js";
import type { EmulatedFlow, EmulatorOptions } from "./options.js";
import { EMULATOR_DEFAULTS } from "./options.js";
import { PartTable } from "./part-names.js";
import { requestLimitsOf, type RequestLimits } from "./request-limits.js";

export interface CatalogFlow {
  readonly model: FlowModel;
  readonly document: unknown;
  readonly hasFiles: boolean;
  readonly parts: PartTable;
  readonly limits: RequestLimits;
  /** For both body forms: multipart parts are read as their declared types before (emulator/part-values.ts). */
  readonly validate: ValidateFunction;
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
    const flows = given.map((entry): EmulatedFlow => ("model" in entry ? entry : { model: entry }));
    checkOneVersionPerFlowOrThrow(flows.map((flow) => flow.model));
    return new FlowCatalog(
      flows.map((flow) => ({
        model: flow.model,
        document: flow.document,
        hasFiles: hasFile(flow.model.request),
        parts: new PartTable(flow.model.request),
        limits: requestLimitsOf(flow.model.request),
        validate: requestValidator(toJsonSchema(flow.model.request, { file: FILE_SCHEMA })),
      })),
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

/** Distinct request schemas whose validators are kept; bounds a process that starts emulators of ever new flows. */
const CAPACITY = 100;

/** Compiled validators by their schema's JSON text (toJsonSchema writes the same model the same way). */
const validators = new Map<string, ValidateFunction>();

let ajv: Ajv | undefined;

/**
 * One ajv per process, so the draft-07 meta-schema every schema is checked against is compiled
 * once, not at each start (it cost as much as a flow's own validator); and an emulator started
 * again in the same process (the tests start many) compiles no schema it compiled before.
 */
function requestValidator(schema: JsonSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  const known = validators.get(key);
  if (known) return known;
  if (!ajv) {
    // Patterns run on the runtime's linear-time engine: no request can make one backtrack and
    // block the emulator (the model refused, at load, any pattern the engine cannot run).
    ajv = new Ajv({ ...JSON_SCHEMA_AJV_OPTIONS, allErrors: true, strict: false, code: { regExp: linearRegExp } });
    addFormats(ajv);
  }
  const validate = ajv.compile(schema);
  // ajv keeps every schema object it compiled; the validator needs none of it.
  ajv.removeSchema(schema);
  if (validators.size >= CAPACITY) validators.delete(validators.keys().next().value as string);
  validators.set(key, validate);
  return validate;
}

async function loadConfiguredFlowsOrThrow(configPath: string): Promise<EmulatedFlow[]> {
  const loaded = await loadFlowsOrThrow(configPath);
  return loaded.map((flow) => ({ model: flow.model, document: flow.description.document }));
}
