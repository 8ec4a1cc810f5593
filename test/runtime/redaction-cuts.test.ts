/**
 * No cut leaves a piece of a secret (issue 20): the 300-character cut of an
 * AuthError's message and the 64 KiB cut of an API error body, each driven
 * by a real server on loopback that echoes the client secret or the access
 * token right across the cut, in the forms servers write (JSON escapes such
 * as `\/` and `\uXXXX`, percent escapes, base64 at an offset). What is left
 * is searched for every 8-character piece of the secret as it was sent.
 */
import type { ServerResponse } from "node:http";
import { AuthError, createClient, ServerError, type Client, type ClientOptions } from "../../runtime/index.js";
import { Redactor } from "../../runtime/secrets/redaction.js";
import { USER_AGENT } from "./support/clients.js";
import { json, startFakeService, type FakeService } from "./support/fake-service.js";

/** 43 characters with slashes, which JSON encoders such as PHP's write as `\/`. */
const SECRET = "Zk9/Qw3/mPz7/Lr5Tn2/Vb8Xc4/Hd6Jf1/Ks0Yg/Aq7";
/** A token as header-safe as the runtime requires, with the characters percent- and base64-encoding change. */
const TOKEN = "eyJhbGciOi.J9+tok/EN_with-Many.chars~42==";
const FRAGMENT = 8;

let service: FakeService;
let client: Client<"live">;

beforeEach(async () => {
  service = await startFakeService();
  service.onToken((_req, res) => {
    json(res, 200, { access_token: TOKEN, expires_in: 3600, token_type: "Bearer" });
  });
  client = cutsClient();
});
afterEach(async () => {
  await client.close();
  await service.close();
});

function cutsClient(extra: Partial<ClientOptions<"live">> = {}): Client<"live"> {
  return createClient({
    baseUrl: service.baseUrl,
    authUrl: service.authUrl,
    environment: "live",
    clientId: "cid-cuts",
    clientSecret: SECRET,
    userAgent: USER_AGENT,
    retry: { maxRetries: 0 },
    ...extra,
  });
}

/** Every piece of `FRAGMENT` characters of `value`. */
function fragmentsOf(value: string): string[] {
  return Array.from({ length: value.length - FRAGMENT + 1 }, (_, start) => value.slice(start, start + FRAGMENT));
}

function leaksIn(text: string, ...values: string[]): string[] {
  return values.flatMap(fragmentsOf).filter((fragment) => text.includes(fragment));
}

/** JSON text as an encoder that escapes `/` (PHP) or every non-alphanumeric character (.NET-like) writes it. */
function escapedJson(value: object, style: "slash" | "unicode"): string {
  const text = JSON.stringify(value);
  return style === "slash"
    ? text.replace(/\//g, "\\/")
    : text.replace(/[/+=~._-]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function sendRaw(res: ServerResponse, status: number, contentType: string, text: string): void {
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

describe("AuthError: the auth host echoes the client secret in a long error_description", () => {
  // The probe of issue 20: the secret starts a few characters before the 300th of the message.
  const cases = (["slash", "unicode"] as const).flatMap((style) =>
    [0, 1, 6, 42].map((before): [string, { style: typeof style; before: number }] => [
      `${style} escapes, ${String(before)} characters before the cut`,
      { style, before },
    ]),
  );
  test.each(cases)("%s", async (_name, { style, before }) => {
    const prefix = "invalid_client: ";
    const description = `${"x".repeat(300 - prefix.length - before)}${SECRET} and more`;
    service.onToken((_req, res) => {
      sendRaw(
        res,
        401,
        "application/json",
        escapedJson({ error: "invalid_client", error_description: description }, style),
      );
    });
    const error = (await client.listFlows().catch((e: unknown) => e)) as AuthError;
    expect(error).toBeInstanceOf(AuthError);
    expect(error.status).toBe(401);
    expect(error.message).toContain("invalid_client: xxx");
    expect(leaksIn(`${error.message}\n${String(error.stack)}\n${JSON.stringify(error)}`, SECRET)).toEqual([]);
  });
});

describe("ApiError: the token across the 64 KiB cut of the error body", () => {
  const LIMIT = 64 * 1024;
  const forms: [string, string][] = [
    ["raw", TOKEN],
    ["percent-encoded", encodeURIComponent(TOKEN)],
    ["JSON-escaped with \\/", TOKEN.replace(/\//g, "\\/")],
    [
      "JSON \\u escapes",
      TOKEN.replace(/[+/.]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`),
    ],
  ];
  const cases = forms.flatMap(([form, written]) =>
    [1, 5, 8, 9, 20, written.length - 1].map((kept): [string, { written: string; kept: number }] => [
      `${form}, ${String(kept)} characters before the cut`,
      { written, kept },
    ]),
  );
  test.each(cases)("%s", async (_name, { written, kept }) => {
    service.onApi((_req, res) => {
      sendRaw(res, 500, "text/plain", `${"y".repeat(LIMIT - kept)}${written} after the cut`);
    });
    const error = (await client.getSession("s-1").catch((e: unknown) => e)) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    const body = error.body as string;
    expect(body.startsWith("y".repeat(1000))).toBe(true);
    expect(body).not.toContain("after the cut");
    expect(leaksIn(body, TOKEN, written)).toEqual([]);
    expect(leaksIn(error.message, TOKEN, written)).toEqual([]);
  });

  test("the cut is known, not guessed: a streamed (getFile) or middleware-made body is scrubbed as cut, one that ends at the limit is whole", async () => {
    const written = TOKEN.replace(/\//g, "\\/");
    const across = `${"y".repeat(LIMIT - 9)}${written} after the cut`;
    // getFile reads its error body from the stream, up to the limit.
    service.onApi((_req, res) => {
      sendRaw(res, 500, "text/plain", across);
    });
    const streamed = (await client.getFile("v-1").catch((e: unknown) => e)) as ServerError;
    expect(streamed).toBeInstanceOf(ServerError);
    expect((streamed.body as string).startsWith("y".repeat(1000))).toBe(true);
    expect(leaksIn(streamed.body as string, TOKEN, written)).toEqual([]);
    // A middleware's own answer is cut at the same limit, and scrubbed as cut.
    const answering = cutsClient({
      middleware: [
        async (request, next) =>
          request.kind === "api"
            ? { status: 500, headers: { "content-type": "text/plain" }, body: across }
            : next(request),
      ],
    });
    try {
      const made = (await answering.getSession("s-1").catch((e: unknown) => e)) as ServerError;
      expect(made).toBeInstanceOf(ServerError);
      expect((made.body as string).startsWith("y".repeat(1000))).toBe(true);
      expect(made.body).not.toContain("after the cut");
      expect(leaksIn(made.body as string, TOKEN, written)).toEqual([]);
    } finally {
      await answering.close();
    }
    // Exactly the limit, nothing after it: not cut, so its end (an escape a cut would drop) stays as sent.
    const whole = `${"y".repeat(LIMIT - 8)}at 100 %`;
    service.onApi((_req, res) => {
      sendRaw(res, 500, "text/plain", whole);
    });
    const error = (await client.getSession("s-1").catch((e: unknown) => e)) as ServerError;
    expect(error.body).toBe(whole);
  });

  test("base64 of the request, the token at each offset of a 3-byte group, cut through it", async () => {
    for (const offset of [0, 1, 2]) {
      const before = `${"p".repeat(offset)}Authorization: Bearer `;
      const encoded = Buffer.from(`${before}${TOKEN} and more`).toString("base64");
      // The first base64 character that only the token's bytes decide.
      const own = Math.floor(before.length / 3) * 4 + [0, 2, 3][before.length % 3]!;
      const core = encoded.slice(own, own + 40);
      service.onApi((_req, res) => {
        sendRaw(res, 500, "text/plain", `${"y".repeat(LIMIT - own - 20)}${encoded}`);
      });
      const error = (await client.getSession("s-1").catch((e: unknown) => e)) as ServerError;
      const body = error.body as string;
      expect(body.startsWith(`${"y".repeat(LIMIT - own - 20)}${encoded.slice(0, own - 2)}`)).toBe(true);
      expect(leaksIn(body, core)).toEqual([]);
    }
  });
});

describe("Redactor: every form found, and what a cut leaves", () => {
  const secret = "Sec/ret+Ü 42";
  const redactor = new Redactor({ clientId: "id", clientSecret: secret });
  const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
  test.each([
    ["JSON with \\/", `{"m":"${secret.replace("/", "\\/")}"}`, '{"m":"[redacted]"}'],
    ["JSON \\u escapes, upper and lower case", "x\\u0053ec\\u002Fret\\u002b\\u00dc 42y", "x[redacted]y"],
    ["percent and JSON escapes mixed", "Sec%2Fret\\u002B%C3%9c%2042", "[redacted]"],
    ["form body", `a=1&s=${new URLSearchParams({ s: secret }).toString().slice(2)}&b=2`, "a=1&s=[redacted]&b=2"],
    ["base64 of the form body, secret at offset 1", b64(`client_secret=${encodeURIComponent(secret)}!`), undefined],
    ["base64url, secret at offset 2", Buffer.from(`ab${secret}cd`).toString("base64url"), undefined],
    ["prose left alone", "a secret/ret was 42", "a secret/ret was 42"],
  ])("%s", (_name, given, want) => {
    const scrubbed = redactor.text(given);
    if (want !== undefined) expect(scrubbed).toBe(want);
    expect(scrubbed === given).toBe(want === given);
    expect(redactor.holdsKnown(given)).toBe(want !== given);
  });

  test.each([
    ["the secret's start at the end, 4 characters or more: removed", "message: Sec/r", "message: [redacted]"],
    ["percent-escaped, an escape cut through", "message: Sec%2Fret%2", "message: [redacted]"],
    ["JSON-escaped, a \\u escape cut through", "message: Sec\\u002Fr\\u00", "message: [redacted]"],
    ["a character cut at a byte limit (U+FFFD), then nothing of the secret", "100 \ufffd", "100 "],
    ["3 characters: could be any word, kept", "message: Sec", "message: Sec"],
    ["nothing of the secret: the text as it is", "message: done", "message: done"],
  ])("truncated: %s", (_name, given, want) => {
    expect(redactor.text(given, { truncated: true })).toBe(want);
  });

  test("excerpt: scrubbed first, then cut, never through a [redacted]", () => {
    const text = `${"a".repeat(20)}${secret}${"b".repeat(20)}`;
    expect(redactor.excerpt(text, 25)).toBe(`${"a".repeat(20)}…`);
    expect(redactor.excerpt(text, 30)).toBe(`${"a".repeat(20)}[redacted]…`);
    expect(redactor.excerpt(text, 1000)).toBe(`${"a".repeat(20)}[redacted]${"b".repeat(20)}`);
  });

  test("a new token is searched for from the moment it is remembered", () => {
    const fresh = new Redactor();
    expect(fresh.text("tok-abc/def")).toBe("tok-abc/def");
    fresh.rememberToken("tok-abc/def");
    expect(fresh.text(`x ${b64("..tok-abc/def..")} y`)).not.toContain(b64("..tok-abc/def..").slice(3, 11));
  });
});
