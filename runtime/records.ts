/** The check every reader of parsed JSON or YAML makes before reading keys. */

/** A plain object (not null, not an array): JSON's object, a YAML mapping. */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
