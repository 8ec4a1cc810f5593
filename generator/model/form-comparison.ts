/**
 * A document with both body forms must describe one request: the same leaf
 * paths, the same required-ness, the same kinds. The first difference is
 * reported, because guessing which form is right would be wrong half the time.
 */
import type { BuildContext } from "./build-context.js";
import type { Schema } from "./types.js";
import { valueText } from "../read/value-text.js";

export function assertSameRequestOrThrow(context: BuildContext, json: Schema, multipart: Schema): void {
  const difference = firstDifference(json, multipart, "request");
  if (difference) {
    throw context.error(
      "INVALID_SCHEMA",
      `the JSON and multipart forms describe different requests at ${difference.path}: ${difference.what}`,
      difference.pointer,
    );
  }
}

interface Difference {
  readonly path: string;
  readonly what: string;
  readonly pointer: string;
}

function firstDifference(json: Schema, multipart: Schema, path: string): Difference | undefined {
  const at = (what: string): Difference => ({ path, what, pointer: multipart.pointer });
  if (json.kind !== multipart.kind) return at(`${json.kind} in JSON, ${multipart.kind} in multipart`);
  if (json.kind === "array" && multipart.kind === "array")
    return firstDifference(json.items, multipart.items, `${path}[]`);
  if (json.kind !== "object" || multipart.kind !== "object") return undefined;
  const jsonByName = new Map(json.properties.map((property) => [property.name, property]));
  const multipartNames = new Set(multipart.properties.map((property) => property.name));
  const onlyJson = json.properties.find((property) => !multipartNames.has(property.name));
  if (onlyJson) return at(`${valueText(onlyJson.name)} is only in the JSON form`);
  for (const property of multipart.properties) {
    const twin = jsonByName.get(property.name);
    const childPath = `${path}.${property.name}`;
    if (!twin) return { path: childPath, what: "only in the multipart form", pointer: property.schema.pointer };
    if (twin.required !== property.required) {
      return {
        path: childPath,
        what: `${property.required ? "required" : "optional"} in multipart, ${twin.required ? "required" : "optional"} in JSON`,
        pointer: property.schema.pointer,
      };
    }
    const inner = firstDifference(twin.schema, property.schema, childPath);
    if (inner) return inner;
  }
  return undefined;
}
