/**
 * Flow changes for machines (`flowsmith diff --json`): one JSON document,
 * the same bytes for the same two descriptions. Keys are sorted at every
 * level, flows by name, changes as compare-flows.ts sorts them; no
 * timestamps, no absolute paths beyond what the user passed. `version` is
 * the version of this format: it grows only when a field changes meaning or
 * goes away (new fields may appear without a bump). docs/generating.md, "JSON
 * report", documents every field.
 */
import { compareText } from "./compare-flows.js";
import type { FlowChange, FlowChanges, FlowVersion } from "./types.js";

const CHANGES_FORMAT = "flowsmith-changes";
const CHANGES_FORMAT_VERSION = 1;

interface ChangeCounts {
  readonly breaking: number;
  readonly compatible: number;
}

export interface ChangesDocument {
  readonly format: typeof CHANGES_FORMAT;
  readonly version: typeof CHANGES_FORMAT_VERSION;
  /** Over all flows. */
  readonly summary: ChangeCounts;
  readonly flows: readonly {
    readonly name: string;
    readonly before: FlowVersion;
    readonly after: FlowVersion;
    readonly summary: ChangeCounts;
    readonly changes: readonly FlowChange[];
  }[];
}

function toChangesDocument(flows: readonly FlowChanges[]): ChangesDocument {
  const sorted = [...flows].sort((a, b) => compareText(a.name, b.name) || compareText(a.after.file, b.after.file));
  const entries = sorted.map((flow) => ({ ...flow, summary: countChanges(flow.changes) }));
  return {
    format: CHANGES_FORMAT,
    version: CHANGES_FORMAT_VERSION,
    summary: countChanges(entries.flatMap((flow) => flow.changes)),
    flows: entries,
  };
}

/** The document as text: two-space indent, sorted keys, a final newline. */
export function formatChangesJson(flows: readonly FlowChanges[]): string {
  return `${JSON.stringify(sortKeys(toChangesDocument(flows)), null, 2)}\n`;
}

function countChanges(changes: readonly FlowChange[]): ChangeCounts {
  const breaking = changes.filter((change) => change.severity === "breaking").length;
  return { breaking, compatible: changes.length - breaking };
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  // No prototype: a key "__proto__" (a default value may have one) stays a key.
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value).sort(compareText)) out[key] = sortKeys((value as Record<string, unknown>)[key]);
  return out;
}
