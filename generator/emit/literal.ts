/**
 * Plain data (the `flow` constant, the runtime `spec`) as TypeScript
 * expression text. Strings and keys go through escape.ts like all other text.
 */
import { numberLiteral, propertyKey, stringLiteral } from "./escape.js";

/**
 * JSON-like data: strings, finite numbers, booleans, null, arrays and plain
 * objects; `undefined` members of objects are left out, as JSON would.
 */
export function literal(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (typeof value === "string") return stringLiteral(value);
  if (typeof value === "number") return numberLiteral(value);
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (typeof value !== "object") throw new TypeError(`no literal for a ${typeof value}`);
  const members = Object.entries(value)
    .filter(([, member]) => member !== undefined)
    .map(([key, member]) => `${objectKey(key)}: ${literal(member)}`);
  return `{ ${members.join(", ")} }`;
}

/** `"__proto__": x` in a literal would set the prototype; a computed key stays a plain key. */
function objectKey(key: string): string {
  return key === "__proto__" ? `[${stringLiteral(key)}]` : propertyKey(key);
}
