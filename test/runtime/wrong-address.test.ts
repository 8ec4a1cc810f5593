/**
 * Messages that send users the right way (issue 20), against the emulator
 * as a user would meet them: a client of one environment holding the other
 * environment's credentials, and an authUrl pointing at the API host. Each
 * message names what to change, not a cause the runtime already rules out.
 */
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { AuthError, createClient, ForbiddenError, type Client, type Environment } from "../../runtime/index.js";
import { ALL_FLOWS } from "../emulator/fixtures.js";
import { USER_AGENT } from "./support/clients.js";

let emulator: RunningEmulator;
const clients: Client[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ flows: ALL_FLOWS });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await emulator.close();
});

function client<E extends Environment>(
  environment: E,
  credentials: Environment,
  authUrl = emulator.authUrl,
): Client<E> {
  const made = createClient<E>({
    baseUrl: emulator.baseUrl,
    authUrl,
    environment,
    ...emulator.clients[credentials],
    userAgent: USER_AGENT,
    retry: { maxRetries: 0 },
  });
  clients.push(made);
  return made;
}

test.each([
  ["staging", "live"],
  ["live", "staging"],
] as const)(
  "a %s client with %s credentials: 403 ENVIRONMENT_MISMATCH, the message names the environments, not User-Agent",
  async (environment, credentials) => {
    const error = (await client(environment, credentials)
      .listFlows()
      .catch((e: unknown) => e)) as ForbiddenError;
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 403, bodyCode: "ENVIRONMENT_MISMATCH" });
    expect(error.message).toContain(
      `The likely cause is credentials of another environment: The path's environment (${environment}) must equal the environment the API client (clientId and clientSecret) was created for`,
    );
    expect(error.message).not.toMatch(/usual cause is a request without a User-Agent/);
    // The secret is never part of the advice.
    expect(error.message).not.toContain(emulator.clients[credentials].clientSecret);
  },
);

test("authUrl set to the API host: the token request gets 404, and the AuthError says authUrl is wrong", async () => {
  const error = (await client("staging", "staging", emulator.baseUrl)
    .listFlows()
    .catch((e: unknown) => e)) as AuthError;
  expect(error).toBeInstanceOf(AuthError);
  expect(error).toMatchObject({ code: "AUTH_FAILED", status: 404 });
  expect(error.message).toContain(`Token request to ${emulator.baseUrl}/oidc/token failed with status 404`);
  expect(error.message).toContain("authUrl must be {auth_url}, the token host, not the API host {base_url}");
});

test("a 401 from the right token URL keeps pointing at the credentials, without the authUrl advice", async () => {
  const made = createClient({
    baseUrl: emulator.baseUrl,
    authUrl: emulator.authUrl,
    environment: "staging",
    clientId: "nobody",
    clientSecret: "wrong-secret",
    userAgent: USER_AGENT,
  });
  clients.push(made);
  const error = (await made.listFlows().catch((e: unknown) => e)) as AuthError;
  expect(error).toMatchObject({ code: "AUTH_FAILED", status: 401 });
  expect(error.message).not.toContain("authUrl must be");
});
