/**
 * A loaded flow description into the FlowModel (types.ts) that the emitter,
 * the runtime metadata and the emulator share.
 */
import type { LoadedDescription } from "../read/load-description.js";
import { createBuildContext, isRecord, ownValue } from "./build-context.js";
import { readFlowInfoOrThrow } from "./flow-info.js";
import { flowNameFrom, nameFromTitleOrUndefined } from "./names.js";
import { readRequestBodyOrThrow } from "./request-body.js";
import { localesOf } from "./request.js";
import { readResponseOrThrow } from "./response.js";
import type { FlowModel } from "./types.js";

export interface BuildFlowModelOptions {
  /** The flow's name from the config; default: info.title in kebab-case, or one made from the flow id (names.ts). */
  readonly name?: string;
}

export function buildFlowModelOrThrow(loaded: LoadedDescription, options: BuildFlowModelOptions = {}): FlowModel {
  // Errors while info is read name the flow by its title when it gives a name (the flow id is not read yet).
  const early = options.name ?? nameFromTitleOrUndefined(titleOf(loaded.document));
  const { operation, ...info } = readFlowInfoOrThrow(createBuildContext(loaded, early));
  const name = options.name ?? flowNameFrom(info.title, info.id);
  const context = createBuildContext(loaded, name);
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

function titleOf(document: unknown): unknown {
  const info = isRecord(document) ? ownValue(document, "info") : undefined;
  return isRecord(info) ? ownValue(info, "title") : undefined;
}
