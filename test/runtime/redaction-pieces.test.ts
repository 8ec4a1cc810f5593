/**
 * No run of 8 characters of a secret, whichever part of it a server echoes
 * (issue 31): an auth host and an API host on loopback that echo 16
 * characters of the client secret, or 24 of the access token, from its
 * start, its middle or its end, in each encoding of secret-echoes.ts; the
 * error (message, fields, cause chain), every log entry (debug included) and
 * every span are searched for any run of 8 of its characters, however
 * written. And the whole secret in the encodings that used to pass (hex,
 * HTML references, double percent-encoding).
 */
import type { IncomingMessage } from "node:http";
import { randomBytes } from "node:crypto";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ApiError, AuthError, createClient, NetworkError, type Client } from "../../runtime/index.js";
import { Redactor } from "../../runtime/secrets/redaction.js";
import { arrayLogger } from "./support/array-logger.js";
import { USER_AGENT } from "./support/clients.js";
import { json, startFakeService, type FakeService } from "./support/fake-service.js";
import { ENCODINGS, everyWayShown, leaksIn } from "./support/secret-echoes.js";

/** The characters every encoding writes its own way: + / = & % space ~ ! and a non-ASCII letter. */
const SECRET = "q7F/k2+Lm9=xR4&Tz8 Wv3%Yb6!Np1~Hc5ü";
const TOKEN = `eyJ${randomBytes(150).toString("base64url")}.${randomBytes(60).toString("base64url")}`;

const PLACES = [
  ["start", 0],
  ["middle", 0.5],
  ["end", 1],
] as const;

/** `length` characters of `secret`, from its start, its middle or its end. */
function pieceOf(secret: string, length: number, where: number): string {
  const start = Math.round((secret.length - length) * where);
  return secret.slice(start, start + length);
}

const CASES = PLACES.flatMap(([place, where]) =>
  ENCODINGS.map(([encoding, encode]) => [`16 characters from its ${place}, ${encoding}`, { where, encode }] as const),
);

describe("Redactor: a piece of the secret, each encoding", () => {
  const redactor = new Redactor({ clientId: "cid-pieces", clientSecret: SECRET });
  test.each(CASES)("%s", (_name, { where, encode }) => {
    const echo = `the server said: ${encode(pieceOf(SECRET, 16, where))} (and more)`;
    const scrubbed = redactor.text(echo);
    expect(leaksIn([echo], SECRET)).not.toEqual([]);
    expect(leaksIn([scrubbed], SECRET)).toEqual([]);
    // The character before the piece may be the secret's own too (a space before its last 16): one run with them.
    expect(scrubbed).toMatch(/^the server said:.*\[redacted\].* \(and more\)$/);
    expect(redactor.holdsKnown(echo)).toBe(true);
  });

  test.each(ENCODINGS)("the whole secret, %s", (_name, encode) => {
    const echo = encode(SECRET);
    expect(leaksIn([redactor.text(echo)], SECRET)).toEqual([]);
  });

  test("7 characters of the secret are ordinary text: kept", () => {
    const seven = SECRET.slice(10, 17);
    expect(redactor.text(`x ${seven} y`)).toBe(`x ${seven} y`);
  });
});

let service: FakeService;
let client: Client<"live"> | undefined;
const exporter = new InMemorySpanExporter();

beforeAll(async () => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  service = await startFakeService();
});
afterAll(async () => {
  trace.disable();
  await service.close();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  exporter.reset();
});

function piecesClient(logger: ReturnType<typeof arrayLogger>): Client<"live"> {
  const made = createClient({
    baseUrl: service.baseUrl,
    authUrl: service.authUrl,
    environment: "live",
    clientId: "cid-pieces",
    clientSecret: SECRET,
    userAgent: USER_AGENT,
    retry: { maxRetries: 0 },
    logger,
  });
  client = made;
  return made;
}

/** Every log entry and every span, as an exporter or a log sink writes them. */
function logsAndSpans(logger: ReturnType<typeof arrayLogger>): string[] {
  return [
    ...logger.entries.map((entry) => JSON.stringify(entry)),
    ...exporter
      .getFinishedSpans()
      .map((span) =>
        JSON.stringify({ name: span.name, attributes: span.attributes, status: span.status, events: span.events }),
      ),
  ];
}

/** The client secret as the token request carried it (form body or Basic value), decoded back. */
function secretSent(req: IncomingMessage, body: Buffer): string {
  const basic = req.headers.authorization?.replace(/^Basic /, "");
  if (basic) return decodeURIComponent(Buffer.from(basic, "base64").toString("utf8").split(":")[1] ?? "");
  return new URLSearchParams(body.toString("utf8")).get("client_secret") ?? "";
}

describe("an auth host echoes a piece of the client secret it was sent", () => {
  test.each(CASES)("%s: not in the AuthError, its log entries or its span", async (_name, { where, encode }) => {
    service.onToken((req, res, recorded) => {
      const piece = pieceOf(secretSent(req, recorded.body), 16, where);
      json(res, 401, {
        error: "invalid_client",
        error_description: `client_secret ${encode(piece)} is not the one registered`,
      });
    });
    const logger = arrayLogger({ debug: true });
    const error = await piecesClient(logger)
      .listFlows()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: "AUTH_FAILED", status: 401 });
    expect((error as AuthError).message).toMatch(
      /invalid_client: client_secret.*\[redacted\].* is not the one registered/,
    );
    expect(leaksIn([...everyWayShown(error), ...logsAndSpans(logger)], SECRET)).toEqual([]);
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(["POST /oidc/token"]);
  });

  test("in the raw bytes of an answer undici refuses, kept in its error: not in the cause chain", async () => {
    service.onToken((req, _res, recorded) => {
      const piece = pieceOf(secretSent(req, recorded.body), 16, 0.5);
      req.socket.end(`HTTP/1.1 200 OK\r\nX-Echo: \u0001${piece} ${encodeURIComponent(piece)}\r\n\r\n`);
    });
    const logger = arrayLogger({ debug: true });
    const error = await piecesClient(logger)
      .listFlows()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).cause).toBeInstanceOf(NetworkError);
    expect(leaksIn([...everyWayShown(error), ...logsAndSpans(logger)], SECRET)).toEqual([]);
  });
});

describe("an API host echoes a piece of the access token it was sent", () => {
  const tokenCases = PLACES.flatMap(([place, where]) =>
    ENCODINGS.map(([encoding, encode]) => [`24 characters from its ${place}, ${encoding}`, { where, encode }] as const),
  );
  test.each(tokenCases)(
    "%s: not in the ApiError, the debug entry of its body or its span",
    async (_name, { where, encode }) => {
      service.onToken((_req, res) => {
        json(res, 200, { access_token: TOKEN, expires_in: 3600, token_type: "Bearer" });
      });
      service.onApi((req, res) => {
        const piece = pieceOf((req.headers.authorization ?? "").replace(/^Bearer /, ""), 24, where);
        json(res, 500, { code: "ECHO", message: `token ${encode(piece)} was refused upstream` });
      });
      const logger = arrayLogger({ debug: true });
      const error = await piecesClient(logger)
        .getSession("s-1")
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ code: "SERVER_ERROR", status: 500 });
      expect((error as ApiError).message).toMatch(/\[redacted\].* was refused upstream/);
      const debugBody = logger.entries.find((entry) => entry.level === "debug")?.fields["body"];
      expect(debugBody).toMatch(/\[redacted\].* was refused upstream/);
      expect(leaksIn([...everyWayShown(error), ...logsAndSpans(logger)], TOKEN)).toEqual([]);
      expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual([
        "POST /oidc/token",
        "GET /api/v1/{environment}/sessions/{sessionId}",
      ]);
    },
  );
});
