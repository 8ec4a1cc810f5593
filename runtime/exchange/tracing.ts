/**
 * OpenTelemetry, when the application has it: each attempt a CLIENT span
 * under the caller's active span, named and attributed as the HTTP client
 * semantic conventions say, its context sent on the wire (`traceparent`,
 * through the API's propagation, so the application's propagator decides).
 *
 * `@opentelemetry/api` is an optional peer dependency, loaded only once
 * something in the process has registered with it (a tracer provider, a
 * context manager: the API keeps them under a global symbol, whichever copy
 * of the API registered them), by a synchronous require() inside try (an
 * import() would miss the first calls' spans). A process that has the
 * package installed but does not trace loads none of it (a serverless
 * function's first request pays nothing for it: bench/analysis.md, "Cold
 * start"), and nothing is loaded when it is not installed. Attributes hold the method, route
 * template, host, port, status and error code: never a header value, body,
 * secret, token or metadata value.
 */
import type * as OpenTelemetry from "@opentelemetry/api";
import { FlowsmithError } from "../errors.js";
import type { Answer } from "./answer.js";
import type { ExchangeRequest } from "./messages.js";
import type { AttemptObserver, AttemptRecord } from "./observer.js";

type Api = typeof OpenTelemetry;

/** undefined: not looked for yet; null: not installed (or not loadable). */
let api: Api | null | undefined;

/** Where the OpenTelemetry API (major version 1) keeps what was registered with it, process-wide. */
const API_GLOBAL = Symbol.for("opentelemetry.js.api.1");

/** The tracing observer: idle (and nothing loaded) until something has registered with the OpenTelemetry API. */
export function attemptTracerOrUndefined(): AttemptObserver | undefined {
  return api === null ? undefined : new OnDemandTracer();
}

/** Asks, per attempt, whether the process traces; loads the API the first time it does. */
class OnDemandTracer implements AttemptObserver {
  private tracer: AttemptTracer | undefined;

  active(): boolean {
    if ((globalThis as Record<symbol, unknown>)[API_GLOBAL] === undefined) return false;
    if (!this.tracer) {
      api ??= loadApiOrNull();
      if (!api) return false;
      this.tracer = new AttemptTracer(api);
    }
    return this.tracer.active();
  }

  start(request: ExchangeRequest): AttemptRecord {
    // The exchange starts a record only after active() said yes, which made the tracer.
    return (this.tracer as AttemptTracer).start(request);
  }
}

function loadApiOrNull(): Api | null {
  try {
    // A literal name, inside try: a bundler bundles the package when the application has it and otherwise
    // leaves this require to fail here, at run time (webpack and esbuild warn rather than stop the build).
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer, loaded only when present
    return require("@opentelemetry/api") as Api;
  } catch {
    // Not installed, or broken: the client works without tracing.
    return null;
  }
}

class AttemptTracer implements AttemptObserver {
  private readonly tracer: OpenTelemetry.Tracer;
  private readonly servers = new Map<string, { address: string; port: number }>();
  /** The API's no-op provider: what a fresh proxy provider delegates to. */
  private readonly noop: OpenTelemetry.TracerProvider;

  constructor(private readonly otel: Api) {
    this.tracer = otel.trace.getTracer("@flowsmith/runtime");
    // The API's only way to name its no-op provider (a fresh proxy delegates to it). Deprecated for API 2.0,
    // which the peer range (^1.4.0) does not admit.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    this.noop = new otel.ProxyTracerProvider().getDelegate();
  }

  /**
   * Whether a tracer provider is registered now (it may be after the client
   * was made): without one every span would be a no-op, so the attempt skips
   * the span, its context and the observed path altogether.
   */
  active(): boolean {
    // The global provider is the API's proxy; what it delegates to is the registered one, or the no-op.
    const provider = this.otel.trace.getTracerProvider() as OpenTelemetry.TracerProvider & {
      getDelegate?: () => OpenTelemetry.TracerProvider;
    };
    return (provider.getDelegate?.() ?? provider) !== this.noop;
  }

  start(request: ExchangeRequest): AttemptRecord {
    const otel = this.otel;
    const server = this.serverOf(request.origin);
    const attributes: OpenTelemetry.Attributes = {
      "http.request.method": request.method,
      "url.template": request.route,
      "url.full": request.origin + request.path,
      "server.address": server.address,
      "server.port": server.port,
    };
    if (request.attempt > 1) attributes["http.request.resend_count"] = request.attempt - 1;
    const parent = otel.context.active();
    const span = this.tracer.startSpan(
      `${request.method} ${request.route}`,
      { kind: otel.SpanKind.CLIENT, attributes },
      parent,
    );
    const context = otel.trace.setSpan(parent, span);
    otel.propagation.inject(context, request.headers);
    return {
      within: (attempt) => otel.context.with(context, attempt),
      answered: (answer: Answer) => {
        span.setAttribute("http.response.status_code", answer.status);
        if (answer.status >= 400) {
          span.setAttribute("error.type", String(answer.status));
          span.setStatus({ code: otel.SpanStatusCode.ERROR });
        }
        span.end();
      },
      failed: (error: unknown) => {
        const type = error instanceof FlowsmithError ? error.code : "_OTHER";
        span.setAttribute("error.type", type);
        span.setStatus({ code: otel.SpanStatusCode.ERROR, message: type });
        span.end();
      },
    };
  }

  /** server.address and server.port of an origin, parsed once (a client has two: the API and the auth host). */
  private serverOf(origin: string): { address: string; port: number } {
    let server = this.servers.get(origin);
    if (!server) {
      const url = new URL(origin);
      server = {
        address: url.hostname.replace(/^\[|\]$/g, ""),
        port: Number(url.port || (url.protocol === "https:" ? 443 : 80)),
      };
      this.servers.set(origin, server);
    }
    return server;
  }
}
