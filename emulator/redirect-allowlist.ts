/**
 * Where a session may send the browser when it ends. On the service,
 * redirectUrl "must be on the allowlist configured in the dashboard"
 * (docs/service.md 2.1); here the allowlist is an emulator option, checked at
 * session creation. Entries and candidates are compared as parsed URLs (WHATWG
 * parser, the browser's own), never as strings, so `http://127.0.0.1.evil.test`,
 * `http://127.0.0.1@evil.test` or `/return-evil` under `/return` cannot pass.
 */
import { badRequest } from "./errors.js";

/** The entry that allows http(s) on 127.0.0.1, [::1] and localhost, any port and path: the default. */
export const LOOPBACK_ENTRY = "loopback";

type AllowlistEntry =
  | { readonly kind: "loopback" }
  /** Exactly this scheme, host and port; any path. */
  | { readonly kind: "origin"; readonly origin: string }
  /** This origin, and a path equal to `path` or below it on a segment boundary. */
  | { readonly kind: "prefix"; readonly origin: string; readonly path: string };

export interface RedirectAllowlist {
  readonly entries: readonly AllowlistEntry[];
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["127.0.0.1", "[::1]", "localhost"]);
const WEB_SCHEMES: ReadonlySet<string> = new Set(["http:", "https:"]);

/** Reads the option's entries (`--redirect-allowlist`); an unusable entry is a RangeError naming it. */
export function parseRedirectAllowlistOrThrow(entries: readonly string[]): RedirectAllowlist {
  if (entries.length === 0) {
    throw new RangeError(
      `emulator option redirectAllowlist must name at least one entry (use "${LOOPBACK_ENTRY}" for the default)`,
    );
  }
  return { entries: entries.map(parseEntryOrThrow) };
}

/** The check at session creation: 400 REDIRECT_URL_NOT_ALLOWED, naming the allowlist, unless allowed. */
export function checkRedirectUrlOrThrow(allowlist: RedirectAllowlist, redirectUrl: string): void {
  const refuse = (why: string) =>
    badRequest("REDIRECT_URL_NOT_ALLOWED", `redirectUrl ${why}`, [{ path: "/redirectUrl", message: why }]);
  if (!URL.canParse(redirectUrl)) throw refuse("is not an absolute URL");
  const url = new URL(redirectUrl);
  if (!WEB_SCHEMES.has(url.protocol)) throw refuse(`must be an http or https URL, not ${url.protocol}`);
  if (url.username !== "" || url.password !== "") throw refuse("must not carry user credentials (user:password@)");
  if (!allowlist.entries.some((entry) => matches(entry, url))) {
    // Origin and path only: the query may hold the caller's own values.
    throw refuse(
      `${url.origin}${url.pathname} is not on the emulator's redirect allowlist (${describeAllowlist(allowlist)}); ` +
        "start the emulator with --redirect-allowlist <origin or URL prefix> (option redirectAllowlist) to allow it",
    );
  }
}

function describeAllowlist(allowlist: RedirectAllowlist): string {
  return allowlist.entries
    .map((entry) => {
      switch (entry.kind) {
        case "loopback":
          return "loopback: http(s) on 127.0.0.1, [::1] or localhost, any port";
        case "origin":
          return entry.origin;
        case "prefix":
          return `${entry.origin}${entry.path}`;
      }
    })
    .join("; ");
}

function matches(entry: AllowlistEntry, url: URL): boolean {
  switch (entry.kind) {
    case "loopback":
      return LOOPBACK_HOSTS.has(url.hostname);
    case "origin":
      return url.origin === entry.origin;
    case "prefix":
      return url.origin === entry.origin && isWithin(url.pathname, entry.path);
  }
}

/** `/return` allows `/return` and `/return/x`, never `/return-evil`; `/return/` allows what starts with it. */
function isWithin(pathname: string, prefix: string): boolean {
  if (prefix.endsWith("/")) return pathname.startsWith(prefix);
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

function parseEntryOrThrow(entry: string): AllowlistEntry {
  if (entry === LOOPBACK_ENTRY) return { kind: "loopback" };
  const refuse = (why: string) =>
    new RangeError(
      `emulator option redirectAllowlist: entry "${entry}" ${why}; give an origin (https://app.example.test) or a URL prefix (https://app.example.test/return/), or "${LOOPBACK_ENTRY}"`,
    );
  if (!URL.canParse(entry)) throw refuse("is not an absolute URL");
  const url = new URL(entry);
  if (!WEB_SCHEMES.has(url.protocol)) throw refuse(`has the scheme ${url.protocol}; only http and https are allowed`);
  if (url.username !== "" || url.password !== "") throw refuse("carries user credentials");
  if (url.search !== "" || url.hash !== "" || entry.includes("?") || entry.includes("#"))
    throw refuse("has a query or fragment");
  if (url.hostname.includes("*")) throw refuse("has a wildcard; list each host");
  return url.pathname === "/"
    ? { kind: "origin", origin: url.origin }
    : { kind: "prefix", origin: url.origin, path: url.pathname };
}
