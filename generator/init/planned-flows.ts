/**
 * The flows `flowsmith init` puts in the new config: of the descriptions
 * found, or of the flows the service lists, those chosen (asked, or by
 * --flow), named after their titles and made unique, each an entry ready to
 * append; an api flow's snapshot ready to write. Nothing is written here.
 */
import type { Environment } from "@flowsmith/runtime";
import type { ResolvedConfig, UserFlowConfig } from "../config/config-types.js";
import { CodegenError } from "../errors.js";
import {
  fetchApiFlowOrThrow,
  namedApiFlowOrThrow,
  type FetchedApiFlow,
  type PreparedApiFlow,
} from "../fetch/api-flow.js";
import { publishedFlowsOrThrow } from "../fetch/list-flows.js";
import { noApiClientError, type ServiceClients } from "../fetch/service-clients.js";
import type { FlowModel } from "../model/types.js";
import { checkChosenDescriptionsOrThrow, uniqueNames } from "../unique-flows.js";
import type { FoundDescription } from "./find-descriptions.js";
import type { Choices, ListedFlow } from "./prompts.js";

/** One flow the config will list. */
export interface PlannedFlow {
  readonly entry: UserFlowConfig & { readonly name: string };
  readonly model: FlowModel;
  /** An api flow's snapshot, written before the config. */
  readonly prepared?: PreparedApiFlow;
}

export function plannedFileFlowsOrThrow(
  found: readonly FoundDescription[],
  choices: Choices,
  noneFound: () => CodegenError,
): PlannedFlow[] {
  const wanted =
    choices.selected ?? found.filter((file) => matches(choices.flows, [file.model.id, file.model.name, file.display]));
  refuseUnmatchedOrThrow(
    choices.flows,
    found.map((file) => [file.model.id, file.model.name, file.display]),
  );
  if (wanted.length === 0) throw noneFound();
  // Two copies of one flow (an old download kept beside the new): codegen would refuse the config, so none is written.
  checkChosenDescriptionsOrThrow(wanted);
  const names = uniqueNames(wanted.map((file) => file.model));
  return wanted.map((file, index) => {
    const name = names[index] ?? file.model.name;
    return { entry: { name, source: { file: file.display } }, model: file.model };
  });
}

/** Every flow the service lists in each environment of `environments` (those whose API client is set), for the question. */
export async function listedFlowsOrThrow(
  clients: ServiceClients,
  environments: readonly Environment[],
): Promise<ListedFlow[]> {
  if (environments.length === 0) throw noApiClientError();
  return (await publishedFlowsOrThrow(clients, environments)).map((flow) => ({
    flowId: flow.id,
    environment: flow.environment,
    about: Object.entries(flow.shown)
      .filter(
        ([key, value]) =>
          key !== "id" && key !== "environment" && (typeof value === "string" || typeof value === "number"),
      )
      .map(([key, value]) => `${key} ${String(value).replace(/[^\w .:/@+-]/g, "?")}`)
      .join(", "),
  }));
}

export async function plannedApiFlowsOrThrow(
  choices: Choices,
  config: ResolvedConfig,
  clients: ServiceClients,
  environments: readonly Environment[],
): Promise<PlannedFlow[]> {
  let wanted = choices.selectedApi;
  if (!wanted) {
    const listed = await listedFlowsOrThrow(clients, environments);
    refuseUnmatchedOrThrow(
      choices.flows,
      listed.map((flow) => [flow.flowId]),
    );
    wanted = listed.filter((flow) => matches(choices.flows, [flow.flowId]));
  }
  if (wanted.length === 0) {
    throw new CodegenError(
      "NO_FLOWS_FOUND",
      `the service lists no flows for ${environments.join(" or ") || "any environment"}; publish one in the dashboard, or set the API client of the other environment`,
    );
  }
  // Named as files are: a title two flows share (a flow in staging and in live, under one id or two) gets the environment.
  const fetched: FetchedApiFlow[] = [];
  for (const [index, flow] of wanted.entries())
    fetched.push(
      await fetchApiFlowOrThrow({ flowId: flow.flowId, environment: flow.environment }, config, clients, index),
    );
  const names = uniqueNames(fetched.map((flow) => flow.model));
  const planned: PlannedFlow[] = [];
  for (const [index, flow] of fetched.entries()) {
    const prepared = await namedApiFlowOrThrow(
      flow,
      names[index] ?? flow.model.name,
      config,
      planned.map((done) => done.entry.name),
    );
    planned.push({
      entry: { ...prepared.entry, name: prepared.entry.name ?? prepared.model.name },
      model: prepared.model,
      prepared,
    });
  }
  return planned;
}

function matches(wanted: readonly string[], keys: readonly string[]): boolean {
  return wanted.length === 0 || keys.some((key) => wanted.includes(key));
}

function refuseUnmatchedOrThrow(wanted: readonly string[], keys: readonly (readonly string[])[]): void {
  const unknown = wanted.filter((flow) => !keys.some((each) => each.includes(flow)));
  if (unknown.length === 0) return;
  throw new CodegenError(
    "UNKNOWN_FLOW",
    `--flow ${unknown.join(", ")}: no such flow (found: ${keys.map((each) => each[0]).join(", ") || "none"})`,
  );
}
