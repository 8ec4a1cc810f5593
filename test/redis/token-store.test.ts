/**
 * createRedisTokenStore against a real Redis (test/support/redis-server.js)
 * and the emulator, behind counting proxies: clients with their own store
 * connections stand for the processes of a fleet (test/redis/fleet.test.ts
 * runs real processes). One token request for all of them, a token in Redis
 * only sealed, a 401 invalidating once, a crashed lease holder blocking
 * nobody for longer than its lease, and Redis going away and coming back.
 */
import { expect } from "@jest/globals";
import type { IncomingMessage } from "node:http";
import { Redis } from "ioredis";
import {
  createRedisTokenStore,
  RedisUnavailableError,
  type RedisTokenStore,
  type RedisTokenStoreOptions,
} from "../../redis/index.js";
import { ConfigurationError, createClient, type Client } from "../../runtime/index.js";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { ALL_FLOWS } from "../emulator/fixtures.js";
import { startProxy, type RunningProxy } from "../support/http-proxy.js";
import { startRedis, type RunningRedis } from "../support/redis-server.js";
import { closeStarted } from "../support/teardown.js";
import { waitFor } from "../support/wait-for.js";

let redis: RunningRedis;
let emulator: RunningEmulator;
const opened: { close(): Promise<unknown> }[] = [];

beforeAll(async () => {
  redis = await startRedis();
  emulator = await startEmulator({ flows: ALL_FLOWS });
});
afterAll(() => closeStarted(emulator, redis));
afterEach(async () => {
  for (const resource of opened.splice(0).reverse()) await resource.close();
});

const tokenRequests = (proxy: RunningProxy): number => proxy.received.filter((r) => r.path === "/oidc/token").length;
const bearerOf = (req: IncomingMessage): string => (req.headers.authorization ?? "").replace(/^Bearer /, "");

async function authProxy(options: { delayMs?: number; hold?: (index: number) => boolean } = {}): Promise<RunningProxy> {
  const proxy = await startProxy({
    targets: [emulator.authUrl],
    delayMs: options.delayMs,
    hold: (_req, index) => options.hold?.(index) ?? false,
  });
  opened.push(proxy);
  return proxy;
}

function store(options: Partial<RedisTokenStoreOptions> = {}): RedisTokenStore {
  const made = createRedisTokenStore({ redis: redis.url, onError: () => undefined, ...options });
  opened.push(made);
  return made;
}

/** A client as one process of the fleet has it: its own store connection (unless given one). */
function client(
  auth: RunningProxy,
  tokenStore: RedisTokenStore = store(),
  baseUrl = emulator.baseUrl,
): Client<"staging"> {
  const made = createClient<"staging">({
    baseUrl,
    authUrl: auth.url,
    environment: "staging",
    ...emulator.clients.staging,
    userAgent: "flowsmith-tests/1.0",
    tokenStore,
  });
  opened.push(made);
  return made;
}

test("three clients with their own connections, 20 concurrent cold calls each: one token request between them", async () => {
  const auth = await authProxy({ delayMs: 200 });
  const clients = [client(auth), client(auth), client(auth)];
  const results = await Promise.all(clients.flatMap((c) => Array.from({ length: 20 }, () => c.listFlows())));
  expect(results).toHaveLength(60);
  expect(tokenRequests(auth)).toBe(1);
});

test("clients started one after another use the stored token: one token request for all", async () => {
  const auth = await authProxy();
  for (let i = 0; i < 4; i++) {
    const c = client(auth);
    await c.listFlows();
    await c.close();
  }
  expect(tokenRequests(auth)).toBe(1);
});

test("Redis holds the token only sealed: no key or value contains it", async () => {
  let token = "";
  const api = await startProxy({
    targets: [emulator.baseUrl],
    answer: (req) => {
      token = bearerOf(req);
      return undefined;
    },
  });
  opened.push(api);
  const auth = await authProxy();
  await client(auth, store({ keyPrefix: "sealed-test:" }), api.url).listFlows();
  expect(token.length).toBeGreaterThan(10);
  const inspect = new Redis(redis.url);
  try {
    const keys = await inspect.keys("sealed-test:*");
    expect(keys.map((key) => key.replace(/:[^:]+$/, ":<id>")).sort()).toEqual(["sealed-test:token:<id>"]);
    for (const key of keys) {
      expect(key).not.toContain(token);
      expect(await inspect.get(key)).not.toContain(token);
    }
  } finally {
    inspect.disconnect();
  }
});

test("a 401 invalidates the token once for the fleet: the other client takes the new one from the store", async () => {
  let revoked: string | undefined = undefined;
  const seen: string[] = [];
  const api = await startProxy({
    targets: [emulator.baseUrl],
    answer: (req) => {
      seen.push(bearerOf(req));
      return bearerOf(req) === revoked ? 401 : undefined;
    },
  });
  opened.push(api);
  const auth = await authProxy();
  const [a, b] = [client(auth, store(), api.url), client(auth, store(), api.url)];
  await a.listFlows();
  await b.listFlows();
  expect(tokenRequests(auth)).toBe(1);
  revoked = seen[0];
  await a.listFlows(); // 401, a new token, the call again
  await b.listFlows(); // 401 with its copy of the old one: the new one comes from the store
  expect(tokenRequests(auth)).toBe(2);
  expect(new Set(seen).size).toBe(2);
});

test("a holder that crashed mid-request blocks the others only until its lease expires", async () => {
  // The first token request never gets an answer: its process "crashes" (its Redis connection is cut, the lease stays).
  const auth = await authProxy({ hold: (index) => index === 0 });
  const crashing = new Redis(redis.url);
  const crashedStore = createRedisTokenStore({ redis: crashing, leaseMs: 1_000, onError: () => undefined });
  const doomed = client(auth, crashedStore)
    .listFlows()
    .catch(() => "crashed");
  await waitFor("the first token request", () => tokenRequests(auth) === 1);
  crashing.disconnect();
  const started = Date.now();
  await client(auth, store({ leaseMs: 1_000 })).listFlows();
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  expect(tokenRequests(auth)).toBe(2);
  expect(await Promise.race([doomed, Promise.resolve("still waiting")])).toBe("still waiting");
});

describe("Redis unreachable", () => {
  test("calls keep working on the process's own token, onError hears of it once, and sharing resumes when Redis is back", async () => {
    const errors: unknown[] = [];
    const auth = await authProxy();
    const warm = client(auth);
    await warm.listFlows();
    await redis.stop();
    try {
      await warm.listFlows();
      // Cold clients fetch their own tokens: one each, and the outage is reported once by their store.
      const shared = store({ onError: (error) => void errors.push(error) });
      const [c, d] = [client(auth, shared), client(auth, shared)];
      await Promise.all([c.listFlows(), c.listFlows(), d.listFlows(), d.listFlows()]);
      expect(tokenRequests(auth)).toBe(3);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(RedisUnavailableError);
      expect(errors[0]).toMatchObject({ code: "REDIS_UNAVAILABLE" });
      expect((errors[0] as Error).message).toMatch(
        /^flowsmith token store: Redis is unreachable \(.+\); each process fetches its own access token until it is back$/,
      );
    } finally {
      await redis.start();
    }
    // Back (an empty Redis): once the connections are up again, new clients share one token again.
    const [e, f] = [store(), store()];
    await waitFor(
      "the stores to reconnect",
      async () =>
        (await e.get("probe").then(
          () => true,
          () => false,
        )) &&
        (await f.get("probe").then(
          () => true,
          () => false,
        )),
    );
    const before = tokenRequests(auth);
    await Promise.all([client(auth, e).listFlows(), client(auth, f).listFlows()]);
    expect(tokenRequests(auth) - before).toBe(1);
  });
});

test("a call with a valid token does not touch the store", async () => {
  const auth = await authProxy();
  const warm = client(auth);
  await warm.listFlows();
  const inspect = new Redis(redis.url);
  try {
    const before = await commandCalls(inspect);
    for (let i = 0; i < 20; i++) await warm.listFlows();
    expect(await commandCalls(inspect)).toBe(before);
  } finally {
    inspect.disconnect();
  }
});

/** The GET, SET and EVAL commands Redis has run so far. */
async function commandCalls(redis: Redis): Promise<number> {
  const stats = await redis.info("commandstats");
  return [...stats.matchAll(/^cmdstat_(?:get|set|eval):calls=(\d+)/gm)].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  );
}

test("options are checked at creation, and no message quotes the URL (it may hold a password)", () => {
  const cases: [string, unknown, RegExp][] = [
    ["an http URL", { redis: "http://user:hunter2@localhost" }, /redis must be a redis:\/\/ or rediss:\/\/ URL/],
    ["no redis", {}, /redis must be a redis:\/\/ or rediss:\/\/ URL or an ioredis client/],
    ["a zero lease", { redis: "redis://localhost", leaseMs: 0 }, /leaseMs must be a positive integer, got 0/],
    ["an onError that is not a function", { redis: "redis://localhost", onError: "log" }, /onError must be a function/],
  ];
  for (const [, options, message] of cases) {
    const error = (() => {
      try {
        createRedisTokenStore(options as RedisTokenStoreOptions);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("hunter2");
  }
});
