/**
 * The hosted player on the API host (docs/service.md 1: the end user
 * completes the flow in a hosted player opened through playerUrl):
 *   GET  /player/{sessionId}?token=…[&notice=…]  the page for the session's current phase;
 *   POST /player/{sessionId}                      a form (token in its body), answered 303.
 * No bearer token: the playerUrl token is the key. Every answer is HTML,
 * errors included (404 page for an unknown session or a wrong token).
 */
import { timingSafeEqual } from "node:crypto";
import type { ServerResponse } from "node:http";
import { publicEndpoint, route, type Endpoint, type EndpointContext } from "../endpoints.js";
import { ApiError, badRequest, notFound } from "../errors.js";
import { mediaTypeOf, readSmallBodyOrThrow } from "../http-exchange.js";
import { MAX_WRONG_CODES } from "../otp-scenario.js";
import type { Session, SessionStore } from "../sessions.js";
import { applyPlayerFormOrThrow } from "./form-actions.js";
import {
  NOTICES,
  renderNotFoundPage,
  renderPlayerPage,
  renderProblemPage,
  type Notice,
  type PlayerView,
} from "./pages.js";
import { seeOther, sendPage } from "./respond.js";
import { formActionSourceOf, returnUrlOf } from "./return-url.js";
import { localeOf } from "./strings.js";

/** A player form is a token, a ticket, an action and a code: a few hundred bytes. */
const MAX_FORM_BYTES = 16 * 1024;
const PLAYER_PATH = route`/player/${"sessionId"}`;

type PlayerContext = EndpointContext<"sessionId">;

export const playerEndpoints: readonly Endpoint[] = [
  publicEndpoint("GET", PLAYER_PATH, answeringInHtml(showPage)),
  publicEndpoint("POST", PLAYER_PATH, answeringInHtml(submitForm)),
];

function showPage({ req, res, params, services }: PlayerContext): void {
  const query = new URL(req.url ?? "/", "http://player.invalid").searchParams;
  const { session, token } = playerSessionOrThrow(services.sessions, params.sessionId, query.get("token"));
  const view = viewOf(services.sessions, session, noticeOf(query.get("notice")));
  const returnUrl = returnUrlOfSession(session);
  // Only the step view has forms; when one of them ends the session, the redirect goes to returnUrl.
  const formActions = view.kind === "step" ? ["'self'", ...(returnUrl ? [formActionSourceOf(returnUrl)] : [])] : [];
  sendPage(
    res,
    200,
    renderPlayerPage({ session, locale: localeOf(session.request.metadata.locale), token, view }),
    formActions,
  );
}

async function submitForm({ req, res, params, services }: PlayerContext): Promise<void> {
  if (mediaTypeOf(req) !== "application/x-www-form-urlencoded") {
    throw badRequest("UNSUPPORTED_CONTENT_TYPE", "a player form is posted as application/x-www-form-urlencoded");
  }
  const form = new URLSearchParams((await readSmallBodyOrThrow(req, MAX_FORM_BYTES)).toString("utf8"));
  const { session, token } = playerSessionOrThrow(services.sessions, params.sessionId, form.get("token"));
  const wasOpen = session.outcome === undefined;
  const notice = applyPlayerFormOrThrow(services.sessions, session, form);
  if (wasOpen && session.outcome !== undefined) {
    // Ended by this browser: back to the customer's site, or the done page.
    seeOther(res, returnUrlOfSession(session)?.href ?? pagePath(session, token, "done"));
    return;
  }
  seeOther(res, pagePath(session, token, notice));
}

function viewOf(store: SessionStore, session: Session, notice: Notice | undefined): PlayerView {
  if (session.outcome) {
    const returnUrl = returnUrlOfSession(session);
    return {
      kind: notice === "done" ? "done" : "ended",
      decision: session.outcome.decision,
      ...(returnUrl ? { returnUrl } : {}),
    };
  }
  const shown = notice === "done" ? undefined : notice;
  const ticketId = store.phaseOf(session) === "STEP_TICKET" ? session.ticketId : null;
  if (ticketId !== null)
    return { kind: "step", ticketId, attemptsLeft: MAX_WRONG_CODES - session.wrongCodes, notice: shown };
  return { kind: "waiting", notice: shown };
}

/** Unknown session and wrong token look the same, so the page tells nothing about other sessions. */
function playerSessionOrThrow(
  store: SessionStore,
  sessionId: string,
  token: string | null,
): { readonly session: Session; readonly token: string } {
  const session = store.find(sessionId);
  if (!session || token === null || !sameSecret(token, session.playerToken)) {
    throw notFound("no such player session: unknown session or wrong token");
  }
  return { session, token };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function returnUrlOfSession(session: Session): URL | undefined {
  const { redirectUrl, state } = session.request;
  return redirectUrl === undefined ? undefined : returnUrlOf(redirectUrl, state);
}

function pagePath(session: Session, token: string, notice: Notice | undefined): string {
  const path = `/player/${encodeURIComponent(session.id)}?token=${encodeURIComponent(token)}`;
  return notice === undefined ? path : `${path}&notice=${notice}`;
}

function noticeOf(value: string | null): Notice | undefined {
  return (NOTICES as readonly (string | null)[]).includes(value) ? (value as Notice) : undefined;
}

/** The player never answers JSON: a refusal or a failure is a page too. */
function answeringInHtml(
  handle: (context: PlayerContext) => void | Promise<void>,
): (context: PlayerContext) => Promise<void> {
  return async (context) => {
    try {
      await handle(context);
    } catch (error) {
      sendErrorPage(context.res, error);
    }
  };
}

function sendErrorPage(res: ServerResponse, error: unknown): void {
  if (!(error instanceof ApiError)) {
    sendPage(res, 500, renderProblemPage(500, "the emulator failed while answering the player"));
    return;
  }
  if (error.status === 404) {
    sendPage(res, 404, renderNotFoundPage());
    return;
  }
  // A refused body may not have been read whole: close rather than read the rest.
  sendPage(
    res,
    error.status,
    renderProblemPage(error.status, error.message),
    [],
    error.status === 413 ? { connection: "close" } : {},
  );
}
