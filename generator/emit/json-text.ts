/**
 * JSON as generated code embeds it (the runtime spec's request tree): a
 * value that fits on a line stays on one, a larger one gets a line per member,
 * so the text reads like the formatted literal it replaces. Deterministic.
 */
const LINE_WIDTH = 96;

export function jsonText(value: unknown): string {
  return laidOut(flattened(value), "");
}

/** A value with its one-line text, and its members' when it has any. */
interface Flattened {
  readonly flat: string;
  /** `[key, member]`; keys are JSON strings already, `undefined` in an array. */
  readonly members?: readonly (readonly [string | undefined, Flattened])[];
  readonly array: boolean;
}

/**
 * `{"kind": "value", "part": ["state"]}`: JSON.stringify's content, spaced
 * like code. Built bottom-up once, so each member's text is made once however
 * deep it sits.
 */
function flattened(value: unknown): Flattened {
  if (value === null || typeof value !== "object") return { flat: JSON.stringify(value), array: false };
  if (Array.isArray(value)) {
    const members = value.map((item) => [undefined, flattened(item)] as const);
    return { flat: `[${members.map(([, m]) => m.flat).join(", ")}]`, members, array: true };
  }
  const members = Object.entries(value)
    .filter(([, member]) => member !== undefined)
    .map(([key, member]) => [JSON.stringify(key), flattened(member)] as const);
  return { flat: `{${members.map(([key, m]) => `${key}: ${m.flat}`).join(", ")}}`, members, array: false };
}

function laidOut(value: Flattened, indent: string): string {
  if (!value.members || indent.length + value.flat.length <= LINE_WIDTH) return value.flat;
  const inner = `${indent}  `;
  const lines = value.members.map(([key, member]) => `${inner}${key === undefined ? "" : `${key}: `}${laidOut(member, inner)}`);
  return value.array ? `[\n${lines.join(",\n")}\n${indent}]` : `{\n${lines.join(",\n")}\n${indent}}`;
}
