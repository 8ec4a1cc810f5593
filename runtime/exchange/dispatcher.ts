/**
 * The undici dispatcher a client sends through on Node (platform/node.ts): its own Agent by default,
 * a proxy agent for `proxy` (scoped to the client: the global dispatcher is
 * never set), or one the caller passes. A dispatcher that cannot dispatch is
 * refused here by name, not found out by a TypeError on the first call.
 */
import type { Dispatcher } from "undici";
import { ConfigurationError } from "../errors.js";
import { checkedProxyOrThrow } from "./proxy-url.js";

import { undici } from "./undici.js";

interface ChosenDispatcher {
  readonly dispatcher: Dispatcher;
  /** Whether close() should close it (only when the client made it). */
  readonly owned: boolean;
  /** The proxy's password and Basic value, for the client's Redactor. */
  readonly proxySecrets?: readonly string[];
}

/** Called last by the option resolver: a dispatcher is made only once every other option has been accepted. */
export function dispatcherOrThrow(given: unknown, proxy: unknown): ChosenDispatcher {
  if (given !== undefined && proxy !== undefined) {
    throw new ConfigurationError(
      "pass either dispatcher or proxy, not both (configure the proxy on your dispatcher, or leave dispatcher out)",
    );
  }
  if (given !== undefined) return { dispatcher: dispatcherThatDispatchesOrThrow(given), owned: false };
  if (proxy === undefined) return { dispatcher: new undici.Agent(), owned: true };
  const { agent, secrets } = checkedProxyOrThrow(proxy, process.env);
  return {
    dispatcher: "url" in agent ? new undici.ProxyAgent(agent.url) : new undici.EnvHttpProxyAgent(agent.settings),
    owned: true,
    proxySecrets: secrets,
  };
}

function dispatcherThatDispatchesOrThrow(given: unknown): Dispatcher {
  const candidate = given as Partial<Dispatcher> | null;
  if (typeof candidate === "object" && candidate !== null && typeof candidate.dispatch === "function")
    return candidate as Dispatcher;
  throw new ConfigurationError("dispatcher must be an undici Dispatcher (an Agent, Pool or ProxyAgent from undici 7)");
}
