/**
 * The web example's pages: plain HTML, no script. Every value reaches a page
 * through the `html` template below, which escapes it; the data blocks (the
 * user's own input, echoed by the API) and error texts are shown as text.
 */
import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";

class Html {
  constructor(readonly text: string) {}
}

type HtmlValue = Html | string | number | undefined | false | readonly HtmlValue[];

function html(literals: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  return new Html(literals.reduce((text, literal, index) => text + render(values[index - 1]) + literal));
}

function render(value: HtmlValue): string {
  if (value === undefined || value === false) return "";
  if (value instanceof Html) return value.text;
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return value.replace(/[&<>"']/g, (char) => `&#${String(char.charCodeAt(0))};`);
  return value.map(render).join("");
}

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}label{display:block;margin:.5rem 0}pre{background:#f4f4f4;padding:.5rem;overflow:auto}.bad{color:#a00}";

/**
 * No script may run; forms post to this app, and (Chrome applies form-action
 * to the redirect after a POST) POST /verify's 303 may lead to the player.
 */
export function sendPage(res: ServerResponse, status: number, page: Html, playerOrigin: string): void {
  const csp = `default-src 'none'; style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'; form-action 'self' ${playerOrigin}; base-uri 'none'; frame-ancestors 'none'`;
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    // Outcome pages show the user's data blocks.
    "cache-control": "no-store",
  });
  res.end(page.text);
}

function layout(title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>${new Html(STYLE)}</style></head>
<body><h1>${title}</h1>${body}</body></html>`;
}

export interface HomeForm {
  readonly givenName: string;
  readonly familyName: string;
  readonly birthDate: string;
  readonly locale: string;
}

const SAMPLE_FORM: HomeForm = { givenName: "Ada", familyName: "Lovelace", birthDate: "1815-12-10", locale: "en" };

/** The app's page: who is signed in, and the form that starts a verification (again, with the problems, when refused). */
export function homePage(
  subjectId: string,
  locales: readonly string[],
  form: HomeForm = SAMPLE_FORM,
  problems: readonly string[] = [],
): Html {
  return layout(
    "Verify your identity",
    html`
<p>Signed in as <code data-testid="subject-id">${subjectId}</code> (a cookie stands in for your app's login).</p>
${problems.length > 0 && html`<ul class="bad" data-testid="form-error">${problems.map((problem) => html`<li>${problem}</li>`)}</ul>`}
<form method="post" action="/verify">
  <label>Given name <input name="givenName" value="${form.givenName}"></label>
  <label>Family name <input name="familyName" value="${form.familyName}"></label>
  <label>Birth date <input name="birthDate" type="date" value="${form.birthDate}"></label>
  <label>Language of the player <select name="locale">${locales.map((locale) => html`<option${locale === form.locale && " selected"}>${locale}</option>`)}</select></label>
  <button data-testid="start">Start the verification</button>
</form>`,
  );
}

/** What the backend knows of an ended session: from the webhook it recorded, else read from the API on the return. */
export interface Outcome {
  readonly sessionId: string;
  readonly sessionStatus: string;
  readonly decision: string | undefined;
  readonly dataBlocks: unknown;
  /** The delivery's webhook-id once the webhook was received (its signature verified). */
  readonly webhookId: string | undefined;
}

export function outcomePage(outcome: Outcome): Html {
  const decision = outcome.decision ?? "UNKNOWN";
  return layout(
    `Verification ${decision.toLowerCase()}`,
    html`
<p data-testid="outcome" data-decision="${decision}">Decision: <strong>${decision}</strong> (session <code data-testid="session-id">${outcome.sessionId}</code>, ${outcome.sessionStatus}).</p>
${
  outcome.webhookId === undefined
    ? html`<p data-testid="webhook" data-received="false">The webhook has not arrived yet: this outcome was read from the API (<code>client.waitForOutcome</code>). Reload to see it arrive.</p>`
    : html`<p data-testid="webhook" data-received="true">Webhook <code>${outcome.webhookId}</code> received, its signature verified; outcome and data blocks read from the API.</p>`
}
<h2>Data blocks</h2>
<pre data-testid="data-blocks">${JSON.stringify(outcome.dataBlocks, null, 2)}</pre>
<p><a href="/">Verify again</a></p>`,
  );
}

/** A return whose state did not verify: the outcome is never shown. */
export function refusedPage(code: string): Html {
  return layout(
    "This return was refused",
    html`
<p class="bad" data-testid="refused" data-code="${code}">The link you came back with could not be verified (<code>${code}</code>): it was altered, made for another user, or too old.</p>
<p><a href="/">Start the verification again</a></p>`,
  );
}

export function problemPage(title: string, detail: string): Html {
  return layout(title, html`<p class="bad" data-testid="problem">${detail}</p><p><a href="/">Back</a></p>`);
}
