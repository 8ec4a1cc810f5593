/**
 * JSON as generated code embeds it (the runtime spec's request tree): a
 * value that fits on a line stays on one, a larger one gets a line per member,
 * so the text reads like the formatted literal it replaces. Deterministic.
 */
const LINE_WIDTH = 96;

export function jsonText(value: unknown, indent = ""): string {
  const flat = flatJson(value);
  if (indent.length + flat.length <= LINE_WIDTH || value === null || typeof value !== "object") return flat;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return `[\n${value.map((item) => inner + jsonText(item, inner)).join(",\n")}\n${indent}]`;
  }
  const members = Object.entries(value).filter(([, member]) => member !== undefined);
  return `{\n${members.map(([key, member]) => `${inner}${JSON.stringify(key)}: ${jsonText(member, inner)}`).join(",\n")}\n${indent}}`;
}

/** `{"kind": "value", "part": ["state"]}`: JSON.stringify's content, spaced like code. */
function flatJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(flatJson).join(", ")}]`;
  const members = Object.entries(value).filter(([, member]) => member !== undefined);
  return `{${members.map(([key, member]) => `${JSON.stringify(key)}: ${flatJson(member)}`).join(", ")}}`;
}
