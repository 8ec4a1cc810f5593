/**
 * The fixed part of a generated flow module: templates/flow-module.ts,
 * real TypeScript that tsc checks, read once per process.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const TEMPLATE = join("templates", "flow-module.ts");

/** Names of the template's placeholder declarations, replaced by the flow's own types. */
export const PLACEHOLDER_DECLARATIONS: readonly string[] = [
  "CreateSessionRequest",
  "Metadata",
  "Locale",
  "CreateSessionResponse",
];

let cached: string | undefined;

export function flowModuleTemplate(): string {
  cached ??= readFileSync(findTemplateOrThrow(__dirname), "utf8");
  return cached;
}

/** This module runs from generator/emit (tests) or dist/generator/emit (CLI): look upwards. */
function findTemplateOrThrow(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, TEMPLATE);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`flowsmith: ${TEMPLATE} not found above ${start}`);
  }
}
