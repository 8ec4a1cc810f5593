/**
 * No secret in any error (issue 11): servers that echo what they were sent,
 * in every encoding, drive the runtime through each of its error classes;
 * every way an error can be shown (message, stack, JSON.stringify,
 * util.inspect, the whole cause chain) is searched for the client secret and
 * every token the client held, raw and in each encoding they travel in.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  AbortError,
  ApiError,
  AuthError,
  BadRequestError,
  ClientClosedError,
  ConfigurationError,
  createClient,
  FlowsmithError,
  ForbiddenError,
  InvalidResponseError,
  NetworkError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitError,
  RequestValidationError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
  UnprocessableEntityError,
  type AuthMethod,
  type Client,
} from "../../runtime/index.js";
import { USER_AGENT } from "./support/clients.js";
import { json, startFakeService, type FakeService } from "./support/fake-service.js";
import { AML_SPEC, amlValidator, acceptAll, createSessionFor } from "./support/specs.js";

import { Redactor } from "../../runtime/secrets/redaction.js";
import { everyWayShown } from "./support/secret-echoes.js";

const CLIENT_ID = "cid-redaction";
/** Characters that every encoding writes differently: + & = / space, a non-ASCII letter. */
const SECRET = "S3cr3t+UNIQUE&x=y/ü z";
const issued: string[] = [];
const tokenNumber = { next: 0 };

let service: FakeService;
let client: Client<"live">;

beforeEach(async () => {
  issued.length = 0;
  service = await startFakeService();
  service.onToken((_req, res) => {
    json(res, 200, { access_token: newToken(), expires_in: 3600, token_type: "Bearer" });
  });
});
afterEach(async () => {
  await client.close();
  await service.close();
});

function newToken(): string {
  const token = `TOK-${String(++tokenNumber.next)}-X+y/z=w&v u`;
  issued.push(token);
  return token;
}

function clientWith(authMethod: AuthMethod = "client_secret_post", extra: object = {}): Client<"live"> {
  client = createClient({
    baseUrl: service.baseUrl,
    authUrl: service.authUrl,
    environment: "live",
    clientId: CLIENT_ID,
    clientSecret: SECRET,
    userAgent: USER_AGENT,
    authMethod,
    retry: { maxRetries: 0 },
    ...extra,
  });
  return client;
}

/** Everything a request carried, in every form an echoing server could send it back in. */
function echoOf(req: IncomingMessage, body: Buffer): string {
  const authorization = req.headers.authorization ?? "";
  const credential = authorization.replace(/^\w+ /, "");
  const text = body.toString("utf8");
  const decoded = Object.fromEntries(new URLSearchParams(text));
  const basicDecoded = authorization.startsWith("Basic ") ? Buffer.from(credential, "base64").toString("utf8") : "";
  return [
    `you sent authorization: ${authorization}`,
    `body ${text}`,
    `decoded ${JSON.stringify(decoded)}`,
    `secret ${decoded.client_secret ?? ""} ${basicDecoded}`,
    `form ${new URLSearchParams({ echo: credential }).toString()}`,
    `uri ${encodeURIComponent(credential)} ${lowerHex(encodeURIComponent(credential))}`,
    `base64 ${Buffer.from(credential).toString("base64")}`,
    `bare ${credential}`,
  ].join("; ");
}

/** `%2B` as `%2b`: percent-escapes are case-insensitive, and some servers write them in lower case. */
function lowerHex(text: string): string {
  return text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
}

/** An echo that fills the whole body: the part of a message cut at 300 characters must not hold half a secret. */
function longEcho(req: IncomingMessage, body: Buffer): string {
  return `${"x".repeat(280)} ${echoOf(req, body)} ${echoOf(req, body)}`;
}

/** Padded so that the first credential starts 6 characters before the 300th of `invalid_client: <description>`. */
function cutThroughSecret(echo: string): string {
  const credentials = [
    new URLSearchParams({ x: SECRET }).toString().slice(2),
    Buffer.from(`${CLIENT_ID}:${SECRET}`).toString("base64"),
  ];
  const at = Math.min(...credentials.map((credential) => echo.indexOf(credential)).filter((index) => index >= 0));
  return `${"x".repeat(294 - "invalid_client: ".length - at)}${echo}`;
}

/** A response the HTTP parser refuses at a byte after which the echo follows: undici keeps those bytes in its error. */
function malformedResponse(req: IncomingMessage, body: Buffer): void {
  req.socket.end(`HTTP/1.1 200 OK\r\nX-Echo: \u0001${echoOf(req, body)}\r\n\r\n`);
}

type Scenario = {
  readonly expected: abstract new (...args: never[]) => Error;
  readonly code: string;
  /** Whether the echo must show up, scrubbed, somewhere in the error (proving the server did echo). */
  readonly echoed: boolean;
  readonly run: () => Promise<unknown>;
};

const apiEcho =
  (status: number, form: "json" | "text") =>
  (req: IncomingMessage, res: ServerResponse, recorded: { body: Buffer }) => {
    const echo = longEcho(req, recorded.body);
    if (form === "text") return void res.writeHead(status, { "content-type": "text/plain" }).end(echo);
    json(res, status, { status, code: `ECHO ${echo}`, message: echo, headers: req.headers });
  };

const SCENARIOS: readonly [string, Scenario][] = [
  ...(
    [
      [400, BadRequestError, "BAD_REQUEST"],
      [401, UnauthorizedError, "UNAUTHORIZED"],
      [403, ForbiddenError, "FORBIDDEN"],
      [404, NotFoundError, "NOT_FOUND"],
      [413, PayloadTooLargeError, "PAYLOAD_TOO_LARGE"],
      [422, UnprocessableEntityError, "UNPROCESSABLE_ENTITY"],
      [429, RateLimitError, "RATE_LIMITED"],
      [500, ServerError, "SERVER_ERROR"],
      [418, ApiError, "HTTP_ERROR"],
    ] as const
  ).flatMap(([status, expected, code]) =>
    (["json", "text"] as const).map((form): [string, Scenario] => [
      `${expected.name} (${String(status)}, ${form} echo)`,
      {
        expected,
        code,
        echoed: true,
        run: () => {
          service.onApi(apiEcho(status, form));
          return clientWith().getSession("s-1");
        },
      },
    ]),
  ),
  ...(["client_secret_post", "client_secret_basic"] as const).flatMap((method): [string, Scenario][] => [
    [
      `AuthError AUTH_FAILED, OAuth error echo (${method})`,
      {
        expected: AuthError,
        code: "AUTH_FAILED",
        echoed: true,
        run: () => {
          service.onToken((req, res, recorded) => {
            json(res, 401, { error: "invalid_client", error_description: echoOf(req, recorded.body) });
          });
          return clientWith(method).listFlows();
        },
      },
    ],
    [
      `AuthError AUTH_FAILED, the message cut at 300 characters through the secret (${method})`,
      {
        expected: AuthError,
        code: "AUTH_FAILED",
        echoed: false,
        run: () => {
          service.onToken((req, res, recorded) => {
            json(res, 401, {
              error: "invalid_client",
              error_description: cutThroughSecret(echoOf(req, recorded.body)),
            });
          });
          return clientWith(method).listFlows();
        },
      },
    ],
    [
      `AuthError INVALID_TOKEN_RESPONSE, a token with a lifetime of 0 and an echo (${method})`,
      {
        expected: AuthError,
        code: "INVALID_TOKEN_RESPONSE",
        echoed: false,
        run: () => {
          service.onToken((req, res, recorded) => {
            json(res, 200, { access_token: newToken(), expires_in: 0, echo: echoOf(req, recorded.body) });
          });
          return clientWith(method).listFlows();
        },
      },
    ],
    [
      `AuthError, the auth host's response unreadable, undici's error holding the echo (${method})`,
      {
        expected: AuthError,
        code: "AUTH_FAILED",
        echoed: false,
        run: () => {
          service.onToken((req, _res, recorded) => {
            malformedResponse(req, recorded.body);
          });
          return clientWith(method).listFlows();
        },
      },
    ],
  ]),
  [
    "AuthError INVALID_TOKEN_RESPONSE, a token with CR LF in it",
    {
      expected: AuthError,
      code: "INVALID_TOKEN_RESPONSE",
      echoed: false,
      run: () => {
        issued.push("TOK-crlf\r\nX-Injected: 1");
        service.onToken((_req, res) => {
          json(res, 200, { access_token: "TOK-crlf\r\nX-Injected: 1", expires_in: 60 });
        });
        return clientWith().listFlows();
      },
    },
  ],
  [
    "InvalidResponseError, getSession answered with an echo",
    {
      expected: InvalidResponseError,
      code: "INVALID_RESPONSE",
      echoed: true,
      run: () => {
        service.onApi((req, res, recorded) => {
          json(res, 200, { echo: echoOf(req, recorded.body), headers: req.headers });
        });
        return clientWith().getSession("s-1");
      },
    },
  ],
  [
    "InvalidResponseError, createSession answered 201 with text that is not JSON",
    {
      expected: InvalidResponseError,
      code: "INVALID_RESPONSE",
      echoed: true,
      run: () => {
        service.onApi((req, res, recorded) => void res.writeHead(201).end(longEcho(req, recorded.body)));
        return createSessionFor(clientWith(), AML_SPEC, amlValidator, {
          input: { basicIdentity: { givenName: "A", familyName: "B" } },
          metadata: { subjectId: "s" },
        });
      },
    },
  ],
  [
    "NetworkError, undici's parser error holding the echoed bytes",
    {
      expected: NetworkError,
      code: "NETWORK_ERROR",
      echoed: false,
      run: () => {
        service.onApi((req, _res, recorded) => {
          malformedResponse(req, recorded.body);
        });
        return clientWith().getDataBlocks("s-1");
      },
    },
  ],
  [
    // createSession returns ApiCaller.json's promise with no wrapper of its own: json scrubs.
    "NetworkError, createSession's answer refused by undici's parser after the echo",
    {
      expected: NetworkError,
      code: "NETWORK_ERROR",
      echoed: false,
      run: () => {
        service.onApi((req, _res, recorded) => {
          malformedResponse(req, recorded.body);
        });
        return createSessionFor(clientWith(), AML_SPEC, amlValidator, {
          input: { basicIdentity: { givenName: "A", familyName: "B" } },
          metadata: { subjectId: "s" },
        });
      },
    },
  ],
  [
    "TimeoutError, a body that stops after the echo",
    {
      expected: TimeoutError,
      code: "TIMEOUT",
      echoed: false,
      run: () => {
        service.onApi((req, res, recorded) => {
          res.writeHead(200, { "content-type": "application/json", "content-length": "100000" });
          res.write(JSON.stringify({ echo: echoOf(req, recorded.body) }));
        });
        return clientWith().getStep("s-1", { timeoutMs: 50 });
      },
    },
  ],
  [
    "AbortError, aborted once the server has the request",
    {
      expected: AbortError,
      code: "ABORTED",
      echoed: false,
      run: () => {
        const controller = new AbortController();
        service.onApi(() => {
          controller.abort();
        });
        return clientWith().listFlows({ signal: controller.signal });
      },
    },
  ],
  [
    "ClientClosedError, closed while the server holds the request",
    {
      expected: ClientClosedError,
      code: "CLIENT_CLOSED",
      echoed: false,
      run: () => {
        service.onApi(() => void client.close());
        return clientWith().getSession("s-1");
      },
    },
  ],
  [
    "RequestValidationError, after a token was held",
    {
      expected: RequestValidationError,
      code: "VALIDATION_FAILED",
      echoed: false,
      run: async () => {
        service.onApi((_req, res) => {
          json(res, 200, [{ id: "f" }]);
        });
        await clientWith().listFlows();
        return createSessionFor(client, AML_SPEC, amlValidator, { metadata: { subjectId: "s" } });
      },
    },
  ],
  [
    "FlowsmithError INVALID_ARGUMENT, a sessionId that is a dot segment",
    {
      expected: FlowsmithError,
      code: "INVALID_ARGUMENT",
      echoed: false,
      run: () => clientWith().getSession(".."),
    },
  ],
  [
    "ConfigurationError, options refused at createClient",
    {
      expected: ConfigurationError,
      code: "INVALID_OPTIONS",
      echoed: false,
      run: () => Promise.resolve().then(() => clientWith("client_secret_post", { userAgent: "" })),
    },
  ],
  [
    "FlowsmithError INVALID_CLIENT, not a client",
    {
      expected: FlowsmithError,
      code: "INVALID_CLIENT",
      echoed: false,
      run: () => createSessionFor({ secret: SECRET } as never, AML_SPEC, acceptAll, {}),
    },
  ],
];

test.each(SCENARIOS)("%s: no secret and no token in any encoding, anywhere in the error", async (_name, scenario) => {
  const error = await scenario.run().then(
    (value: unknown) => ({ resolvedWith: value }),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(scenario.expected);
  expect(error).toMatchObject({ code: scenario.code });
  const shown = everyWayShown(error);
  const leaks = forbiddenStrings().filter((secret) => shown.some((text) => text.includes(secret)));
  expect(leaks).toEqual([]);
  if (scenario.echoed) expect(shown.join("\n")).toContain("[redacted]");
});

test("the scrubbed error still says what happened: status, path and the server's words around the secret", async () => {
  service.onApi((req, res) => {
    json(res, 400, {
      code: "BAD_METADATA",
      message: `metadata.email is not allowed (token ${req.headers.authorization ?? ""})`,
    });
  });
  const error = (await clientWith()
    .getSession("s-1")
    .catch((e: unknown) => e)) as BadRequestError;
  expect(error.message).toBe(
    "GET /api/v1/live/sessions/s-1 failed with status 400 (BAD_METADATA): metadata.email is not allowed (token Bearer [redacted])",
  );
  expect(error.body).toEqual({
    code: "BAD_METADATA",
    message: "metadata.email is not allowed (token Bearer [redacted])",
  });
  // What a logger writes with JSON.stringify: the message and the fields, scrubbed alike.
  expect(JSON.parse(JSON.stringify(error))).toMatchObject({
    name: "BadRequestError",
    code: "BAD_REQUEST",
    message: error.message,
    status: 400,
    body: error.body,
  });
});

test("every token the client held is scrubbed, also after it was replaced", async () => {
  let round = 0;
  service.onApi((_req, res) => {
    if (++round === 1) json(res, 401, {});
    else json(res, 500, { message: `old ${issued.join(" and ")}` });
  });
  const error = await clientWith()
    .listFlows()
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ServerError);
  expect(issued).toHaveLength(2);
  expect((error as ServerError).message).toContain("old [redacted] and [redacted]");
});

/** The secret, the Basic value and each token, raw and in every encoding they travel in. */
function forbiddenStrings(): string[] {
  const basic = Buffer.from(`${CLIENT_ID}:${SECRET}`).toString("base64");
  const values = [SECRET, basic, ...issued];
  return [
    ...values.flatMap((value) => [
      value,
      // Half a secret is a leak too: what a message cut through it would keep.
      value.slice(0, 6),
      new URLSearchParams({ x: value }).toString().slice(2),
      encodeURIComponent(value),
      lowerHex(encodeURIComponent(value)),
      JSON.stringify(value).slice(1, -1),
      Buffer.from(value).toString("base64").replace(/=+$/, ""),
    ]),
    `Basic ${basic}`,
    ...issued.map((token) => `Bearer ${token}`),
  ];
}

describe("Redactor.text", () => {
  const redactor = new Redactor({ clientId: "id", clientSecret: "s3cret value+" });
  redactor.rememberToken("tok/EN==");
  test.each([
    ["the raw secret", "got s3cret value+ here", "got [redacted] here"],
    ["form-encoded", "client_id=id&x=s3cret+value%2B", "client_id=id&x=[redacted]"],
    ["percent-encoded, lower-case escapes", "s3cret%20value%2b", "[redacted]"],
    ["the Basic value", `Basic ${Buffer.from("id:s3cret value+").toString("base64")}`, "Basic [redacted]"],
    ["a token, raw and percent-encoded", "tok/EN== and tok%2FEN%3D%3D", "[redacted] and [redacted]"],
    ["an unknown Authorization echo", "authorization: Digest abc", "authorization: [redacted]"],
    ["an unknown credential field", '{"access_token":"zzz"}', '{"access_token":"[redacted]"}'],
    ["an unknown long Bearer value", "Bearer abcdefghijklmnop", "Bearer [redacted]"],
    ["an unknown Basic credential", `Basic ${Buffer.from("u:p").toString("base64")}`, "Basic [redacted]"],
    [
      "prose left alone",
      "Basic information and the Bearer token are missing",
      "Basic information and the Bearer token are missing",
    ],
  ])("%s", (_name, given, want) => {
    expect(redactor.text(given)).toBe(want);
    expect(redactor.text(want)).toBe(want);
  });

  test("a secret too short to tell from text is not searched for", () => {
    const short = new Redactor({ clientId: "c", clientSecret: "s" });
    expect(short.text("RequestValidationError: session is missing")).toBe("RequestValidationError: session is missing");
  });

  test("body values: strings and keys scrubbed, credential keys blanked, deep nesting bounded", () => {
    let deep: unknown = "s3cret value+";
    for (let i = 0; i < 500; i++) deep = [deep];
    const scrubbed = redactor.value({ "s3cret value+": 1, password: "hunter22", nested: [{ note: "tok/EN==" }], deep });
    expect(JSON.stringify(scrubbed)).not.toMatch(/s3cret|hunter22|tok\/EN/);
    expect(scrubbed).toMatchObject({ "[redacted]": 1, password: "[redacted]", nested: [{ note: "[redacted]" }] });
  });
});
