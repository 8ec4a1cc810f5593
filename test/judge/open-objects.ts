/**
 * The one adapter the judge applies to the document rather than to types.
 *
 * An object schema without `additionalProperties` admits any other key:
 * JSON Schema says so, the service's validation does, and so do our types
 * (`[key: string]: unknown`). openapi-typescript reads it as closed: no index
 * signature, and `Record<string, never>` for an object without properties.
 * A type cannot undo that: after it, "left out" and `false` look alike. So
 * before openapi-typescript reads the document, the judge writes
 * `additionalProperties: true` where the JSON form and the response leave it
 * out; both readings then say the same thing, and `false` stays `false`.
 *
 * Not in the multipart form (every part is declared by name: its objects
 * are closed, as openapi-typescript reads them), nor in a JSON form beside
 * one (our types come from the multipart form then), nor on the request
 * itself and `metadata`, whose keys the service fixes (adapters.ts,
 * TheirsInFrame, as for `input` with data blocks).
 */
import { objectOrUndefined, operationOf, resolve } from "./document.js";

export interface OpenObjectsScope {
  /** Open the JSON form's objects (not beside a multipart form). */
  readonly jsonForm: boolean;
}

/** Adds `additionalProperties: true` in place; `document` is the judge's own parse. */
export function openObjects(document: unknown, scope: OpenObjectsScope): void {
  const operation = operationOf(document);
  const done = new Set<unknown>();
  const open = (schema: unknown): void => {
    const node = resolve(document, schema);
    if (!node || done.has(node)) return;
    done.add(node);
    if ((node["type"] === "object" || "properties" in node) && !("additionalProperties" in node))
      node["additionalProperties"] = true;
    for (const child of Object.values(objectOrUndefined(node["properties"]) ?? {})) open(child);
    for (const member of Array.isArray(node["allOf"]) ? node["allOf"] : []) open(member);
    open(node["items"]);
    open(node["additionalProperties"]);
  };
  if (scope.jsonForm && operation.json) {
    const root = resolve(document, operation.json.media["schema"]);
    // `input` too: without data blocks its extra keys are typed as it says (with blocks, TheirsInFrame closes it).
    open(objectOrUndefined(root?.["properties"])?.["input"]);
  }
  open(operation.created?.media["schema"]);
}
