/**
 * How the player answers: every page and redirect carries the same security
 * headers. Pages carry the player token (in their URL and forms), so nothing
 * is cached and no Referer leaves them; the CSP allows no script at all, only
 * the page's own stylesheet (by hash) and forms posting to this host or to
 * the session's return origin.
 */
import { createHash } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { Html } from "./html.js";
import { PLAYER_STYLE } from "./pages.js";

const STYLE_SOURCE = `'sha256-${createHash("sha256").update(PLAYER_STYLE).digest("base64")}'`;

const COMMON_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-frame-options": "DENY",
};

/**
 * @param formActions CSP sources forms may post to, and (Chrome applies
 *   form-action to the redirect after a POST) where that redirect may lead;
 *   empty for pages without forms.
 */
export function sendPage(
  res: ServerResponse,
  status: number,
  page: Html,
  formActions: readonly string[] = [],
  extra: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    ...extra,
    ...COMMON_HEADERS,
    "content-type": "text/html; charset=utf-8",
    "content-length": String(Buffer.byteLength(page.text)),
    "content-security-policy": contentSecurityPolicy(formActions),
  });
  res.end(page.text);
}

/** 303: the browser follows with a GET (Post/Redirect/Get), so a reload never posts a form twice. */
export function seeOther(res: ServerResponse, location: string): void {
  res.writeHead(303, { ...COMMON_HEADERS, location, "content-length": "0" });
  res.end();
}

function contentSecurityPolicy(formActions: readonly string[]): string {
  return [
    "default-src 'none'",
    `style-src ${STYLE_SOURCE}`,
    `form-action ${formActions.length > 0 ? formActions.join(" ") : "'none'"}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}
