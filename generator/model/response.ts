/** The 201 response body (docs/service.md 2.3), as the document describes it. */
import { appendPointer } from "../read/json-pointer.js";
import { followRefOrThrow, isRecord, ownValue, type BuildContext, type Located } from "./build-context.js";
import { convertSchemaOrThrow } from "./schema.js";
import type { Schema } from "./types.js";

export function readResponseOrThrow(context: BuildContext, operation: Located): Schema {
  const responses = isRecord(operation.value) ? ownValue(operation.value, "responses") : undefined;
  const declared = isRecord(responses) ? ownValue(responses, "201") : undefined;
  const responsesPointer = appendPointer(operation.pointer, "responses");
  if (declared === undefined) {
    throw context.error(
      "NOT_A_FLOW_DESCRIPTION",
      "the operation has no 201 response (the created session)",
      responsesPointer,
    );
  }
  const response = followRefOrThrow(context, {
    value: declared,
    pointer: appendPointer(responsesPointer, "201"),
    trail: [],
  });
  const content = isRecord(response.value) ? ownValue(response.value, "content") : undefined;
  const key = isRecord(content)
    ? Object.keys(content).find((type) => type.split(";")[0]?.trim().toLowerCase() === "application/json")
    : undefined;
  const media = key !== undefined && isRecord(content) ? ownValue(content, key) : undefined;
  const schema = isRecord(media) ? ownValue(media, "schema") : undefined;
  if (key === undefined || schema === undefined) {
    throw context.error("NOT_A_FLOW_DESCRIPTION", "the 201 response has no application/json schema", response.pointer);
  }
  const pointer = appendPointer(response.pointer, "content", key, "schema");
  return convertSchemaOrThrow(context, { value: schema, pointer, trail: [] }, "response");
}
