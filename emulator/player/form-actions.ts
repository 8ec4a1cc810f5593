/**
 * What a player form does to the session. The OTP forms are the API's own
 * actions (applyActionOrThrow, same ticket, same schema, same count of wrong
 * codes); Accept and Reject end the session through the store after the same
 * ticket check. So the page and the API can never disagree: they are two
 * doors to one state. A refusal becomes a notice shown on the page.
 */
import { ApiError, badRequest, type ApiErrorCode } from "../errors.js";
import { applyActionOrThrow, requireOpenTicketOrThrow } from "../otp-scenario.js";
import type { Session, SessionStore } from "../sessions.js";
import type { Notice } from "./pages.js";

const FORM_ACTIONS = ["validate-otp", "resend-otp", "accept", "reject"] as const;
type FormAction = (typeof FORM_ACTIONS)[number];

/** The scenario's refusals a tester can cause from the page; any other error is not a notice. */
const NOTICE_OF_REFUSAL: Partial<Record<ApiErrorCode, Notice>> = {
  TICKET_MISSING: "stale",
  TICKET_STALE: "stale",
  NO_ACTION_EXPECTED: "not-ready",
  INVALID_ACTION: "invalid-code",
};

/** Applies one posted form; returns the notice to show next, if any. */
export function applyPlayerFormOrThrow(
  store: SessionStore,
  session: Session,
  form: URLSearchParams,
): Notice | undefined {
  const action = formActionOrThrow(form.get("action"));
  const ticketId = form.get("ticket") ?? undefined;
  try {
    switch (action) {
      case "validate-otp": {
        const answer = applyActionOrThrow(store, session, ticketId, {
          type: "VALIDATE_OTP",
          code: form.get("code") ?? "",
        });
        return answer.result === "CODE_REJECTED" && session.outcome === undefined ? "code-rejected" : undefined;
      }
      case "resend-otp":
        applyActionOrThrow(store, session, ticketId, { type: "RESEND_OTP" });
        return "code-sent";
      case "accept":
      case "reject":
        requireOpenTicketOrThrow(store, session, ticketId);
        store.end(session, action === "accept" ? "ACCEPTED" : "REJECTED");
        return undefined;
    }
  } catch (error) {
    const notice = error instanceof ApiError ? NOTICE_OF_REFUSAL[error.code] : undefined;
    if (notice === undefined) throw error;
    return notice;
  }
}

function formActionOrThrow(action: string | null): FormAction {
  if ((FORM_ACTIONS as readonly (string | null)[]).includes(action)) return action as FormAction;
  throw badRequest(
    "INVALID_REQUEST",
    `the player form's action must be one of ${FORM_ACTIONS.join(", ")}, got ${JSON.stringify(action?.slice(0, 40) ?? null)}`,
  );
}
