/**
 * What a token response must be before its token is cached (issue 11):
 * expires_in a positive number of seconds (a numeric string too; absent means
 * the service's 86400), and a token that can travel in a header. Anything
 * else is an AuthError INVALID_TOKEN_RESPONSE and nothing is cached: the next
 * call asks again.
 */
import { AuthError, DEFAULT_TOKEN_LIFETIME_SECONDS, type Client } from "../../runtime/index.js";
import { clientFor } from "./support/clients.js";
import { json, startFakeService, type FakeService } from "./support/fake-service.js";
import { VirtualClock } from "./support/virtual-clock.js";

let service: FakeService;
let client: Client<"staging">;
let clock: VirtualClock;

beforeEach(async () => {
  service = await startFakeService();
  service.onApi((_req, res) => {
    json(res, 200, [{ id: "flow-1" }]);
  });
  clock = new VirtualClock();
  // No skew: the renewal falls exactly at the end of the lifetime, so the lifetime is measurable.
  client = clientFor(service, { clock, tokenExpirySkewMs: 0 });
});
afterEach(async () => {
  await client.close();
  await service.close();
});

function issuing(fields: Record<string, unknown>): void {
  let issued = 0;
  service.onToken((_req, res) => {
    json(res, 200, { access_token: `token-${String(++issued)}`, token_type: "Bearer", ...fields });
  });
}

/** The token is used until `seconds` have passed on the client's clock, and renewed exactly then. */
async function expectLifetimeSeconds(seconds: number): Promise<void> {
  await client.listFlows();
  clock.advance(seconds * 1000 - 1);
  await client.listFlows();
  expect(service.authRequests).toHaveLength(1);
  clock.advance(1);
  await client.listFlows();
  expect(service.authRequests).toHaveLength(2);
}

describe("expires_in", () => {
  test.each<[string, Record<string, unknown>, number]>([
    ["a number", { expires_in: 3600 }, 3600],
    ["a numeric string", { expires_in: "3600" }, 3600],
    ["a numeric string with spaces", { expires_in: " 120 " }, 120],
    ["a fraction", { expires_in: 1.5 }, 1.5],
    ["absent: the service's default", {}, DEFAULT_TOKEN_LIFETIME_SECONDS],
    ["null: as absent", { expires_in: null }, DEFAULT_TOKEN_LIFETIME_SECONDS],
  ])("%s", async (_name, fields, seconds) => {
    issuing(fields);
    await expectLifetimeSeconds(seconds);
  });

  test.each<[string, unknown]>([
    ["zero", 0],
    ["negative", -5],
    ["a negative string", "-5"],
    ["non-numeric", "soon"],
    ["an empty string", ""],
    ["a number with a unit", "3600s"],
    ["a boolean", true],
    ["an object", { seconds: 3600 }],
    ["too large to be a number", Infinity],
  ])("%s is an AuthError INVALID_TOKEN_RESPONSE and nothing is cached", async (_name, expiresIn) => {
    // 1e400 (Infinity once parsed) cannot be written by JSON.stringify: the body is written by hand.
    service.onToken((_req, res) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(`{"access_token":"t-1","expires_in":${expiresIn === Infinity ? "1e400" : JSON.stringify(expiresIn)}}`),
    );
    for (const attempt of [1, 2]) {
      const error = await client.listFlows().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthError);
      expect(error).toMatchObject({
        code: "INVALID_TOKEN_RESPONSE",
        status: 200,
        tokenUrl: `${service.authUrl}/oidc/token`,
      });
      expect((error as Error).message).toMatch(/expires_in is not a positive number of seconds/);
      // Not cached: each call asks again, and no API call was made with the refused token.
      expect(service.authRequests).toHaveLength(attempt);
    }
    expect(service.apiRequests).toHaveLength(0);
  });
});

describe("the token itself", () => {
  test.each<[string, unknown, RegExp]>([
    ["CR LF (a header injection)", "abc\r\nX-Injected: 1", /access_token contains U\+000D at index 3/],
    ["a lone LF", "abc\ndef", /contains U\+000A/],
    ["NUL", "abc\u0000", /contains U\+0000/],
    ["another control character", "a\u0007b", /contains U\+0007/],
    ["DEL", "ab\u007f", /contains U\+007F/],
    ["a character above U+00FF", "tok€n", /contains U\+20AC/],
    ["spaces at the end", "token ", /starts or ends with whitespace/],
    ["a number", 12345, /has no access_token/],
    ["an empty string", "", /has no access_token/],
  ])("%s is refused and never cached", async (_name, token, message) => {
    service.onToken((_req, res) => {
      json(res, 200, { access_token: token, expires_in: 3600, token_type: "Bearer" });
    });
    for (const attempt of [1, 2]) {
      const error = await client.listFlows().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthError);
      expect(error).toMatchObject({ code: "INVALID_TOKEN_RESPONSE" });
      expect((error as Error).message).toMatch(message);
      expect(service.authRequests).toHaveLength(attempt);
    }
    expect(service.apiRequests).toHaveLength(0);
  });

  test.each<[string, string, number | undefined]>([
    ["not JSON", "<html>", 200],
    ["a JSON array", "[]", 200],
    ["token_type MAC", '{"access_token":"t","token_type":"MAC"}', 200],
  ])("a 2xx that is %s is INVALID_TOKEN_RESPONSE", async (_name, body) => {
    service.onToken((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(body));
    await expect(client.listFlows()).rejects.toMatchObject({ name: "AuthError", code: "INVALID_TOKEN_RESPONSE" });
  });

  test("a refusal (non-2xx) stays AUTH_FAILED", async () => {
    service.onToken((_req, res) => {
      json(res, 401, { error: "invalid_client" });
    });
    await expect(client.listFlows()).rejects.toMatchObject({ name: "AuthError", code: "AUTH_FAILED", status: 401 });
  });

  test("a good token after a refused one is cached as usual", async () => {
    let round = 0;
    service.onToken((_req, res) => {
      json(res, 200, { access_token: ++round === 1 ? "bad\r\ntoken" : "good-token", expires_in: 60 });
    });
    await expect(client.listFlows()).rejects.toMatchObject({ code: "INVALID_TOKEN_RESPONSE" });
    await client.listFlows();
    await client.listFlows();
    expect(service.authRequests).toHaveLength(2);
    expect(service.apiRequests.map((r) => r.headers.authorization)).toEqual(["Bearer good-token", "Bearer good-token"]);
  });
});
