/**
 * The judge's own reading of a parsed description, as little as it needs:
 * `#/...` references, the createSession operation, its request body's media
 * types and its 201 response body.
 */

export type JsonObject = Record<string, unknown>;

interface Media {
  /** As written (`application/json; charset=utf-8`). */
  readonly key: string;
  readonly media: JsonObject;
}

export interface Operation {
  /** The request body's media type objects by form, under the keys as written (`application/json; charset=utf-8`). */
  readonly json?: Media;
  readonly multipart?: Media;
  /** The 201 response's `application/json` media type object. */
  readonly created?: Media;
}

export function operationOf(document: unknown): Operation {
  const [item] = Object.values(objectOrUndefined(objectOrUndefined(document)?.["paths"]) ?? {});
  const operation = resolve(document, objectOrUndefined(item)?.["post"]);
  const content = resolve(document, operation?.["requestBody"])?.["content"];
  const created = resolve(document, objectOrUndefined(operation?.["responses"])?.["201"]);
  const json = mediaOf(document, content, "application/json");
  const multipart = mediaOf(document, content, "multipart/form-data");
  const body = mediaOf(document, created?.["content"], "application/json");
  return { ...(json ? { json } : {}), ...(multipart ? { multipart } : {}), ...(body ? { created: body } : {}) };
}

/** The first media type of `content` whose type is `type`, parameters aside, as the generator finds it (generator/model/request-body.ts, response.ts). */
function mediaOf(document: unknown, content: unknown, type: string): Media | undefined {
  const media = objectOrUndefined(content) ?? {};
  const key = Object.keys(media).find((each) => each.split(";")[0]?.trim().toLowerCase() === type);
  const found = key === undefined ? undefined : resolve(document, media[key]);
  return key === undefined || !found ? undefined : { key, media: found };
}

/** The object `value` is, or refers to (`#/...`; the generator refuses any other reference). */
export function resolve(document: unknown, value: unknown): JsonObject | undefined {
  let node = objectOrUndefined(value);
  for (let hops = 0; node && typeof node["$ref"] === "string" && hops < 32; hops += 1) {
    const ref = node["$ref"];
    if (!ref.startsWith("#/")) return undefined;
    const tokens = ref
      .slice(2)
      .split("/")
      .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
    node = objectOrUndefined(tokens.reduce<unknown>((at, token) => objectOrUndefined(at)?.[token], document));
  }
  return node;
}

export function objectOrUndefined(value: unknown): JsonObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}
