/**
 * The flow's folder name when the config gives none: the title in
 * kebab-case, or, when the title gives no usable name, one made from the flow
 * id. A title never blocks generation.
 */
import { createHash } from "node:crypto";

/**
 * Longest folder name taken from a title or flow id. Far below any file
 * system's limit (255 bytes a path segment), and short enough to import by.
 */
const MAX_FLOW_NAME_LENGTH = 64;

/** Device names Windows reserves in every folder, whatever the extension. */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/;

/** The folder name for a flow: from the title when it gives a usable one, else from the flow id. */
export function flowNameFrom(title: string, flowId: string): string {
  const fromTitle = nameFromTitleOrUndefined(title);
  if (fromTitle !== undefined) return fromTitle;
  const fromId = `flow-${kebabCase(flowId)}`;
  if (usable(fromId) && fromId !== "flow-") return fromId;
  // An id of punctuation only, or a very long one: a short digest keeps flows apart.
  return `flow-${createHash("sha256").update(flowId).digest("hex").slice(0, 12)}`;
}

/** The title in kebab-case, when that makes a usable folder name. */
export function nameFromTitleOrUndefined(title: unknown): string | undefined {
  const name = typeof title === "string" ? kebabCase(title) : "";
  return usable(name) ? name : undefined;
}

function usable(name: string): boolean {
  return name !== "" && name.length <= MAX_FLOW_NAME_LENGTH && !WINDOWS_RESERVED.test(name);
}

/** ASCII letters and digits joined by `-`; "" when the title has none. */
export function kebabCase(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "") // accents off, so "Prüfung" reads "prufung" rather than "pr-fung"
    .replace(/([a-z\d])([A-Z])/g, "$1-$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1-$2")
    .toLowerCase()
    .split(/[^a-z\d]+/)
    .filter((word) => word !== "")
    .join("-");
}
