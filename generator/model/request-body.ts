/**
 * The operation's request body: which forms it declares, each built and
 * normalised, checked against each other when both exist, and how the
 * runtime sends it.
 */
import { appendPointer } from "../read/json-pointer.js";
import { followRefOrThrow, isRecord, ownValue, type BuildContext, type Located } from "./build-context.js";
import { assertSameRequestOrThrow } from "./form-comparison.js";
import { buildJsonFormOrThrow } from "./json-form.js";
import { buildMultipartFormOrThrow } from "./multipart-form.js";
import { normaliseRequestOrThrow } from "./request.js";
import { hasFile } from "./has-file.js";
import type { BodyForm, ObjectSchema } from "./types.js";

export interface RequestBody {
  readonly declaredBodyForms: readonly BodyForm[];
  readonly bodyForm: BodyForm;
  readonly request: ObjectSchema;
}

const MEDIA_TYPES: Readonly<Record<BodyForm, string>> = { json: "application/json", multipart: "multipart/form-data" };

/**
 * With both forms, the multipart form is read in full and the JSON form is
 * checked to describe the same request (form-comparison.ts); it may then show
 * files too, since the flow is sent as multipart (docs/flow-descriptions.md, "Files").
 */
export function readRequestBodyOrThrow(context: BuildContext, operation: Located): RequestBody {
  const media = mediaByFormOrThrow(context, operation);
  const jsonUse = media.multipart ? "json-beside-multipart" : "json";
  const json =
    media.json && normaliseRequestOrThrow(context, buildJsonFormOrThrow(context, media.json, jsonUse), "json");
  const multipart =
    media.multipart &&
    normaliseRequestOrThrow(context, buildMultipartFormOrThrow(context, media.multipart), "multipart");
  if (json && multipart) assertSameRequestOrThrow(context, json, multipart);
  const declaredBodyForms = (["json", "multipart"] as const).filter((form) => media[form] !== undefined);
  // The multipart tree is kept when both exist: only it carries the part names.
  if (multipart)
    return { declaredBodyForms, bodyForm: hasFile(multipart) || !json ? "multipart" : "json", request: multipart };
  return { declaredBodyForms, bodyForm: "json", request: json as ObjectSchema };
}

function mediaByFormOrThrow(context: BuildContext, operation: Located): Partial<Record<BodyForm, Located>> {
  const declared = isRecord(operation.value) ? ownValue(operation.value, "requestBody") : undefined;
  const bodyPointer = appendPointer(operation.pointer, "requestBody");
  if (declared === undefined) {
    throw context.error("NO_REQUEST_BODY", "the createSession operation has no requestBody", operation.pointer);
  }
  const body = followRefOrThrow(context, { value: declared, pointer: bodyPointer, trail: [] });
  const content = isRecord(body.value) ? ownValue(body.value, "content") : undefined;
  const out: Partial<Record<BodyForm, Located>> = {};
  for (const key of isRecord(content) ? Object.keys(content) : []) {
    // Media type parameters (`; charset=utf-8`) and case do not change the form.
    const type = key.split(";")[0]?.trim().toLowerCase();
    const form = (Object.keys(MEDIA_TYPES) as BodyForm[]).find((candidate) => MEDIA_TYPES[candidate] === type);
    if (!form || out[form] || !isRecord(content)) continue;
    const media = followRefOrThrow(context, {
      value: content[key],
      pointer: appendPointer(body.pointer, "content", key),
      trail: [],
    });
    if (!isRecord(media.value) || ownValue(media.value, "schema") === undefined) {
      throw context.error("NO_REQUEST_BODY", `the ${String(type)} request body has no schema`, media.pointer);
    }
    out[form] = media;
  }
  if (!out.json && !out.multipart) {
    const found = isRecord(content) ? Object.keys(content).join(", ") : "";
    throw context.error(
      "NO_REQUEST_BODY",
      `the request body has neither application/json nor multipart/form-data content${found ? ` (found: ${found})` : ""}`,
      body.pointer,
    );
  }
  return out;
}
