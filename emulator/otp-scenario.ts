/**
 * The default scenario's API-only step: a one-time code check. The step
 * offers two actions, each with a schema of its whole body (`type`
 * included). Code 123456 accepts the session; three wrong codes reject it;
 * every answer that keeps the step open issues a new ticket.
 */
import { describeIssues, issuesOf, schemaCheckOrThrow, type Check } from "@flowsmith/runtime/internal";
import { linearPatterns } from "@flowsmith/runtime/patterns";
import { badRequest } from "./errors.js";
import type { Session, SessionStore } from "./sessions.js";

export const OTP_STEP_TYPE = "OTP_VERIFICATION:v1";
export const ACCEPTED_CODE = "123456";
export const MAX_WRONG_CODES = 3;

interface StepAction {
  readonly type: string;
  readonly schema: Readonly<Record<string, unknown>>;
}

export interface StepView {
  readonly stepType: string;
  readonly ticketId: string | null;
  readonly actions?: readonly StepAction[];
}

export interface ActionResult {
  readonly type: string;
  readonly result: "CODE_ACCEPTED" | "CODE_REJECTED" | "CODE_SENT";
  /** Wrong codes still allowed before the session is rejected. */
  readonly attemptsLeft: number;
  /** The step after the action: the OTP step with its new ticket, or END. */
  readonly step: StepView;
}

const OTP_ACTIONS: readonly StepAction[] = [
  {
    type: "VALIDATE_OTP",
    schema: {
      type: "object",
      required: ["type", "code"],
      additionalProperties: false,
      properties: {
        type: { type: "string", const: "VALIDATE_OTP" },
        code: { type: "string", pattern: "^[0-9]{6}$", description: "The six-digit code the user received." },
      },
    },
  },
  {
    type: "RESEND_OTP",
    schema: {
      type: "object",
      required: ["type"],
      additionalProperties: false,
      properties: { type: { type: "string", const: "RESEND_OTP" } },
    },
  },
];

let validators: ReadonlyMap<string, Check> | undefined;

/** Made at the first action, not at every load of the emulator, by the schema checker the client uses on the same schemas. */
function actionValidators(): ReadonlyMap<string, Check> {
  validators ??= new Map(
    OTP_ACTIONS.map((action) => [action.type, schemaCheckOrThrow(action.schema, { patterns: linearPatterns })]),
  );
  return validators;
}

/** GET step: 400 while the session is CREATED (the client keeps polling). */
export function stepViewOrThrow(store: SessionStore, session: Session): StepView {
  const phase = store.phaseOf(session);
  switch (phase) {
    case "CREATED":
      throw badRequest("SESSION_NOT_RUNNING", `session "${session.id}" is still CREATED; poll the step again shortly`);
    case "START":
      return { stepType: "START", ticketId: null };
    case "STEP_WAITING":
      return { stepType: OTP_STEP_TYPE, ticketId: null };
    case "STEP_TICKET":
      return { stepType: OTP_STEP_TYPE, ticketId: session.ticketId, actions: OTP_ACTIONS };
    case "END":
      return { stepType: "END", ticketId: null };
  }
}

/** POST actions: the ticket must be the latest one and the body must match its action's schema. */
export function applyActionOrThrow(
  store: SessionStore,
  session: Session,
  ticketId: string | undefined,
  body: unknown,
): ActionResult {
  requireOpenTicketOrThrow(store, session, ticketId);
  const type = actionTypeOrThrow(body);
  return type === "VALIDATE_OTP"
    ? validateCode(store, session, (body as { code: string }).code)
    : resend(store, session);
}

/**
 * The step waits for input and `ticketId` is its latest ticket. Every answer
 * to the step goes through here, the API's actions and the player's forms
 * alike, so both see one ticket and one set of rules.
 */
export function requireOpenTicketOrThrow(store: SessionStore, session: Session, ticketId: string | undefined): void {
  if (ticketId === undefined || ticketId === "") {
    throw badRequest(
      "TICKET_MISSING",
      "the x-ticket-id header is required: send the ticketId of the latest step response",
    );
  }
  const phase = store.phaseOf(session);
  if (phase !== "STEP_TICKET") {
    const where =
      phase === "CREATED"
        ? "it is still CREATED"
        : phase === "END"
          ? "it has ended"
          : "no step has issued a ticket yet";
    throw badRequest("NO_ACTION_EXPECTED", `session "${session.id}" is not waiting for an action: ${where}`);
  }
  if (ticketId !== session.ticketId) {
    throw badRequest(
      "TICKET_STALE",
      "the x-ticket-id is not the latest ticket of this session: read the step again and use its ticketId",
    );
  }
}

function actionTypeOrThrow(body: unknown): string {
  const type = typeof body === "object" && body !== null ? (body as { type?: unknown }).type : undefined;
  const validate = typeof type === "string" ? actionValidators().get(type) : undefined;
  if (!validate) {
    throw badRequest(
      "INVALID_ACTION",
      `the action body must have "type" set to one of ${OTP_ACTIONS.map((a) => a.type).join(", ")}`,
    );
  }
  const issues = issuesOf(validate, body);
  if (issues.length > 0) {
    throw badRequest("INVALID_ACTION", `invalid ${String(type)} body: ${describeIssues(issues)}`, issues);
  }
  return type as string;
}

function validateCode(store: SessionStore, session: Session, code: string): ActionResult {
  if (code === ACCEPTED_CODE) {
    store.end(session, "ACCEPTED");
    return result(store, session, "VALIDATE_OTP", "CODE_ACCEPTED");
  }
  session.wrongCodes += 1;
  if (session.wrongCodes >= MAX_WRONG_CODES) store.end(session, "REJECTED");
  else store.issueTicket(session);
  return result(store, session, "VALIDATE_OTP", "CODE_REJECTED");
}

function resend(store: SessionStore, session: Session): ActionResult {
  store.issueTicket(session);
  return result(store, session, "RESEND_OTP", "CODE_SENT");
}

function result(store: SessionStore, session: Session, type: string, outcome: ActionResult["result"]): ActionResult {
  return {
    type,
    result: outcome,
    attemptsLeft: MAX_WRONG_CODES - session.wrongCodes,
    step: stepViewOrThrow(store, session),
  };
}
