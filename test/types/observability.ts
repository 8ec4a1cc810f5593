/**
 * Type-level tests of middleware, the logger, per-call headers, the proxy
 * option and the webhook handler's Fetch-API front. Compiled by
 * `tsc -p tsconfig.json` and by test/generator/emit-type-tests.test.ts;
 * never run. Each `@ts-expect-error` must meet an error.
 */
import {
  createClient,
  createWebhookHandler,
  type Client,
  type ExchangeResponse,
  type Logger,
  type Middleware,
} from "../../runtime/index.js";

declare const staging: Client<"staging">;
const options = {
  baseUrl: "https://api",
  authUrl: "https://auth",
  environment: "staging",
  clientId: "id",
  clientSecret: "s",
  userAgent: "ua",
} as const;

// A middleware takes the request and next, and answers a response: its own, or next's.
const requestId: Middleware = async (request, next) => {
  const kind: "api" | "token" = request.kind;
  const attempt: number = request.attempt;
  request.headers["x-request-id"] = `${kind}-${String(attempt)}`;
  const response: ExchangeResponse = await next(request);
  return response;
};
const offline: Middleware = () =>
  Promise.resolve({ status: 200, headers: { "content-type": "application/json" }, body: "[]" });
// @ts-expect-error a middleware must answer a promise of a response
const noPromise: Middleware = () => ({ status: 200, headers: {}, body: "" });
// @ts-expect-error the route is the runtime's to say
const rewrite: Middleware = (request, next) => next({ ...request, route: 42 });

// console and pino-shaped objects are loggers; something without the levels is not.
const fromConsole: Logger = console;
// @ts-expect-error a logger needs debug, info, warn and error
const partial: Logger = { info: () => undefined };

createClient({ ...options, middleware: [requestId, offline], logger: fromConsole, proxy: "env" });
createClient({ ...options, proxy: "http://proxy.internal:3128" });
createClient({ ...options, proxy: new URL("http://proxy.internal:3128") });
createClient({ ...options, proxy: { httpsProxy: "http://proxy.internal:3128", noProxy: "localhost" } });
// @ts-expect-error proxy settings are httpProxy, httpsProxy and noProxy
createClient({ ...options, proxy: { socks: "socks5://x" } });

// Per-call headers are string values.
void staging.getSession("s-1", { headers: { "x-request-id": "r-1" } });
// @ts-expect-error a header value is a string
void staging.getSession("s-1", { headers: { "x-retry": 1 } });

// The webhook handler's Fetch-API front: Request in, Response out.
const webhooks = createWebhookHandler({ client: staging, allowUnsigned: true, onSessionEnded: () => undefined });
export const fetchFront: (request: Request) => Promise<Response> = webhooks.fetch;
// @ts-expect-error it takes a Request, not a URL string
void webhooks.fetch("http://localhost/webhooks");

void [noPromise, rewrite, partial];
