/**
 * A multipart text part read as the value its leaf declares. Parts arrive as
 * text; a number must be written in JSON number syntax and be finite (what
 * the runtime sends: `String(value)` of a finite number), a boolean as
 * `true` or `false`. Looser readings (`" 0x10 "` as 16, `"1e400"` as
 * Infinity, `""` as 0) would accept what the JSON form refuses.
 */
import { badRequest } from "./errors.js";
import type { LeafSchema } from "./part-names.js";

/** RFC 8259 section 6. */
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

export function partValueOrThrow(name: string, schema: LeafSchema, text: string): string | number | boolean {
  switch (schema.kind) {
    case "number": {
      const value = JSON_NUMBER.test(text) ? Number(text) : Number.NaN;
      if (Number.isFinite(value)) return value;
      throw invalidPart(
        name,
        text,
        JSON_NUMBER.test(text)
          ? "is out of range: numbers must be finite"
          : "is not a number (write it in JSON number syntax, such as 42, -1.5 or 2e3)",
      );
    }
    case "boolean":
      if (text === "true" || text === "false") return text === "true";
      throw invalidPart(name, text, "is not a boolean (send true or false)");
    default:
      return text;
  }
}

function invalidPart(name: string, text: string, problem: string): Error {
  const shown = JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
  const message = `part "${name}": ${shown} ${problem}`;
  return badRequest("VALIDATION_FAILED", message, [{ path: name, message: `${shown} ${problem}` }]);
}
