/**
 * Following a session to its outcome (docs/service.md 3, 4): list flows, read
 * a session, its data blocks and files, its current step, poll the step
 * until there is something to do, and poll the session until it has an
 * outcome. Each body is checked against what the runtime's types promise
 * before it is returned (response-shapes.ts).
 */
import type { ClientContext } from "./client-context.js";
import { BadRequestError } from "./errors.js";
import { filePath, flowsPath, ROUTES, sessionPath } from "./paths.js";
import { pollUntilSettled } from "./polling.js";
import type {
  DataBlocks,
  FileDownload,
  FlowRecord,
  RequestOptions,
  SessionRecord,
  Step,
  WaitForOutcomeOptions,
  WaitForStepOptions,
} from "./resources.js";
import { dataBlocksIssues, flowListOrIssues, sessionRecordIssues, stepIssues } from "./response-shapes.js";

export async function listFlows(ctx: ClientContext, options: RequestOptions = {}): Promise<readonly FlowRecord[]> {
  const path = flowsPath(ctx.options.environment);
  const body = await ctx.api.json<unknown>(
    { ...options, method: "GET", path, route: ROUTES.flows },
    { issuesOf: (b) => flowListOrIssues(b).issues },
  );
  return flowListOrIssues(body).list as FlowRecord[];
}

export function getSession(
  ctx: ClientContext,
  sessionId: string,
  options: RequestOptions = {},
): Promise<SessionRecord> {
  const path = sessionPath(ctx.options.environment, sessionId);
  return ctx.api.json<SessionRecord>(
    { ...options, method: "GET", path, route: ROUTES.session },
    { issuesOf: sessionRecordIssues },
  );
}

export function getDataBlocks(
  ctx: ClientContext,
  sessionId: string,
  options: RequestOptions = {},
): Promise<DataBlocks> {
  const path = `${sessionPath(ctx.options.environment, sessionId)}/datablocks`;
  return ctx.api.json<DataBlocks>(
    { ...options, method: "GET", path, route: ROUTES.dataBlocks },
    { issuesOf: dataBlocksIssues },
  );
}

/** getFile takes whatever type the file has. */
const ANY_TYPE = Object.freeze({ accept: "*/*" });

/** The file's bytes as a stream, never buffered whole; the time limit covers the wait for headers only. */
export async function getFile(
  ctx: ClientContext,
  vaultEntryId: string,
  options: RequestOptions = {},
): Promise<FileDownload> {
  const path = filePath(ctx.options.environment, vaultEntryId);
  const response = await ctx.api.send({ ...options, method: "GET", path, route: ROUTES.file, own: ANY_TYPE });
  const length = Number(response.headers["content-length"]);
  const contentType = response.headers["content-type"];
  return {
    body: response.stream(),
    contentType: typeof contentType === "string" ? contentType : undefined,
    contentLength: Number.isInteger(length) && length >= 0 ? length : undefined,
  };
}

export async function getStep(ctx: ClientContext, sessionId: string, options: RequestOptions = {}): Promise<Step> {
  const path = `${sessionPath(ctx.options.environment, sessionId)}/step`;
  const body = await ctx.api.json<Step>(
    { ...options, method: "GET", path, route: ROUTES.step },
    { issuesOf: stepIssues },
  );
  // An absent or empty ticketId is no ticket.
  const ticketId = typeof body.ticketId === "string" && body.ticketId !== "" ? body.ticketId : null;
  const step: Step = { ...body, ticketId };
  ctx.steps.remember(sessionId, step);
  return step;
}

/**
 * Polls the step (docs/service.md 3) until a ticket waits for an action or the
 * flow reached END. Keeps polling through the 400 of a CREATED session,
 * `START`, and a named step whose ticketId is null.
 */
export function waitForStep(ctx: ClientContext, sessionId: string, options: WaitForStepOptions = {}): Promise<Step> {
  const operation = {
    method: "GET",
    path: ctx.api.displayPath(`${sessionPath(ctx.options.environment, sessionId)}/step`),
  };
  return pollUntilSettled(
    ctx,
    {
      name: "waitForStep",
      operation,
      once: (callOptions) => stepOrUndefined(ctx, sessionId, callOptions),
      settled: isSettled,
      waitingFor: "a step that waits for an action, or END",
    },
    options,
  );
}

/**
 * Polls GET session until it carries an outcome, for backends that poll
 * instead of receiving the webhook (docs/service.md 6: the backend reads the
 * outcome through the API). Same bounds as waitForStep: a deadline, an
 * interval, the caller's signal, close().
 */
export function waitForOutcome(
  ctx: ClientContext,
  sessionId: string,
  options: WaitForOutcomeOptions = {},
): Promise<SessionRecord> {
  const operation = { method: "GET", path: ctx.api.displayPath(sessionPath(ctx.options.environment, sessionId)) };
  return pollUntilSettled(
    ctx,
    {
      name: "waitForOutcome",
      operation,
      once: (callOptions) => getSession(ctx, sessionId, callOptions),
      settled: hasOutcome,
      waitingFor: "the session's outcome",
    },
    options,
  );
}

/** The spec does not show the outcome's shape (docs/service.md 2.5): any value but null counts. */
function hasOutcome(session: SessionRecord): boolean {
  return session.outcome !== undefined && session.outcome !== null;
}

/** The step, or undefined while the session is still CREATED (the service answers 400 then). */
async function stepOrUndefined(
  ctx: ClientContext,
  sessionId: string,
  options: RequestOptions,
): Promise<Step | undefined> {
  try {
    return await getStep(ctx, sessionId, options);
  } catch (error) {
    if (error instanceof BadRequestError) return undefined;
    throw error;
  }
}

function isSettled(step: Step): boolean {
  return step.stepType === "END" || (step.stepType !== "START" && step.ticketId !== null);
}
