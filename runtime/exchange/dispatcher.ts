/**
 * The undici dispatcher a client sends through: its own Agent by default,
 * a proxy agent for `proxy` (scoped to the client: the global dispatcher is
 * never set), or one the caller passes. A dispatcher that cannot dispatch is
 * refused here by name, not found out by a TypeError on the first call.
 */
import type { Dispatcher } from "undici";
import { ConfigurationError } from "../errors.js";
import { undici } from "./undici.js";

/**
 * "env": HTTP_PROXY, HTTPS_PROXY and NO_PROXY (or their lower-case forms),
 * as npm and curl read them; a URL: every request through that proxy.
 */
export type ProxyOption = "env" | string | URL;

export interface ChosenDispatcher {
  readonly dispatcher: Dispatcher;
  /** Whether close() should close it (only when the client made it). */
  readonly owned: boolean;
}

/** Called last by the option resolver: a dispatcher is made only once every other option has been accepted. */
export function dispatcherOrThrow(given: unknown, proxy: unknown): ChosenDispatcher {
  if (given !== undefined && proxy !== undefined) {
    throw new ConfigurationError("pass either dispatcher or proxy, not both (configure the proxy on your dispatcher, or leave dispatcher out)");
  }
  if (given !== undefined) return { dispatcher: dispatcherThatDispatchesOrThrow(given), owned: false };
  if (proxy === undefined) return { dispatcher: new undici.Agent(), owned: true };
  if (proxy === "env") return { dispatcher: new undici.EnvHttpProxyAgent(), owned: true };
  return { dispatcher: new undici.ProxyAgent(proxyUrlOrThrow(proxy)), owned: true };
}

function dispatcherThatDispatchesOrThrow(given: unknown): Dispatcher {
  const candidate = given as Partial<Dispatcher> | null;
  if (typeof candidate === "object" && candidate !== null && typeof candidate.dispatch === "function") return candidate as Dispatcher;
  const bun = typeof process.versions.bun === "string";
  throw new ConfigurationError(
    bun
      ? "dispatcher has no dispatch() method: on Bun, `undici` imports Bun's built-in stand-in, whose Agent cannot dispatch; " +
          'import the package by its file (require("undici/index.js")) to make one, or leave dispatcher out'
      : "dispatcher must be an undici Dispatcher (an Agent, Pool or ProxyAgent from undici 7)",
  );
}

/** An http(s) URL; its credentials, if any, are used by undici and never shown. */
function proxyUrlOrThrow(proxy: unknown): string {
  let url: URL | undefined;
  try {
    url = typeof proxy === "string" || proxy instanceof URL ? new URL(String(proxy)) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new ConfigurationError('proxy must be "env" (HTTP_PROXY, HTTPS_PROXY, NO_PROXY) or the http(s) URL of a proxy, such as "http://proxy.internal:3128"');
  }
  return url.href;
}
