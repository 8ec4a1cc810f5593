/**
 * undici, the package, on Node: the Agent a client sends through and the
 * proxy agents. The Agent is loaded from its own file when first used: the
 * package's index also loads fetch, WebSocket, caches and mocks, which a
 * client never uses, and loading them cost a fresh process (a serverless
 * function's first request) more CPU than its whole first call
 * (bench/analysis.md, "Cold start"). The proxy agents come from the index:
 * they tunnel with the Dispatcher API's connect(), which the index installs.
 * undici has no "exports" map, so these paths are part of its published
 * layout; the consumer test runs them from the packed package on Node 20,
 * 22 and 24.
 */
import type * as Undici from "undici";

type Classes = Pick<typeof Undici, "Agent" | "ProxyAgent" | "EnvHttpProxyAgent">;

/* eslint-disable @typescript-eslint/no-require-imports -- one file of undici each, when first used */
export const undici: Classes = {
  get Agent() {
    return require("undici/lib/dispatcher/agent.js") as Classes["Agent"];
  },
  get ProxyAgent() {
    return (require("undici/index.js") as typeof Undici).ProxyAgent;
  },
  get EnvHttpProxyAgent() {
    return (require("undici/index.js") as typeof Undici).EnvHttpProxyAgent;
  },
};
/* eslint-enable @typescript-eslint/no-require-imports */
