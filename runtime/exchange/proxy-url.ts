/**
 * The proxy settings a client sends through, read and checked before any
 * agent is made: from the `proxy` option, or, where it says "env" or leaves a
 * setting out, from HTTP_PROXY and HTTPS_PROXY (lower-case forms first, as
 * undici, npm and curl read them). Each URL must parse and be a proxy's
 * (http: or https:, nothing after the host but `/`); one that is not is a
 * ConfigurationError that names the option or variable and shows nothing of
 * the URL, which may hold a password. undici's own error for it is a
 * TypeError whose `input` is the whole URL.
 *
 * The password in a proxy URL, and the Basic value undici sends for it, are
 * returned too: the client's Redactor scrubs them from whatever a proxy or a
 * server echoes (redaction.ts).
 */
import { ConfigurationError } from "../errors.js";
import { base64OfText } from "../secrets/forms.js";

/**
 * A string: "env", or a proxy's URL. "env": HTTP_PROXY, HTTPS_PROXY and NO_PROXY (or their lower-case forms),
 * as npm and curl read them; a URL: every request through that proxy; an
 * object: the same three settings given rather than read from process.env
 * (each one left out is read from it).
 */
export type ProxyOption = string | URL | ProxySettings;

/** createClient's `proxy` as an object: the three settings given rather than read from the environment. */
export interface ProxySettings {
  /** The proxy for http: URLs (HTTP_PROXY). */
  readonly httpProxy?: string;
  /** The proxy for https: URLs (HTTPS_PROXY); default httpProxy. */
  readonly httpsProxy?: string;
  /** Hosts reached directly, comma-separated (NO_PROXY): `localhost,.internal,10.0.0.1:8080`, or `*`. */
  readonly noProxy?: string;
}

/** What the client's dispatcher is made from, checked. */
export interface CheckedProxy {
  /** One proxy for every request (undici's ProxyAgent), or the settings of undici's EnvHttpProxyAgent (noProxy left out: NO_PROXY, read on each request). */
  readonly agent: { readonly url: string } | { readonly settings: ProxySettings };
  /** The password of each proxy URL, and the Basic value sent for it. */
  readonly secrets: readonly string[];
}

type Environment = Readonly<Record<string, string | undefined>>;

const OPTION_SHAPE =
  'proxy must be "env" (HTTP_PROXY, HTTPS_PROXY, NO_PROXY), the http(s) URL of a proxy, such as "http://proxy.internal:3128", or { httpProxy, httpsProxy, noProxy }';

/** `option` as a caller may pass it (anything); `env`: where "env" and left-out settings are read (process.env). */
export function checkedProxyOrThrow(option: unknown, env: Environment): CheckedProxy {
  const secrets: string[] = [];
  if (typeof option === "string" && option !== "env")
    return { agent: { url: proxyUrlOrThrow(option, "proxy", secrets) }, secrets };
  if (option instanceof URL) return { agent: { url: proxyUrlOrThrow(option.href, "proxy", secrets) }, secrets };
  if (option !== "env" && (typeof option !== "object" || option === null)) throw new ConfigurationError(OPTION_SHAPE);
  const given = option === "env" ? {} : knownSettingsOrThrow(option);
  const http = settingOrUndefined(given.httpProxy, "proxy.httpProxy", env, "http_proxy", "HTTP_PROXY", secrets);
  const https = settingOrUndefined(given.httpsProxy, "proxy.httpsProxy", env, "https_proxy", "HTTPS_PROXY", secrets);
  return {
    // An empty string is "no proxy" to undici, as an empty variable is.
    agent: {
      settings: {
        httpProxy: http ?? "",
        httpsProxy: https ?? "",
        ...(given.noProxy === undefined ? {} : { noProxy: given.noProxy }),
      },
    },
    secrets,
  };
}

function knownSettingsOrThrow(settings: object): ProxySettings {
  const { httpProxy, httpsProxy, noProxy, ...others } = settings as Record<string, unknown>;
  const unknown = Object.keys(others);
  if (unknown.length > 0)
    throw new ConfigurationError(
      `proxy: unknown setting ${unknown.join(", ")} (known: httpProxy, httpsProxy, noProxy)`,
    );
  if (noProxy !== undefined && typeof noProxy !== "string")
    throw new ConfigurationError("proxy.noProxy must be a string of hosts, comma-separated");
  for (const [name, value] of [
    ["httpProxy", httpProxy],
    ["httpsProxy", httpsProxy],
  ] as const) {
    if (value !== undefined && typeof value !== "string" && !(value instanceof URL)) {
      throw new ConfigurationError(
        `proxy.${name} must be the http(s) URL of a proxy, such as "http://proxy.internal:3128"`,
      );
    }
  }
  return settings;
}

/** A setting given, else read from the environment (lower-case name first); checked where it is not empty. */
function settingOrUndefined(
  given: string | URL | undefined,
  option: string,
  env: Environment,
  lower: string,
  upper: string,
  secrets: string[],
): string | undefined {
  if (given !== undefined) return proxyUrlOrThrow(String(given), option, secrets);
  const name = env[lower] !== undefined ? lower : upper;
  const value = env[name];
  if (value === undefined || value === "") return undefined;
  return proxyUrlOrThrow(value, `${name} (read for proxy: "env")`, secrets);
}

/**
 * The URL, checked, its credentials added to `secrets`. The message names
 * `where` and says what is wrong, never a part of the URL: a URL that does
 * not parse cannot be told apart from its password.
 */
function proxyUrlOrThrow(text: string, where: string, secrets: string[]): string {
  const shape =
    where === "proxy"
      ? OPTION_SHAPE
      : `${where} must be the http(s) URL of a proxy, such as "http://proxy.internal:3128"`;
  // A `#`, `?` or `/` in a password ends the URL's authority there: the rest reads as a host, a path or a fragment.
  const escapeHint = text.includes("@")
    ? '; a "#", "?", "/" or "@" in its user name or password must be percent-encoded (%23, %3F, %2F, %40)'
    : "";
  const unshown = " (the value is not shown: it may hold a password)";
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigurationError(`${shape}: this one is not a URL${escapeHint}${unshown}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ConfigurationError(`${shape}: this one is not an http: or https: URL${escapeHint}${unshown}`);
  if (
    url.hash !== "" ||
    url.search !== "" ||
    url.pathname !== "/" ||
    text.trimEnd().endsWith("#") ||
    text.trimEnd().endsWith("?")
  ) {
    throw new ConfigurationError(
      `${shape}: this one has a path, query or fragment after its host, which a proxy's URL does not${escapeHint}${unshown}`,
    );
  }
  const username = decodedOrThrow(url.username, shape, unshown);
  const password = decodedOrThrow(url.password, shape, unshown);
  if (password !== "") secrets.push(password, base64OfText(`${username}:${password}`));
  return url.href;
}

/** A part of the URL as undici decodes it for the Basic value; a `%` that starts no escape would make it throw a URIError. */
function decodedOrThrow(part: string, shape: string, unshown: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new ConfigurationError(
      `${shape}: its user name or password has a "%" that starts no escape: write it %25${unshown}`,
    );
  }
}
