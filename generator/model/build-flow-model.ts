/**
 * A loaded flow description into the FlowModel (types.ts) that the emitter,
 * the runtime metadata and the emulator share.
 */
import type { LoadedDescription } from "../read/load-description.js";
import { createBuildContext, isRecord, ownValue } from "./build-context.js";
import { readFlowInfoOrThrow } from "./flow-info.js";
import { kebabCase } from "./names.js";
import { readRequestBodyOrThrow } from "./request-body.js";
import { localesOf } from "./request.js";
import { readResponseOrThrow } from "./response.js";
import type { FlowModel } from "./types.js";

export interface BuildFlowModelOptions {
  /** The flow's name from the config; default: info.title in kebab-case. */
  readonly name?: string;
}

export function buildFlowModelOrThrow(loaded: LoadedDescription, options: BuildFlowModelOptions = {}): FlowModel {
  const name = options.name ?? nameFromTitleOrThrow(loaded);
  const context = createBuildContext(loaded, name);
  const { operation, ...info } = readFlowInfoOrThrow(context);
  const { declaredBodyForms, bodyForm, request } = readRequestBodyOrThrow(context, operation);
  return {
    name,
    source: { file: loaded.file, sha256: loaded.sha256 },
    ...info,
    declaredBodyForms,
    bodyForm,
    request,
    locales: localesOf(request),
    response: readResponseOrThrow(context, operation),
  };
}

function nameFromTitleOrThrow(loaded: LoadedDescription): string {
  const info = isRecord(loaded.document) ? ownValue(loaded.document, "info") : undefined;
  const title = isRecord(info) ? ownValue(info, "title") : undefined;
  const name = typeof title === "string" ? kebabCase(title) : "";
  if (name === "") {
    throw createBuildContext(loaded, undefined).error(
      "NOT_A_FLOW_DESCRIPTION",
      `cannot derive a flow name from info.title ${JSON.stringify(title ?? null)} (no ASCII letters or digits); give the flow a name in codegen.config.json`,
      "#/info/title",
    );
  }
  return name;
}
