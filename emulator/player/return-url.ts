/**
 * Where the browser goes when the session ends: redirectUrl with `state`
 * echoed as a query parameter (docs/service.md 6), and the CSP source that
 * lets the player's forms end there.
 */

/**
 * redirectUrl with `state=<state>` appended to its own query, before its
 * fragment. The URL's other parameters are kept byte for byte (not
 * re-serialized); a `state` parameter it already had is dropped, so the
 * backend reads exactly one. Without a state, redirectUrl as it is.
 */
export function returnUrlOf(redirectUrl: string, state: string | undefined): URL {
  const url = new URL(redirectUrl);
  if (state === undefined) return url;
  const kept = url.search
    .slice(1)
    .split("&")
    .filter((pair) => pair !== "" && parameterName(pair) !== "state");
  url.search = `?${[...kept, `state=${encodeURIComponent(state)}`].join("&")}`;
  return url;
}

/**
 * The form-action source for a return URL. Chrome applies form-action to the
 * redirect that follows a form POST, so the origin the session ends on must
 * be listed. CSP host sources cannot name an IPv6 literal (Chrome ignores
 * `http://[::1]:8080` as invalid), so such a target is allowed by its scheme.
 */
export function formActionSourceOf(url: URL): string {
  return /^[a-z0-9.-]+$/i.test(url.hostname) ? url.origin : url.protocol;
}

function parameterName(pair: string): string {
  const [raw = ""] = pair.split("=", 1);
  const name = raw.replace(/\+/g, " ");
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}
