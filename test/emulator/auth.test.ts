import { expect } from "@jest/globals";
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { ALL_FLOWS, AML_ID, DOCS_ID, SIGNING_ID, bearer, call, tokenFor } from "./fixtures.js";

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ flows: ALL_FLOWS, createdMs: 50, stepMs: 50 });
});
afterAll(() => emulator.close());

const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();
const FORM = { "content-type": "application/x-www-form-urlencoded" };

describe("auth host", () => {
  test("client_secret_post issues a Bearer token for the client's environment", async () => {
    const answer = await call(`${emulator.authUrl}/oidc/token`, {
      method: "POST",
      headers: FORM,
      body: form({ grant_type: "client_credentials", client_id: "staging-client", client_secret: "staging-secret" }),
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ access_token: expect.any(String), expires_in: 86400, token_type: "Bearer" });
  });

  test("client_secret_basic works the same", async () => {
    const basic = Buffer.from("live-client:live-secret").toString("base64");
    const answer = await call(`${emulator.authUrl}/oidc/token`, {
      method: "POST",
      headers: { ...FORM, authorization: `Basic ${basic}` },
      body: form({ grant_type: "client_credentials" }),
    });
    expect(answer.status).toBe(200);
    const flows = await call(`${emulator.baseUrl}/api/v1/flows/live`, { headers: bearer(answer.json.access_token) });
    expect(flows.status).toBe(200);
  });

  test.each([
    [
      "wrong secret (post)",
      { ...FORM },
      form({ grant_type: "client_credentials", client_id: "staging-client", client_secret: "nope" }),
      401,
      "INVALID_CLIENT",
    ],
    [
      "unknown client",
      { ...FORM },
      form({ grant_type: "client_credentials", client_id: "who", client_secret: "staging-secret" }),
      401,
      "INVALID_CLIENT",
    ],
    [
      "wrong secret (basic)",
      { ...FORM, authorization: `Basic ${Buffer.from("staging-client:x").toString("base64")}` },
      form({ grant_type: "client_credentials" }),
      401,
      "INVALID_CLIENT",
    ],
    [
      "missing grant_type",
      { ...FORM },
      form({ client_id: "staging-client", client_secret: "staging-secret" }),
      400,
      "INVALID_REQUEST",
    ],
    [
      "other grant type",
      { ...FORM },
      form({ grant_type: "password", client_id: "staging-client", client_secret: "staging-secret" }),
      400,
      "UNSUPPORTED_GRANT_TYPE",
    ],
    [
      "JSON instead of a form",
      { "content-type": "application/json" },
      JSON.stringify({ grant_type: "client_credentials" }),
      400,
      "INVALID_REQUEST",
    ],
    [
      "a parameter sent twice (RFC 6749 3.2)",
      { ...FORM },
      "grant_type=client_credentials&grant_type=password&client_id=staging-client&client_secret=staging-secret",
      400,
      "INVALID_REQUEST",
    ],
    [
      "the secret sent twice",
      { ...FORM },
      "grant_type=client_credentials&client_id=staging-client&client_secret=staging-secret&client_secret=other",
      400,
      "INVALID_REQUEST",
    ],
  ])("%s", async (_name, headers, body, status, code) => {
    const answer = await call(`${emulator.authUrl}/oidc/token`, { method: "POST", headers, body });
    expect(answer.status).toBe(status);
    expect(answer.json).toMatchObject({ status, code, message: expect.any(String) });
    expect(answer.text).not.toContain("staging-secret");
  });

  test("a token request sent to the API host is 404", async () => {
    const answer = await call(`${emulator.baseUrl}/oidc/token`, {
      method: "POST",
      headers: FORM,
      body: form({ grant_type: "client_credentials", client_id: "staging-client", client_secret: "staging-secret" }),
    });
    expect(answer.status).toBe(404);
    expect(answer.json.code).toBe("NOT_FOUND");
  });
});

describe("User-Agent comes first", () => {
  test.each([
    ["auth host", () => `${emulator.authUrl}/oidc/token`, "POST"],
    ["API host", () => `${emulator.baseUrl}/api/v1/flows/staging`, "GET"],
    ["unknown path on the API host", () => `${emulator.baseUrl}/nowhere`, "GET"],
  ])("%s: no User-Agent is 403, even with a valid token", async (_name, url, method) => {
    const token = await tokenFor(emulator, "staging");
    const response = await request(url(), { method: method as "GET", headers: { authorization: `Bearer ${token}` } });
    const body = (await response.body.json()) as { code: string; status: number };
    expect(response.statusCode).toBe(403);
    expect(body).toMatchObject({ status: 403, code: "USER_AGENT_REQUIRED" });
  });
});

describe("API access", () => {
  test.each([
    ["no Authorization", {}, "TOKEN_MISSING"],
    ["not a bearer", { authorization: "Basic abc" }, "TOKEN_MISSING"],
    ["unknown token", { authorization: "Bearer made-up" }, "TOKEN_INVALID"],
  ])("%s is 401", async (_name, headers, code) => {
    const answer = await call(`${emulator.baseUrl}/api/v1/flows/staging`, { headers });
    expect(answer.status).toBe(401);
    expect(answer.json.code).toBe(code);
  });

  test("a path naming the other environment is 403", async () => {
    const token = await tokenFor(emulator, "staging");
    for (const path of [
      "/api/v1/flows/live",
      `/api/v1/flows/${DOCS_ID}/live/openapi`,
      "/api/v1/live/sessions/abc",
      "/api/v1/live/files/abc",
    ]) {
      const answer = await call(`${emulator.baseUrl}${path}`, { headers: bearer(token) });
      expect([path, answer.status, answer.json.code]).toEqual([path, 403, "ENVIRONMENT_MISMATCH"]);
    }
  });

  test("a flow of the other environment is not found under the token's environment", async () => {
    const token = await tokenFor(emulator, "live");
    const answer = await call(`${emulator.baseUrl}/api/v1/flows/${SIGNING_ID}/live/openapi`, {
      headers: bearer(token),
    });
    expect(answer.status).toBe(404);
  });

  test("unknown routes are 404, a wrong method 405", async () => {
    const token = await tokenFor(emulator, "staging");
    expect((await call(`${emulator.baseUrl}/api/v2/flows/staging`, { headers: bearer(token) })).status).toBe(404);
    expect((await call(`${emulator.baseUrl}/api/v1/flows/production`, { headers: bearer(token) })).status).toBe(404);
    const wrong = await call(`${emulator.baseUrl}/api/v1/flows/staging`, { method: "DELETE", headers: bearer(token) });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe("GET");
  });
});

describe("flows", () => {
  test("GET /api/v1/flows/{environment} lists that environment's flows with their ids", async () => {
    const staging = await call(`${emulator.baseUrl}/api/v1/flows/staging`, {
      headers: bearer(await tokenFor(emulator, "staging")),
    });
    expect(staging.json.flows.map((flow: { id: string }) => flow.id).sort()).toEqual(
      [AML_ID, "99-indexed", SIGNING_ID].sort(),
    );
    const live = await call(`${emulator.baseUrl}/api/v1/flows/live`, {
      headers: bearer(await tokenFor(emulator, "live")),
    });
    expect(live.json.flows).toEqual([{ id: DOCS_ID, name: "docs", version: 3, environment: "live" }]);
  });

  test("GET .../openapi serves the flow's description as JSON; 404 when unknown or not kept", async () => {
    const token = await tokenFor(emulator, "staging");
    const answer = await call(`${emulator.baseUrl}/api/v1/flows/${SIGNING_ID}/staging/openapi`, {
      headers: bearer(token),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(answer.json).toEqual({ openapi: "3.0.3", info: { "x-flow-id": SIGNING_ID } });
    expect(
      (await call(`${emulator.baseUrl}/api/v1/flows/${AML_ID}/staging/openapi`, { headers: bearer(token) })).status,
    ).toBe(404);
    expect(
      (await call(`${emulator.baseUrl}/api/v1/flows/nope/staging/openapi`, { headers: bearer(token) })).status,
    ).toBe(404);
  });
});
