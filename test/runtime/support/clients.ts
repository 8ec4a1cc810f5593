import { createClient, type Client, type ClientOptions, type Environment } from "../../../runtime/index.js";
import type { FakeService } from "./fake-service.js";

export const CLIENT_ID = "staging-client";
export const CLIENT_SECRET = "s3cr3t-Value-That-Must-Not-Leak";
export const USER_AGENT = "flowsmith-tests/1.0";

/** A client of the fake service; tests close it in afterEach/afterAll. */
export function clientFor<E extends Environment = "staging">(
  service: FakeService,
  overrides: Partial<ClientOptions<E>> = {},
): Client<E> {
  return createClient<E>({
    baseUrl: service.baseUrl,
    authUrl: service.authUrl,
    environment: "staging" as E,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    userAgent: USER_AGENT,
    retry: { baseDelayMs: 1, maxDelayMs: 2000 },
    ...overrides,
  });
}
