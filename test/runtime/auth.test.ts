import { AuthError, ConfigurationError, createClient, UnauthorizedError, type Client } from "../../runtime/index.js";
import { CLIENT_ID, CLIENT_SECRET, clientFor, USER_AGENT } from "./support/clients.js";
import { json, startFakeService, type FakeService } from "./support/fake-service.js";
import { VirtualClock } from "./support/virtual-clock.js";

let service: FakeService;
let client: Client<"staging"> | undefined;

beforeEach(async () => {
  service = await startFakeService();
  service.onApi((_req, res) => {
    json(res, 200, [{ id: "flow-1" }]);
  });
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await service.close();
});

describe("token requests", () => {
  test("client_secret_post: form-encoded credentials in the body, User-Agent set", async () => {
    client = clientFor(service);
    await client.listFlows();
    expect(service.authRequests).toHaveLength(1);
    const [token] = service.authRequests;
    expect(token?.method).toBe("POST");
    expect(token?.url).toBe("/oidc/token");
    expect(token?.headers["user-agent"]).toBe(USER_AGENT);
    expect(token?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(token?.headers.authorization).toBeUndefined();
    const form = new URLSearchParams(token?.body.toString());
    expect(Object.fromEntries(form)).toEqual({
      grant_type: "client_credentials",
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
    });
  });

  test("client_secret_basic: credentials in Basic auth, only grant_type in the body", async () => {
    client = clientFor(service, { authMethod: "client_secret_basic" });
    await client.listFlows();
    const [token] = service.authRequests;
    const expected = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64");
    expect(token?.headers.authorization).toBe(`Basic ${expected}`);
    expect(token?.headers["user-agent"]).toBe(USER_AGENT);
    expect(Object.fromEntries(new URLSearchParams(token?.body.toString()))).toEqual({
      grant_type: "client_credentials",
    });
  });

  test("API calls carry the bearer token and the User-Agent; the token goes to the auth host only", async () => {
    client = clientFor(service);
    await client.listFlows();
    await client.listFlows();
    expect(service.authRequests).toHaveLength(1);
    expect(service.apiRequests).toHaveLength(2);
    for (const request of service.apiRequests) {
      expect(request.headers.authorization).toMatch(/^Bearer token-\d+$/);
      expect(request.headers["user-agent"]).toBe(USER_AGENT);
      expect(request.url).not.toContain("oidc");
    }
  });

  test("50 concurrent calls on a cold cache make exactly one token request", async () => {
    service.onToken(async (_req, res) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      json(res, 200, { access_token: "the-token", expires_in: 3600, token_type: "Bearer" });
    });
    client = clientFor(service);
    const cold = client;
    await Promise.all(Array.from({ length: 50 }, () => cold.listFlows()));
    expect(service.authRequests).toHaveLength(1);
    expect(service.apiRequests).toHaveLength(50);
    expect(new Set(service.apiRequests.map((r) => r.headers.authorization))).toEqual(new Set(["Bearer the-token"]));
  });

  test("a token is renewed when it expires, by the client's clock: at most a tenth of its lifetime early", async () => {
    let issued = 0;
    service.onToken((_req, res) => {
      json(res, 200, { access_token: `short-${String(++issued)}`, expires_in: 1, token_type: "Bearer" });
    });
    const clock = new VirtualClock();
    client = clientFor(service, { clock });
    await client.listFlows();
    // 1 s lifetime: renewed 100 ms early (a tenth), not 60 s early (the default skew would renew on every call).
    clock.advance(899);
    await client.listFlows();
    expect(service.authRequests).toHaveLength(1);
    clock.advance(1);
    await client.listFlows();
    expect(service.authRequests).toHaveLength(2);
    expect(service.apiRequests.map((r) => r.headers.authorization)).toEqual([
      "Bearer short-1",
      "Bearer short-1",
      "Bearer short-2",
    ]);
  });

  test("a day-long token is kept for a day less tokenExpirySkewMs", async () => {
    const clock = new VirtualClock();
    client = clientFor(service, { clock, tokenExpirySkewMs: 60_000 });
    await client.listFlows();
    clock.advance(86_400_000 - 60_001);
    await client.listFlows();
    expect(service.authRequests).toHaveLength(1);
    clock.advance(1);
    await client.listFlows();
    expect(service.authRequests).toHaveLength(2);
  });

  test("a 401 drops the token, fetches a new one and retries the call once", async () => {
    service.onApi((req, res) => {
      if (req.headers.authorization === "Bearer token-old") json(res, 401, { code: "INVALID_TOKEN" });
      else json(res, 200, [{ id: "f" }]);
    });
    let issued = 0;
    service.onToken((_req, res) => {
      json(res, 200, {
        access_token: ++issued === 1 ? "token-old" : "token-new",
        expires_in: 3600,
        token_type: "Bearer",
      });
    });
    client = clientFor(service);
    await expect(client.listFlows()).resolves.toEqual([{ id: "f" }]);
    expect(service.authRequests).toHaveLength(2);
    expect(service.apiRequests.map((r) => r.headers.authorization)).toEqual(["Bearer token-old", "Bearer token-new"]);
  });

  test("a second 401 is an UnauthorizedError, after exactly one retry", async () => {
    service.onApi((_req, res) => {
      json(res, 401, { status: 401, code: "INVALID_TOKEN", message: "unknown token" });
    });
    client = clientFor(service);
    const error = await client.listFlows().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ code: "UNAUTHORIZED", status: 401, method: "GET", path: "/api/v1/flows/staging" });
    expect(service.apiRequests).toHaveLength(2);
    expect(service.authRequests).toHaveLength(2);
    expect((error as Error).message).not.toMatch(/token-\d/);
  });

  test.each([
    ["401 with an OAuth error body", 401, { error: "invalid_client", error_description: "bad secret" }],
    ["500 echoing the secret back", 500, { message: `got secret ${CLIENT_SECRET}` }],
  ])("a failed token request (%s) is an AuthError without the secret", async (_name, status, body) => {
    service.onToken((_req, res) => {
      json(res, status, body);
    });
    for (const authMethod of ["client_secret_post", "client_secret_basic"] as const) {
      const failing = clientFor(service, { authMethod });
      const error = await failing.listFlows().catch((e: unknown) => e);
      await failing.close();
      expect(error).toBeInstanceOf(AuthError);
      const authError = error as AuthError;
      expect(authError.code).toBe("AUTH_FAILED");
      expect(authError.status).toBe(status);
      expect(authError.tokenUrl).toBe(`${service.authUrl}/oidc/token`);
      expect(authError.message).toContain(`${service.authUrl}/oidc/token`);
      expect(authError.message).toContain(String(status));
      const basic = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64");
      for (const text of [
        authError.message,
        JSON.stringify(authError),
        String(authError.stack),
        String(authError.cause),
      ]) {
        expect(text).not.toContain(CLIENT_SECRET);
        expect(text).not.toContain(basic);
      }
    }
    expect(service.apiRequests).toHaveLength(0);
  });

  test("an unreachable auth host is an AuthError naming the URL, without a status", async () => {
    const closed = await startFakeService();
    const authUrl = closed.authUrl;
    await closed.close();
    client = clientFor(service, { authUrl });
    const error = await client.listFlows().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: "AUTH_FAILED", status: undefined, tokenUrl: `${authUrl}/oidc/token` });
    expect(JSON.stringify(error)).not.toContain(CLIENT_SECRET);
  });
});

describe("createClient options", () => {
  const valid = {
    baseUrl: "http://127.0.0.1:1",
    authUrl: "http://127.0.0.1:2",
    environment: "staging" as const,
    clientId: "id",
    clientSecret: "secret-xyz",
    userAgent: "ua/1",
  };
  test.each<[string, Record<string, unknown>, RegExp]>([
    ["no userAgent", { userAgent: undefined }, /userAgent is required/],
    ["blank userAgent", { userAgent: "  " }, /userAgent is required/],
    ["userAgent with a newline", { userAgent: "a\nb" }, /single line/],
    ["unknown environment", { environment: "prod" }, /environment must be one of staging, live/],
    ["relative baseUrl", { baseUrl: "/api" }, /baseUrl must be an absolute/],
    ["authUrl with query", { authUrl: "http://a.example/?x=1" }, /authUrl must not have a query/],
    ["no clientSecret", { clientSecret: "" }, /clientSecret is required/],
    ["unknown authMethod", { authMethod: "private_key_jwt" }, /authMethod must be/],
    ["negative timeout", { timeoutMs: -1 }, /timeoutMs must be a positive number/],
    ["a clock without sleep", { clock: { now: () => 0 } }, /clock must have now\(\) and sleep/],
  ])("%s is refused at createClient", (_name, override, message) => {
    const attempt = () => createClient({ ...valid, ...override });
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (error) {
      expect((error as ConfigurationError).code).toBe("INVALID_OPTIONS");
      expect(JSON.stringify(error) + String(error)).not.toContain("secret-xyz");
    }
  });
});
