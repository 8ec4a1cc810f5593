/**
 * Places in a request or response as the user writes them in code:
 * `input.basicIdentity.givenName`, `input.documentsToSign.documents[].source`,
 * `input["odd-block"]`, and multipart part names as the generated docs show
 * them (`@part`, emit/docs.ts).
 */
import type { JsonValue, PartName } from "../model/types.js";

/** A property key, every element of an array, or any extra key of an open object. */
export type Segment = { readonly key: string } | "[]" | "*";

export function locationOf(segments: readonly Segment[]): string {
  let out = "";
  for (const segment of segments) {
    if (segment === "[]") out += "[]";
    else if (segment === "*") out += out === "" ? "*" : ".*";
    // `__proto__` is quoted: `x.__proto__` would name the prototype in JavaScript, not the key.
    else if (/^[A-Za-z_$][\w$]*$/.test(segment.key) && segment.key !== "__proto__")
      out += out === "" ? segment.key : `.${segment.key}`;
    else out += `[${jsonText(segment.key)}]`;
  }
  return out;
}

/** `input[docs][documents][{i}][templateId]`: each enclosing array index as `{i}`, `{j}`, ... */
export function partText(part: PartName): string {
  return part.map((segment) => (typeof segment === "string" ? segment : `{${indexName(segment.index)}}`)).join("");
}

function indexName(index: number): string {
  return index < 18 ? String.fromCharCode("i".charCodeAt(0) + index) : `i${String(index)}`;
}

const UNSAFE = /[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON text of a value, also escaping what JSON leaves raw but a terminal
 * would act on: C1 controls, line and paragraph separators, bidi controls.
 */
export function jsonText(value: JsonValue): string {
  return JSON.stringify(value).replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Free text (a title) as is, unless it holds a character jsonText would escape. */
export function plain(text: string): string {
  const quoted = jsonText(text);
  return quoted === `"${text}"` ? text : quoted;
}
