/**
 * The judge's own reading of a parsed description, as little as it needs:
 * `#/...` references, the createSession operation, its request body's media
 * types and its 201 response body.
 */

export type JsonObject = Record<string, unknown>;

export interface Operation {
  /** The request body's media type objects by form, under the keys as written (`application/json; charset=utf-8`). */
  readonly json?: { readonly key: string; readonly media: JsonObject };
  readonly multipart?: { readonly key: string; readonly media: JsonObject };
  /** The 201 response's `application/json` media type object. */
  readonly created?: JsonObject;
}

export function operationOf(document: unknown): Operation {
  const [item] = Object.values(objectOrUndefined(objectOrUndefined(document)?.["paths"]) ?? {});
  const operation = resolve(document, objectOrUndefined(item)?.["post"]);
  const content = objectOrUndefined(resolve(document, operation?.["requestBody"])?.["content"]) ?? {};
  // The first key of each form, as the generator finds it (generator/model/request-body.ts).
  const form = (type: string): { key: string; media: JsonObject } | undefined => {
    const key = Object.keys(content).find((each) => each.split(";")[0]?.trim().toLowerCase() === type);
    const media = key === undefined ? undefined : resolve(document, content[key]);
    return key === undefined || !media ? undefined : { key, media };
  };
  const created = resolve(document, objectOrUndefined(resolve(document, operation?.["responses"]))?.["201"]);
  const json = form("application/json");
  const multipart = form("multipart/form-data");
  const body = resolve(document, objectOrUndefined(created?.["content"])?.["application/json"]);
  return { ...(json ? { json } : {}), ...(multipart ? { multipart } : {}), ...(body ? { created: body } : {}) };
}

/** The object `value` is, or refers to (`#/...`; the generator refuses any other reference). */
export function resolve(document: unknown, value: unknown): JsonObject | undefined {
  let node = objectOrUndefined(value);
  for (let hops = 0; node && typeof node["$ref"] === "string" && hops < 32; hops += 1) {
    const ref = node["$ref"];
    if (!ref.startsWith("#/")) return undefined;
    const tokens = ref.slice(2).split("/").map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
    node = objectOrUndefined(tokens.reduce<unknown>((at, token) => objectOrUndefined(at)?.[token], document));
  }
  return node;
}

export function objectOrUndefined(value: unknown): JsonObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}
