/**
 * Following a session to its outcome (docs/service.md 3, 4): list flows, read
 * a session, its data blocks and files, its current step, poll the step
 * until there is something to do, and poll the session until it has an outcome.
 */
import { sleep, type Operation } from "./abort.js";
import type { ClientContext } from "./client-context.js";
import { BadRequestError, FlowsmithError, InvalidResponseError, TimeoutError } from "./errors.js";
import { isRecord } from "./json.js";
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

export async function listFlows(ctx: ClientContext, options: RequestOptions = {}): Promise<readonly FlowRecord[]> {
  const path = `/api/v1/flows/${ctx.options.environment}`;
  const body = await ctx.api.json<unknown>({ method: "GET", path, ...options });
  // The spec shows only that entries have `id`: accept a bare array or one wrapped in an object.
  const list = Array.isArray(body) ? body : isRecord(body) ? Object.values(body).find(Array.isArray) : undefined;
  if (!list || !list.every((entry) => isRecord(entry) && typeof entry.id === "string")) {
    throw new InvalidResponseError("GET", ctx.api.displayPath({ path }), "expected a list of flows, each with an id");
  }
  return list as FlowRecord[];
}

export async function getSession(ctx: ClientContext, sessionId: string, options: RequestOptions = {}): Promise<SessionRecord> {
  const path = `${sessionPath(ctx, sessionId)}`;
  const body = await ctx.api.json<unknown>({ method: "GET", path, ...options });
  if (!isRecord(body) || typeof body.sessionStatus !== "string") {
    throw new InvalidResponseError("GET", ctx.api.displayPath({ path }), "expected a session with sessionStatus");
  }
  return body as unknown as SessionRecord;
}

export async function getDataBlocks(ctx: ClientContext, sessionId: string, options: RequestOptions = {}): Promise<DataBlocks> {
  const path = `${sessionPath(ctx, sessionId)}/datablocks`;
  const body = await ctx.api.json<unknown>({ method: "GET", path, ...options });
  if (typeof body !== "object" || body === null) {
    throw new InvalidResponseError("GET", ctx.api.displayPath({ path }), "expected data blocks as JSON");
  }
  return body as DataBlocks;
}

/** The file's bytes as a stream, never buffered whole; the time limit covers the wait for headers only. */
export async function getFile(ctx: ClientContext, vaultEntryId: string, options: RequestOptions = {}): Promise<FileDownload> {
  const path = `/api/v1/${ctx.options.environment}/files/${segment(vaultEntryId, "vaultEntryId")}`;
  const response = await ctx.api.send({ method: "GET", path, headers: { accept: "*/*" }, ...options });
  const length = Number(response.headers["content-length"]);
  const contentType = response.headers["content-type"];
  return {
    body: response.stream(),
    contentType: typeof contentType === "string" ? contentType : undefined,
    contentLength: Number.isInteger(length) && length >= 0 ? length : undefined,
  };
}

export async function getStep(ctx: ClientContext, sessionId: string, options: RequestOptions = {}): Promise<Step> {
  const path = `${sessionPath(ctx, sessionId)}/step`;
  const body = await ctx.api.json<unknown>({ method: "GET", path, ...options });
  if (!isRecord(body) || typeof body.stepType !== "string") {
    throw new InvalidResponseError("GET", ctx.api.displayPath({ path }), "expected a step with stepType");
  }
  const ticketId = typeof body.ticketId === "string" && body.ticketId !== "" ? body.ticketId : null;
  const step = { ...body, stepType: body.stepType, ticketId } as Step;
  ctx.steps.remember(sessionId, step);
  return step;
}

/**
 * Polls the step (docs/service.md 3) until a ticket waits for an action or the
 * flow reached END. Keeps polling through the 400 of a CREATED session,
 * `START`, and a named step whose ticketId is null.
 */
export async function waitForStep(ctx: ClientContext, sessionId: string, options: WaitForStepOptions = {}): Promise<Step> {
  const intervalMs = options.intervalMs ?? ctx.options.pollIntervalMs;
  const timeoutMs = options.timeoutMs ?? ctx.options.waitTimeoutMs;
  const operation = { method: "GET", path: ctx.api.displayPath({ path: `${sessionPath(ctx, sessionId)}/step` }) };
  const deadline = Date.now() + timeoutMs;
  const gaveUp = () => new TimeoutError(operation.method, operation.path, timeoutMs);
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw gaveUp();
    const step = await pollOnce(ctx, sessionId, {
      signal: options.signal,
      timeoutMs: Math.min(ctx.options.timeoutMs, remaining),
    }).catch((error: unknown) => {
      throw error instanceof TimeoutError && Date.now() >= deadline - 5 ? gaveUp() : error;
    });
    if (step && isSettled(step)) return step;
    const left = deadline - Date.now();
    if (left <= 0) throw gaveUp();
    await sleep(Math.min(intervalMs, left), options.signal, operation);
  }
}

/** Time as the polling loops see it; tests pass a virtual one. */
export interface PollClock {
  now(): number;
  sleep(ms: number, signal: AbortSignal | undefined, operation: Operation): Promise<void>;
}

const systemClock: PollClock = { now: () => Date.now(), sleep };

/**
 * Polls GET session until it carries an outcome, for backends that poll
 * instead of receiving the webhook (docs/service.md 6: the backend reads the
 * outcome through the API). Same bounds as waitForStep: a deadline, an
 * interval, the caller's signal.
 */
export async function waitForOutcome(
  ctx: ClientContext,
  sessionId: string,
  options: WaitForOutcomeOptions = {},
  clock: PollClock = systemClock,
): Promise<SessionRecord> {
  const intervalMs = options.intervalMs ?? ctx.options.pollIntervalMs;
  const timeoutMs = options.timeoutMs ?? ctx.options.waitTimeoutMs;
  const operation = { method: "GET", path: ctx.api.displayPath({ path: sessionPath(ctx, sessionId) }) };
  const deadline = clock.now() + timeoutMs;
  const gaveUp = () => new TimeoutError(operation.method, operation.path, timeoutMs);
  for (;;) {
    const remaining = deadline - clock.now();
    if (remaining <= 0) throw gaveUp();
    const session = await getSession(ctx, sessionId, {
      signal: options.signal,
      timeoutMs: Math.min(ctx.options.timeoutMs, remaining),
    }).catch((error: unknown) => {
      throw error instanceof TimeoutError && clock.now() >= deadline - 5 ? gaveUp() : error;
    });
    if (hasOutcome(session)) return session;
    const left = deadline - clock.now();
    if (left <= 0) throw gaveUp();
    await clock.sleep(Math.min(intervalMs, left), options.signal, operation);
  }
}

/** The spec does not show the outcome's shape (docs/service.md 2.5): any value but null counts. */
function hasOutcome(session: SessionRecord): boolean {
  return session.outcome !== undefined && session.outcome !== null;
}

/** The step, or undefined while the session is still CREATED (the service answers 400 then). */
async function pollOnce(ctx: ClientContext, sessionId: string, options: RequestOptions): Promise<Step | undefined> {
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

export function sessionPath(ctx: ClientContext, sessionId: string): string {
  return `/api/v1/${ctx.options.environment}/sessions/${segment(sessionId, "sessionId")}`;
}

/** An id as one path segment: encoded, so it cannot reach another path. */
export function segment(value: string, name: string): string {
  if (typeof value !== "string" || value === "") {
    throw new FlowsmithError("INVALID_ARGUMENT", `${name} must be a non-empty string`);
  }
  // encodeURIComponent leaves dots alone; `..` would climb out of the path when URLs are normalized.
  return /^\.+$/.test(value) ? value.replace(/\./g, "%2E") : encodeURIComponent(value);
}

