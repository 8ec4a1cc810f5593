/**
 * JSON as generated code embeds it (the runtime spec's request tree): a
 * value that fits on a line stays on one, a larger one gets a line per member,
 * so the text reads like the formatted literal it replaces. Deterministic.
 */
const LINE_WIDTH = 96;

export function jsonText(value: unknown): string {
  const parts: string[] = [];
  write(measured(value), "", parts);
  return parts.join("");
}

/**
 * A value with the length of its one-line text (`{"kind": "value", "part":
 * ["state"]}`: JSON.stringify's content, spaced like code), measured
 * bottom-up once; the text itself is written once, top-down, only where it
 * is used, so a deep value costs time in its size, not in its size times its depth.
 */
interface Measured {
  /** A scalar's JSON text; undefined for objects and arrays. */
  readonly scalar?: string;
  readonly length: number;
  /** `[key, member]`; keys are JSON strings already, `undefined` in an array. */
  readonly members: readonly (readonly [string | undefined, Measured])[];
  readonly array: boolean;
}

function measured(value: unknown): Measured {
  if (value === null || typeof value !== "object") {
    const scalar = JSON.stringify(value);
    return { scalar, length: scalar.length, members: [], array: false };
  }
  const array = Array.isArray(value);
  const members: (readonly [string | undefined, Measured])[] = [];
  // The brackets, and ", " between members.
  let length = 2;
  if (array) {
    for (const item of value as unknown[]) {
      const member = measured(item);
      length += member.length + (members.length > 0 ? 2 : 0);
      members.push([undefined, member]);
    }
  } else {
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      const member = measured(item);
      const quoted = JSON.stringify(key);
      // `"key": ` before the member.
      length += quoted.length + 2 + member.length + (members.length > 0 ? 2 : 0);
      members.push([quoted, member]);
    }
  }
  return { length, members, array };
}

function write(value: Measured, indent: string, parts: string[]): void {
  if (value.scalar !== undefined) {
    parts.push(value.scalar);
    return;
  }
  if (indent.length + value.length <= LINE_WIDTH) {
    writeFlat(value, parts);
    return;
  }
  const inner = `${indent}  `;
  parts.push(value.array ? "[\n" : "{\n");
  value.members.forEach(([key, member], index) => {
    parts.push(index > 0 ? ",\n" : "", inner, key === undefined ? "" : `${key}: `);
    write(member, inner, parts);
  });
  parts.push(`\n${indent}`, value.array ? "]" : "}");
}

function writeFlat(value: Measured, parts: string[]): void {
  if (value.scalar !== undefined) {
    parts.push(value.scalar);
    return;
  }
  parts.push(value.array ? "[" : "{");
  value.members.forEach(([key, member], index) => {
    if (index > 0) parts.push(", ");
    if (key !== undefined) parts.push(key, ": ");
    writeFlat(member, parts);
  });
  parts.push(value.array ? "]" : "}");
}
