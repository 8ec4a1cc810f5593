/**
 * Validation issues as `{ path, message }` a person can act on: a readable
 * path (`input.documents[0].templateId`) and what is wrong there, in the
 * words ajv uses, so a message reads the same wherever it was found (the
 * schema checker, the response shapes, the files).
 */
import type { ValidationIssue } from "../errors.js";

/** Where the value being checked sits: one stack, pushed and popped on the way down; only an issue copies it into words. */
export type Path = (string | number)[];

/** At most this many issues are spelled out in an error message (all stay in `issues`). */
const ISSUES_IN_MESSAGE = 5;

export function issueAt(issues: ValidationIssue[], path: readonly (string | number)[], message: string): void {
  issues.push({ path: readablePath(path), message });
}

/** One line listing the issues, for an error message. */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  const shown = issues.slice(0, ISSUES_IN_MESSAGE).map((issue) => `${issue.path} ${issue.message}`);
  const more = issues.length - shown.length;
  return shown.join("; ") + (more > 0 ? `; and ${String(more)} more` : "");
}

/** `["input", "documents", 0, "my-key"]` → `input.documents[0]["my-key"]`; the root is `(root)`. */
export function readablePath(segments: readonly (string | number)[]): string {
  let path = "";
  for (const segment of segments) {
    if (typeof segment === "number" || /^\d+$/.test(segment)) path += `[${String(segment)}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) path += path === "" ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path === "" ? "(root)" : path;
}
