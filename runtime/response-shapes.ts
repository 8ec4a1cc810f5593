/**
 * What each 2xx body must be before the runtime returns it: the fields
 * docs/service.md documents and the runtime's types promise (resources.ts,
 * the generated CreateSessionResponse). A lying or broken server must not
 * produce a wrong success: a `{"hello":"world"}` is not a created session.
 *
 * Small combinators rather than a schema: these shapes are fixed, run on
 * every call (createSession's hot path included), and need no walking at load.
 */
import type { ValidationIssue } from "./errors.js";
import type { FlowSpec } from "./flow-spec.js";
import { isRecord } from "./json.js";
import { ENVIRONMENTS, SERVICE_LOCALES } from "./service-limits.js";
import { issueAt, type Path } from "./validation/issues.js";

/**
 * Checks a value at `path`, adding what is wrong to `issues`. The path is
 * one stack, pushed and popped on the way down, so a body that is right
 * (every call on the hot path) allocates no path at all.
 */
type Shape = (value: unknown, path: Path, issues: ValidationIssue[]) => void;

const issue = issueAt;

function string(nonEmpty = false): Shape {
  return (value, path, issues) => {
    if (typeof value !== "string")
      issue(issues, path, value === undefined ? "is required" : `must be a string, got ${kindOf(value)}`);
    else if (nonEmpty && value === "") issue(issues, path, "must not be empty");
  };
}

function oneOf(allowed: readonly string[]): Shape {
  return (value, path, issues) => {
    if (value === undefined) issue(issues, path, "is required");
    else if (typeof value !== "string" || !allowed.includes(value)) {
      // The value itself is not quoted: it is server text, and messages carry none.
      issue(
        issues,
        path,
        `must be one of ${allowed.join(", ")}${typeof value === "string" ? "" : `, got ${kindOf(value)}`}`,
      );
    }
  };
}

const finiteNumber: Shape = (value, path, issues) => {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    issue(issues, path, value === undefined ? "is required" : `must be a number, got ${kindOf(value)}`);
  }
};

function optional(shape: Shape): Shape {
  return (value, path, issues) => {
    if (value !== undefined) shape(value, path, issues);
  };
}

/** An object with at least these properties; others pass through. */
function object(properties: Readonly<Record<string, Shape>>): Shape {
  const entries = Object.entries(properties);
  return (value, path, issues) => {
    if (!isRecord(value)) {
      issue(issues, path, value === undefined ? "is required" : `must be an object, got ${kindOf(value)}`);
      return;
    }
    for (const [name, shape] of entries) {
      path.push(name);
      shape(value[name], path, issues);
      path.pop();
    }
  };
}

function arrayOf(item: Shape): Shape {
  return (value, path, issues) => {
    if (!Array.isArray(value)) {
      issue(issues, path, `must be an array, got ${kindOf(value)}`);
      return;
    }
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      item(value[index], path, issues);
      path.pop();
    }
  };
}

const metadata = object({ subjectId: string(), locale: optional(oneOf(SERVICE_LOCALES)) });

/** docs/service.md 2.3. */
const createdSession = object({
  flowId: string(true),
  environment: oneOf(ENVIRONMENTS),
  flowVersion: finiteNumber,
  playerUrl: string(true),
  sessionContext: object({
    sessionId: string(true),
    sessionStatus: oneOf(["CREATED"]),
    createdAt: optional(string()),
  }),
  metadata,
});

/** SessionRecord: sessionStatus, and metadata echoed in every session response (docs/service.md 2.2, rule 3). */
const sessionRecord = object({ sessionStatus: string(true), metadata });

/** Step: stepType always; ticketId a string or null; actions, when present, each with a type. */
const step = object({
  stepType: string(true),
  ticketId: (value, path, issues) => {
    if (value !== undefined && value !== null && typeof value !== "string")
      issue(issues, path, `must be a string or null, got ${kindOf(value)}`);
  },
  actions: optional(arrayOf(object({ type: string(true) }))),
});

const flowRecord = object({ id: string(true) });

/**
 * createSession's 201 body: the shape of 2.3, and that it answers this
 * request: the flow and environment it was sent to, the subjectId it carried.
 */
export function createdSessionIssues(body: unknown, spec: FlowSpec, request: unknown): readonly ValidationIssue[] {
  // Nearly every body is right: one pass that allocates nothing says so; only a body it refuses is walked again for words.
  if (isCreatedSessionFor(body, spec, request)) return NO_ISSUES;
  const issues: ValidationIssue[] = [];
  createdSession(body, [], issues);
  if (issues.length > 0 || !isRecord(body)) return issues;
  if (body.flowId !== spec.id)
    issue(issues, ["flowId"], `must be ${JSON.stringify(spec.id)}, the flow the session was created for`);
  if (body.environment !== spec.environment)
    issue(issues, ["environment"], `must be ${spec.environment}, the flow's environment`);
  const sent = sentSubjectId(request);
  const echoed = (body.metadata as Record<string, unknown>).subjectId;
  if (sent !== undefined && echoed !== sent)
    issue(issues, ["metadata", "subjectId"], "must echo the subjectId that was sent");
  return issues;
}

const NO_ISSUES: readonly ValidationIssue[] = Object.freeze([]);

/**
 * True only when createdSessionIssues would find nothing: the same rules
 * (`createdSession` above, then the echo), written out for createSession's
 * hot path. It may refuse what the rules accept (the full walk then finds
 * nothing), never the other way round; test/runtime/response-checks.test.ts
 * holds each rule.
 */
function isCreatedSessionFor(body: unknown, spec: FlowSpec, request: unknown): boolean {
  if (!isRecord(body)) return false;
  const { flowId, environment, flowVersion, playerUrl, sessionContext: context, metadata: echoed } = body;
  if (flowId !== spec.id || typeof flowId !== "string" || flowId === "") return false;
  if (environment !== spec.environment || !(ENVIRONMENTS as readonly unknown[]).includes(environment)) return false;
  if (typeof flowVersion !== "number" || !Number.isFinite(flowVersion)) return false;
  if (typeof playerUrl !== "string" || playerUrl === "") return false;
  if (!isRecord(context) || typeof context.sessionId !== "string" || context.sessionId === "") return false;
  if (context.sessionStatus !== "CREATED" || (context.createdAt !== undefined && typeof context.createdAt !== "string"))
    return false;
  if (!isRecord(echoed) || typeof echoed.subjectId !== "string") return false;
  if (echoed.locale !== undefined && !(SERVICE_LOCALES as readonly unknown[]).includes(echoed.locale)) return false;
  const sent = sentSubjectId(request);
  return sent === undefined || echoed.subjectId === sent;
}

function sentSubjectId(request: unknown): string | undefined {
  const sent = isRecord(request) && isRecord(request.metadata) ? request.metadata.subjectId : undefined;
  return typeof sent === "string" ? sent : undefined;
}

export function sessionRecordIssues(body: unknown): ValidationIssue[] {
  return run(sessionRecord, body);
}

export function stepIssues(body: unknown): ValidationIssue[] {
  return run(step, body);
}

export function dataBlocksIssues(body: unknown): ValidationIssue[] {
  return typeof body === "object" && body !== null
    ? []
    : [{ path: "(root)", message: `must be an object or an array, got ${kindOf(body)}` }];
}

/**
 * The spec shows only that entries have `id` (docs/service.md 4): a bare
 * array, or an object holding the array under some key. Returns the list
 * when it is one.
 */
export function flowListOrIssues(body: unknown): {
  readonly list?: readonly unknown[];
  readonly issues: ValidationIssue[];
} {
  const key = Array.isArray(body)
    ? undefined
    : isRecord(body)
      ? Object.keys(body).find((name) => Array.isArray(body[name]))
      : undefined;
  const list = Array.isArray(body)
    ? body
    : key !== undefined
      ? ((body as Record<string, unknown>)[key] as unknown[])
      : undefined;
  if (!list)
    return {
      issues: [{ path: "(root)", message: `must be a list of flows (or an object holding one), got ${kindOf(body)}` }],
    };
  const issues: ValidationIssue[] = [];
  arrayOf(flowRecord)(list, key === undefined ? [] : [key], issues);
  return { list, issues };
}

function run(shape: Shape, body: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  shape(body, [], issues);
  return issues;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}
