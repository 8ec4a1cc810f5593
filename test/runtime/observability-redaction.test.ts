/**
 * Redacted by construction: a run against servers that echo everything they
 * are sent (headers and bodies, in 2xx and error answers, the token server
 * too), with a debug logger and the OpenTelemetry SDK attached, then every
 * log entry and every span (name, attributes, status) is scanned for the
 * client secret, every token issued, and every value the requests carried:
 * none may appear, in any encoding the Redactor knows.
 */
import { randomBytes } from "node:crypto";
import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createMemoryTokenStore, type AuthMethod, type Client } from "../../runtime/index.js";
import { arrayLogger } from "./support/array-logger.js";
import { CLIENT_ID, CLIENT_SECRET, clientFor } from "./support/clients.js";
import { createdSession, json, startFakeService, subjectIdOfJson, type FakeService } from "./support/fake-service.js";
import { acceptAll, AML_SPEC, createSessionFor } from "./support/specs.js";

let service: FakeService;
const exporter = new InMemorySpanExporter();
const issued: string[] = [];

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
});
afterAll(() => {
  trace.disable();
  context.disable();
  propagation.disable();
});
beforeEach(async () => {
  service = await startFakeService("/gw");
  const echo = (recorded: { headers: unknown; body: Buffer }) => ({
    headers: recorded.headers,
    body: recorded.body.toString("utf8"),
  });
  service.onToken((_req, res, recorded) => {
    const token = `tok-${randomBytes(12).toString("hex")}`;
    issued.push(token);
    json(res, 200, { access_token: token, expires_in: 3600, token_type: "Bearer", echo: echo(recorded) });
  });
  let calls = 0;
  service.onApi((req, res, recorded) => {
    calls++;
    if (calls === 2) json(res, 401, { status: 401, echo: echo(recorded) });
    else if (req.method === "POST" && recorded.url.endsWith("/sessions")) {
      json(res, 201, { ...createdSession(recorded.url, subjectIdOfJson(recorded.body)), echo: echo(recorded) });
    } else if (recorded.url.endsWith("/missing"))
      json(res, 404, { status: 404, message: JSON.stringify(echo(recorded)) });
    else if (recorded.url.endsWith("/step")) {
      json(res, 200, {
        stepType: "OTP",
        ticketId: "ticket-marker-0001",
        actions: [{ type: "VALIDATE_OTP", schema: { type: "object" } }],
        echo: echo(recorded),
      });
    } else
      json(res, 200, {
        sessionStatus: "RUNNING",
        metadata: { subjectId: "subject-marker-0001" },
        echo: echo(recorded),
      });
  });
});
afterEach(async () => {
  await service.close();
});

const REQUEST = {
  input: { basicIdentity: { givenName: "given-marker-0001", familyName: "family-marker-0001" } },
  metadata: { subjectId: "subject-marker-0001", locale: "de" },
  state: "state-marker-0001",
};
const ACTION = { type: "VALIDATE_OTP", code: "code-marker-0001" };

test.each<[AuthMethod, string]>([
  ["client_secret_post", "its own token"],
  ["client_secret_basic", "its own token"],
  // The first token comes from the store, fetched by another client: this one never saw it arrive.
  ["client_secret_post", "a token from a shared token store"],
])(
  "with %s and %s, no log entry and no span holds a secret, a token or a request's values",
  async (authMethod, tokens) => {
    const logger = arrayLogger({ debug: true });
    const tokenStore = createMemoryTokenStore();
    if (tokens !== "its own token") {
      const fetcher: Client<"live"> = clientFor<"live">(service, { environment: "live", authMethod, tokenStore });
      await fetcher.getSession("session-0").finally(() => fetcher.close());
    }
    const live: Client<"live"> = clientFor<"live">(service, {
      environment: "live",
      authMethod,
      logger,
      tokenStore,
      retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 5 },
    });
    try {
      await createSessionFor(live, AML_SPEC, acceptAll, REQUEST, {
        headers: { "x-request-id": "request-id-marker-0001" },
      });
      await createSessionFor(live, AML_SPEC, acceptAll, REQUEST);
      await live.getSession("session-1");
      await live.getSession("missing").catch(() => undefined);
      await live.getStep("session-1");
      await live.submitAction("session-1", "ticket-marker-0001", ACTION);
    } finally {
      await live.close();
    }
    expect(logger.entries.length).toBeGreaterThanOrEqual(8);
    expect(logger.entries.some((entry) => entry.level === "debug")).toBe(true);
    const spans = exporter.getFinishedSpans();
    expect(spans.length).toBeGreaterThanOrEqual(8);

    const written = [
      ...logger.entries.map((entry) => JSON.stringify(entry)),
      ...spans.map((span) =>
        JSON.stringify({ name: span.name, attributes: span.attributes, status: span.status, events: span.events }),
      ),
    ].join("\n");
    const forbidden = [
      CLIENT_SECRET,
      encodeURIComponent(CLIENT_SECRET),
      Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64"),
      ...issued,
      ...issued.map((token) => Buffer.from(token).toString("base64")),
      "given-marker-0001",
      "family-marker-0001",
      "subject-marker-0001",
      "state-marker-0001",
      "code-marker-0001",
      "request-id-marker-0001",
      // Not the ticket: the step's answer names it (a debug entry may show that body); the action's echo of it is scrubbed.
      JSON.stringify(REQUEST),
    ];
    for (const value of forbidden) expect({ value, found: written.includes(value) }).toEqual({ value, found: false });
    exporter.reset();
  },
);
