/**
 * The player's pages, as `html` templates (every value escaped there). Plain
 * forms that post back to the emulator, no script: the CSP can then forbid
 * every script, and the page works the same in any browser or test driver.
 * Each control a test needs carries a stable data-testid (docs/emulator.md, Hosted player).
 */
import type { Locale } from "@flowsmith/runtime";
import type { Decision, Session } from "../sessions.js";
import { ACCEPTED_CODE } from "../otp-scenario.js";
import { html, Html, type HtmlValue } from "./html.js";
import { PLAYER_STRINGS, type PlayerStrings } from "./strings.js";

/** A one-word outcome of the last form, carried in the page URL (`notice=`); anything else is ignored. */
export type Notice = "code-rejected" | "code-sent" | "invalid-code" | "stale" | "not-ready" | "done";
export const NOTICES: readonly Notice[] = ["code-rejected", "code-sent", "invalid-code", "stale", "not-ready", "done"];

export type PlayerView =
  /** CREATED, START, or the step before its ticket: nothing to answer yet. */
  | { readonly kind: "waiting"; readonly notice?: Notice }
  /** The OTP step waits with a ticket; every form carries it. */
  | { readonly kind: "step"; readonly ticketId: string; readonly attemptsLeft: number; readonly notice?: Notice }
  /** Ended: `done` right after this browser ended it, `ended` otherwise. */
  | { readonly kind: "done" | "ended"; readonly decision: Decision; readonly returnUrl?: URL };

export interface PlayerPageInput {
  readonly session: Session;
  readonly locale: Locale;
  readonly token: string;
  readonly view: PlayerView;
}

/** Served inline; the CSP allows exactly this text by its hash. */
export const PLAYER_STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:32rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.1rem}
.brand{font-size:.8rem;text-transform:uppercase;color:#667}
dl{display:grid;grid-template-columns:auto 1fr;gap:.2rem 1rem;font-size:.9rem}dd{margin:0;overflow-wrap:anywhere}
label,input,button{font:inherit}input{padding:.4rem;width:9rem;letter-spacing:.2em}
button{padding:.4rem .9rem;margin:.2rem .4rem .2rem 0;cursor:pointer}
.error{color:#a00}.notice{color:#064}.hint{font-size:.85rem;color:#556}
.shortcuts{border-top:1px solid #ddd;margin-top:1.5rem}
`;

export function renderPlayerPage({ session, locale, token, view }: PlayerPageInput): Html {
  const s = PLAYER_STRINGS[locale];
  const { flow } = session;
  return document({
    locale,
    title: `${flow.title} · ${s.emulated}`,
    refresh: view.kind === "waiting",
    main: html`<main data-testid="player" data-state="${view.kind}" data-locale="${locale}">
<header>
<p class="brand">${s.emulated}</p>
<h1 data-testid="flow-title">${flow.title}</h1>
${flow.description !== undefined && html`<p data-testid="flow-description">${flow.description}</p>`}
<dl>
<dt>${s.flow}</dt><dd data-testid="flow-id">${flow.id}</dd>
<dt>${s.version}</dt><dd data-testid="flow-version">${flow.version}</dd>
<dt>${s.subject}</dt><dd data-testid="subject-id">${session.request.metadata.subjectId}</dd>
</dl>
</header>
${body(s, session, token, view)}
</main>`,
  });
}

export function renderNotFoundPage(): Html {
  return document({
    locale: "en",
    title: "Player session not found · flowsmith emulator",
    main: html`<main data-testid="not-found">
<h1>Player session not found</h1>
<p>This player link is not valid: the session does not exist in this emulator, or the token is wrong. Create a session and open its playerUrl.</p>
</main>`,
  });
}

/** A request the page itself never sends (a forged or truncated form): status and message, in English. */
export function renderProblemPage(status: number, message: string): Html {
  return document({
    locale: "en",
    title: `Error ${status} · flowsmith emulator`,
    main: html`<main data-testid="problem" data-status="${status}">
<h1>The player could not handle this request</h1>
<p data-testid="error">${message}</p>
</main>`,
  });
}

function body(s: PlayerStrings, session: Session, token: string, view: PlayerView): Html {
  switch (view.kind) {
    case "waiting":
      return html`${noticeLine(s, view.notice)}<p data-testid="waiting" role="status">${s.waiting}</p>`;
    case "step":
      return stepBody(s, session, token, view);
    case "done":
    case "ended":
      return html`<section data-testid="${view.kind === "done" ? "done" : "session-ended"}">
<h2>${view.kind === "done" ? s.doneTitle : s.endedTitle}</h2>
<p>${s.decision}: <strong data-testid="outcome" data-decision="${view.decision}">${view.decision === "ACCEPTED" ? s.accepted : s.rejected}</strong></p>
${view.returnUrl ? html`<p><a data-testid="return-link" href="${view.returnUrl.href}">${s.returnLink}</a></p>` : html`<p>${s.closeHint}</p>`}
</section>`;
  }
}

function stepBody(
  s: PlayerStrings,
  session: Session,
  token: string,
  view: Extract<PlayerView, { kind: "step" }>,
): Html {
  const form = (
    controls: HtmlValue,
  ): Html => html`<form method="post" action="/player/${encodeURIComponent(session.id)}" novalidate>
<input type="hidden" name="token" value="${token}"><input type="hidden" name="ticket" value="${view.ticketId}">
${controls}
</form>`;
  return html`${noticeLine(s, view.notice)}
<section>
${form(html`<label for="otp-code">${s.codeLabel}</label><br>
<input id="otp-code" name="code" data-testid="otp-input" inputmode="numeric" autocomplete="one-time-code" autofocus>
<button type="submit" name="action" value="validate-otp" data-testid="otp-submit">${s.submitCode}</button>`)}
<p>${s.attemptsLeft}: <strong data-testid="attempts-left">${view.attemptsLeft}</strong></p>
<p class="hint">${s.testCode}: <code data-testid="test-code">${ACCEPTED_CODE}</code></p>
${form(html`<button type="submit" name="action" value="resend-otp" data-testid="otp-resend">${s.resendCode}</button>`)}
</section>
<section class="shortcuts">
<h2>${s.shortcuts}</h2>
${form(html`<button type="submit" name="action" value="accept" data-testid="accept">${s.accept}</button>
<button type="submit" name="action" value="reject" data-testid="reject">${s.reject}</button>`)}
</section>`;
}

function noticeLine(s: PlayerStrings, notice: Notice | undefined): HtmlValue {
  switch (notice) {
    case undefined:
    case "done":
      return undefined;
    case "code-sent":
      return html`<p class="notice" role="status" data-testid="notice" data-notice="${notice}">${s.codeSent}</p>`;
    default: {
      const text = {
        "code-rejected": s.codeRejected,
        "invalid-code": s.invalidCode,
        stale: s.stale,
        "not-ready": s.notReady,
      }[notice];
      return html`<p class="error" role="alert" data-testid="error" data-notice="${notice}">${text}</p>`;
    }
  }
}

function document(page: {
  readonly locale: Locale;
  readonly title: string;
  readonly main: Html;
  readonly refresh?: boolean;
}): Html {
  // The refresh is how a page without script follows the session to its step.
  return html`<!doctype html>
<html lang="${page.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${page.refresh === true && html`<meta http-equiv="refresh" content="1">`}
<title>${page.title}</title>
<style>${new Html(PLAYER_STYLE)}</style>
</head>
<body>
${page.main}
</body>
</html>
`;
}
