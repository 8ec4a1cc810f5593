/**
 * OpenTelemetry with the real SDK (@opentelemetry/sdk-trace-base and its
 * in-memory exporter, the async-hooks context manager, W3C propagation):
 * each attempt is a CLIENT span under the caller's active span, with the HTTP
 * client semantic conventions' attributes; its context goes on the wire as
 * traceparent; the token request has its own span; and before a provider is
 * registered nothing is traced or sent.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { createMemoryTokenStore, type Client } from "../../runtime/index.js";
import { clientFor } from "./support/clients.js";
import { json, slowTokenAndFlows, startFakeService, type FakeService } from "./support/fake-service.js";

let service: FakeService;
let client: Client<"staging">;
const exporter = new InMemorySpanExporter();

beforeEach(async () => {
  service = await startFakeService("/gw");
  client = clientFor(service, { retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 } });
});
afterEach(async () => {
  await client.close();
  await service.close();
  trace.disable();
  context.disable();
  propagation.disable();
  exporter.reset();
});

function registerSdk(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
}

const clientSpans = (): ReadableSpan[] => exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.CLIENT);

test("before a tracer provider is registered, nothing is traced and no traceparent is sent", async () => {
  service.onApi((_req, res) => {
    json(res, 200, [{ id: "f" }]);
  });
  await client.listFlows();
  expect(service.apiRequests[0]?.headers.traceparent).toBeUndefined();
  expect(exporter.getFinishedSpans()).toHaveLength(0);
});

test("each attempt is a CLIENT span under the caller's span, attributed per the HTTP semantic conventions, its context on the wire", async () => {
  registerSdk();
  let calls = 0;
  service.onApi((_req, res) => {
    calls++;
    if (calls === 1) json(res, 503, { status: 503 });
    else json(res, 404, { status: 404, code: "SESSION_NOT_FOUND" });
  });
  const tracer = trace.getTracer("backend");
  const parent = await tracer.startActiveSpan("handle request", async (span) => {
    await client.getSession("s-1").catch(() => undefined);
    span.end();
    return span.spanContext();
  });

  const spans = clientSpans();
  expect(spans.map((span) => span.name)).toEqual([
    "POST /oidc/token",
    "GET /gw/api/v1/{environment}/sessions/{sessionId}",
    "GET /gw/api/v1/{environment}/sessions/{sessionId}",
  ]);
  for (const span of spans) {
    expect(span.spanContext().traceId).toBe(parent.traceId);
    expect(span.parentSpanContext?.spanId).toBe(parent.spanId);
  }
  const [token, first, retry] = spans as [ReadableSpan, ReadableSpan, ReadableSpan];
  const apiPort = Number(new URL(service.baseUrl).port);
  expect(token.attributes).toMatchObject({
    "http.request.method": "POST",
    "url.template": "/oidc/token",
    "server.address": "127.0.0.1",
    "server.port": Number(new URL(service.authUrl).port),
    "http.response.status_code": 200,
  });
  expect(first.attributes).toEqual({
    "http.request.method": "GET",
    "url.template": "/gw/api/v1/{environment}/sessions/{sessionId}",
    "url.full": `${service.baseUrl}/api/v1/staging/sessions/s-1`,
    "server.address": "127.0.0.1",
    "server.port": apiPort,
    "http.response.status_code": 503,
    "error.type": "503",
  });
  expect(first.status.code).toBe(SpanStatusCode.ERROR);
  expect(token.status.code).toBe(SpanStatusCode.UNSET);
  expect(retry.attributes).toMatchObject({
    "http.response.status_code": 404,
    "error.type": "404",
    "http.request.resend_count": 1,
  });

  // The traceparent each attempt sent names that attempt's span.
  const sent = service.apiRequests.map((request) => request.headers.traceparent);
  expect(sent).toEqual(
    [first, retry].map((span) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`),
  );
  expect(service.authRequests[0]?.headers.traceparent).toBe(
    `00-${token.spanContext().traceId}-${token.spanContext().spanId}-01`,
  );
});

test("an attempt without an answer records its error code; a provider registered after createClient is used", async () => {
  service.onApi(() => {
    // Never answered: the call's time limit ends it.
  });
  registerSdk();
  await expect(client.listFlows({ timeoutMs: 50 })).rejects.toMatchObject({ code: "TIMEOUT" });
  const failed = clientSpans().filter((span) => span.name.startsWith("GET"));
  // A timed-out call is not retried (it may have reached the server): one attempt.
  expect(failed).toHaveLength(1);
  for (const span of failed) {
    expect(span.attributes["error.type"]).toBe("TIMEOUT");
    expect(span.attributes["http.response.status_code"]).toBeUndefined();
    expect(span.status).toMatchObject({ code: SpanStatusCode.ERROR });
  }
});

test("middleware runs inside the attempt's span", async () => {
  registerSdk();
  await client.close();
  let seenSpanId: string | undefined;
  client = clientFor(service, {
    middleware: [
      (request, next) => {
        seenSpanId = trace.getActiveSpan()?.spanContext().spanId;
        return next(request);
      },
    ],
  });
  service.onApi((_req, res) => {
    json(res, 200, [{ id: "f" }]);
  });
  await client.listFlows();
  const listed = clientSpans().find((span) => span.name === "GET /gw/api/v1/flows/{environment}");
  expect(seenSpanId).toBe(listed?.spanContext().spanId);
});

test("a token fetched for every client of a token store has its own span, under the call that fetched it; a call that took it from the store has none", async () => {
  registerSdk();
  slowTokenAndFlows(service, "fleet-token-value");
  const tokenStore = createMemoryTokenStore();
  await client.close();
  client = clientFor(service, { tokenStore });
  const other = clientFor(service, { tokenStore });
  try {
    const tracer = trace.getTracer("backend");
    const parents = await Promise.all(
      [client, other].map((each, index) =>
        tracer.startActiveSpan(`handle request ${String(index)}`, async (span) => {
          await each.listFlows();
          span.end();
          return span.spanContext();
        }),
      ),
    );
    expect(service.authRequests).toHaveLength(1);
    const tokens = clientSpans().filter((span) => span.name === "POST /oidc/token");
    expect(tokens).toHaveLength(1);
    const [token] = tokens as [ReadableSpan];
    const fetchedFor = parents.find((parent) => parent.spanId === token.parentSpanContext?.spanId);
    expect(fetchedFor?.traceId).toBe(token.spanContext().traceId);
    expect(token.attributes).toMatchObject({ "url.template": "/oidc/token", "http.response.status_code": 200 });
    expect(service.authRequests[0]?.headers.traceparent).toBe(
      `00-${token.spanContext().traceId}-${token.spanContext().spanId}-01`,
    );
    // Each call's own attempt, under its own caller, whichever client fetched the token.
    const listed = clientSpans().filter((span) => span.name === "GET /gw/api/v1/flows/{environment}");
    expect(listed.map((span) => span.parentSpanContext?.spanId).sort()).toEqual(
      parents.map((parent) => parent.spanId).sort(),
    );
  } finally {
    await other.close();
  }
});
