/**
 * Ajv's errors as `{ path, message }` a person can act on: a readable path
 * (`input.documents[0].templateId`) and what is wrong there. Generated
 * validators are compiled without ajv's messages (they made each one larger
 * for every user's build), so the message is worded here from the keyword
 * and its params, the way ajv words it.
 */
import type { ValidationIssue } from "./errors.js";
import { pointerTokens } from "./json.js";

export interface AjvErrorLike {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params: object;
}

/** At most this many issues are spelled out in an error message (all stay in `issues`). */
const ISSUES_IN_MESSAGE = 5;

export function issuesFromAjv(errors: readonly AjvErrorLike[] | null | undefined): ValidationIssue[] {
  if (!errors || errors.length === 0) return [{ path: "(root)", message: "is invalid" }];
  return errors.map(issueFromAjv);
}

function issueFromAjv(error: AjvErrorLike): ValidationIssue {
  const segments = pointerTokens(error.instancePath);
  const params = error.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
  switch (error.keyword) {
    case "required":
      return { path: readablePath([...segments, String(params.missingProperty)]), message: "is required" };
    case "additionalProperties":
      return { path: readablePath([...segments, String(params.additionalProperty)]), message: "is not allowed here" };
    case "enum":
      return {
        path: readablePath(segments),
        message: `must be one of ${(params.allowedValues ?? []).map((v) => JSON.stringify(v)).join(", ")}`,
      };
    default:
      return { path: readablePath(segments), message: messageOf(error) };
  }
}

type Params = { readonly [name: string]: unknown };
const MESSAGES: { readonly [keyword: string]: (params: Params) => string } = {
  type: (p) => `must be ${String(p["type"])}`,
  format: (p) => `must match format ${JSON.stringify(p["format"])}`,
  pattern: (p) => `must match pattern ${JSON.stringify(p["pattern"])}`,
  minLength: (p) => `must NOT have fewer than ${String(p["limit"])} characters`,
  maxLength: (p) => `must NOT have more than ${String(p["limit"])} characters`,
  minItems: (p) => `must NOT have fewer than ${String(p["limit"])} items`,
  maxItems: (p) => `must NOT have more than ${String(p["limit"])} items`,
  minimum: (p) => `must be ${String(p["comparison"])} ${String(p["limit"])}`,
  maximum: (p) => `must be ${String(p["comparison"])} ${String(p["limit"])}`,
  exclusiveMinimum: (p) => `must be ${String(p["comparison"])} ${String(p["limit"])}`,
  exclusiveMaximum: (p) => `must be ${String(p["comparison"])} ${String(p["limit"])}`,
  multipleOf: (p) => `must be multiple of ${String(p["multipleOf"])}`,
};

/** ajv's own message when it wrote one; else the same words from the keyword and params. */
function messageOf(error: AjvErrorLike): string {
  if (error.message) return error.message;
  const word = MESSAGES[error.keyword];
  return word ? word(error.params as Params) : `fails ${error.keyword}`;
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

