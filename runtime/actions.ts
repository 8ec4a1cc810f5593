/**
 * Answering an API-only step (docs/service.md 4): the body names its action in
 * `type`, is checked against that action's schema from the session's latest
 * step, and goes out as it is with the step's ticket in `x-ticket-id`.
 */
import { actionCheckOrThrow } from "./action-schemas.js";
import type { ClientContext } from "./client-context.js";
import { RequestValidationError } from "./errors.js";
import type { ActionBody, RequestOptions, Step, StepAction } from "./resources.js";
import { headerValueProblem } from "./header-value.js";
import { ROUTES, sessionPath } from "./paths.js";
import { getStep } from "./session-calls.js";
import { describeIssues } from "./validation/issues.js";
import { issuesOf } from "./validation/schema-check.js";

export async function submitAction(
  ctx: ClientContext,
  sessionId: string,
  ticketId: string,
  action: ActionBody,
  options: RequestOptions = {},
): Promise<unknown> {
  const path = `${sessionPath(ctx.options.environment, sessionId)}/actions`;
  checkTicket(ticketId);
  const type = actionTypeOrThrow(action);
  // Without a step read before, the validation needs one: reading it is a harmless GET.
  const step = ctx.steps.latestOrUndefined(sessionId) ?? (await getStep(ctx, sessionId, options));
  const offered = offeredActionOrThrow(step, type, sessionId);
  validateOrThrow(offered, action, ctx);
  return ctx.api.json(
    {
      ...options,
      method: "POST",
      path,
      route: ROUTES.actions,
      own: { "x-ticket-id": ticketId },
      body: { json: JSON.stringify(action) },
    },
    // The response shape is not shown (docs/service.md 4): any JSON, or nothing, is the answer.
    { issuesOf: () => [], tookEffect: "The action WAS sent and accepted: sending it again would send it twice" },
  );
}

function checkTicket(ticketId: string): void {
  if (typeof ticketId !== "string" || ticketId === "") {
    throw new RequestValidationError(
      "INVALID_ACTION",
      "ticketId is required: take it from the step that waits for an action (waitForStep)",
      [{ path: "ticketId", message: "must be a non-empty string" }],
    );
  }
  // It travels in the x-ticket-id header: control characters would break it.
  const problem = headerValueProblem(ticketId);
  if (problem) {
    throw new RequestValidationError(
      "INVALID_ACTION",
      `ticketId ${problem}, so it cannot be sent in the x-ticket-id header`,
      [{ path: "ticketId", message: "must be the ticketId of a step, as the service sent it" }],
    );
  }
}

/** `action` is typed, but a JavaScript caller can pass anything: checked as unknown. */
function actionTypeOrThrow(action: unknown): string {
  const type = typeof action === "object" && action !== null ? (action as { type?: unknown }).type : undefined;
  if (typeof type === "string" && type !== "") return type;
  throw new RequestValidationError("INVALID_ACTION", "The action body must name its action in `type`", [
    { path: "type", message: "is required" },
  ]);
}

function offeredActionOrThrow(step: Step, type: string, sessionId: string): StepAction {
  // The step's shape was checked when it was read (response-shapes.ts): actions, when present, each have a type.
  const actions: readonly StepAction[] = step.actions ?? [];
  const offered = actions.find((candidate) => candidate.type === type);
  if (offered) return offered;
  const names = actions.map((candidate) => candidate.type);
  throw new RequestValidationError(
    "UNKNOWN_ACTION",
    names.length > 0
      ? `Action ${type} is not offered by step ${step.stepType} of session ${sessionId}; it offers ${names.join(", ")}`
      : `Step ${step.stepType} of session ${sessionId} offers no actions; wait for a ticket with waitForStep`,
    [{ path: "type", message: names.length > 0 ? `must be one of ${names.join(", ")}` : "no action is offered" }],
  );
}

function validateOrThrow(offered: StepAction, action: ActionBody, ctx: ClientContext): void {
  const issues = issuesOf(actionCheckOrThrow(offered.schema, offered.type, ctx.options.logger), action);
  if (issues.length === 0) return;
  throw new RequestValidationError(
    "INVALID_ACTION",
    `Action ${offered.type} is invalid: ${describeIssues(issues)}`,
    issues,
  );
}
