/**
 * The token store seam (createClient({ tokenStore })) with the runtime's own
 * in-memory store, against the fake service: what every store gets from the
 * runtime (sharing, sealing, invalidating once, a failing store passed over).
 * test/redis/ runs the same against Redis and real processes.
 */
import { expect } from "@jest/globals";
import { ConfigurationError, createMemoryTokenStore, type Client, type TokenStore } from "../../runtime/index.js";
import { clientFor } from "./support/clients.js";
import { json, startFakeService, type FakeService } from "./support/fake-service.js";
import { VirtualClock } from "./support/virtual-clock.js";

let service: FakeService;
const clients: Client[] = [];

beforeEach(async () => {
  service = await startFakeService();
  service.onApi((_req, res) => {
    json(res, 200, [{ id: "flow-1" }]);
  });
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await service.close();
});

function client(tokenStore?: TokenStore, clock?: VirtualClock): Client<"staging"> {
  const made = clientFor(service, { ...(tokenStore ? { tokenStore } : {}), ...(clock ? { clock } : {}) });
  clients.push(made);
  return made;
}

/** Every value a store was given, as the runtime handed it over. */
function recordingStore(): { store: TokenStore; values: string[] } {
  const inner = createMemoryTokenStore();
  const values: string[] = [];
  return {
    values,
    store: {
      get: (key) => inner.get(key),
      set: (key, value, ttlMs) => {
        values.push(value);
        return inner.set(key, value, ttlMs);
      },
      setIfAbsent: (key, value, ttlMs) => {
        values.push(value);
        return inner.setIfAbsent(key, value, ttlMs);
      },
      deleteIf: (key, value) => inner.deleteIf(key, value),
    },
  };
}

test("clients given one store share one token: concurrent cold calls of three clients make one token request", async () => {
  service.onToken((_req, res) => {
    setTimeout(() => {
      json(res, 200, { access_token: "shared-token-value", expires_in: 3600, token_type: "Bearer" });
    }, 50);
  });
  const store = createMemoryTokenStore();
  const three = [client(store), client(store), client(store)];
  await Promise.all(three.flatMap((c) => [c.listFlows(), c.listFlows(), c.listFlows()]));
  expect(service.authRequests).toHaveLength(1);
  expect(new Set(service.apiRequests.map((r) => r.headers.authorization))).toEqual(
    new Set(["Bearer shared-token-value"]),
  );
});

test("without a store each client keeps its own token, as before", async () => {
  await Promise.all([client().listFlows(), client().listFlows()]);
  expect(service.authRequests).toHaveLength(2);
});

test("a store never sees a token: what it is given is sealed", async () => {
  service.onToken((_req, res) => {
    json(res, 200, { access_token: "a-token-nobody-should-store-in-clear", expires_in: 3600 });
  });
  const { store, values } = recordingStore();
  await client(store).listFlows();
  expect(values.length).toBeGreaterThan(0);
  for (const value of values) expect(value).not.toMatch(/a-token-nobody|YS10b2tlbi1ub2JvZHk/);
});

test("a 401 invalidates the shared token once: the other client takes the new one without a request of its own", async () => {
  let refused: string | undefined = undefined;
  service.onApi((req, res) => {
    if (req.headers.authorization === refused) json(res, 401, { status: 401 });
    else json(res, 200, [{ id: "flow-1" }]);
  });
  const store = createMemoryTokenStore();
  const [a, b] = [client(store), client(store)];
  await a.listFlows();
  await b.listFlows();
  refused = service.apiRequests[0]!.headers.authorization;
  await a.listFlows();
  await b.listFlows();
  expect(service.authRequests).toHaveLength(2);
});

test("a token taken from the store is scrubbed from that client's errors, though it never fetched it", async () => {
  const token = "store-only-token-value-0001";
  service.onToken((_req, res) => {
    json(res, 200, { access_token: token, expires_in: 3600 });
  });
  const store = createMemoryTokenStore();
  const [a, b] = [client(store), client(store)];
  await a.listFlows();
  // Echoed in a form no echo pattern knows: only a client that knows the token finds it.
  service.onApi((req, res) => {
    json(res, 500, {
      status: 500,
      message: `seen ${Buffer.from(String(req.headers.authorization)).toString("base64")}`,
    });
  });
  const error = (await b.listFlows().catch((e: unknown) => e)) as Error & { body?: unknown };
  expect(service.authRequests).toHaveLength(1);
  const shown = `${error.message} ${JSON.stringify(error.body)} ${String(error.stack)}`;
  expect(shown).toContain("seen ");
  expect(shown).not.toContain(Buffer.from(`Bearer ${token}`).toString("base64").slice(10, 30));
});

test("an expired token is renewed once for all the clients of a store (virtual clock)", async () => {
  // The client waiting for the lease holder sleeps until the store changes (the holder stores its token or
  // lets go of the lease): on a virtual clock its sleeps would otherwise pass in no time, while the holder's
  // token request takes real time. A change made before the sleep began wakes it at once.
  let changed = false;
  const clock: VirtualClock = new VirtualClock({
    hold: true,
    onSleep: () => {
      if (!changed) return;
      changed = false;
      setImmediate(() => {
        clock.release();
      });
    },
  });
  const memory = createMemoryTokenStore();
  const wake = () => {
    changed = true;
    clock.release();
  };
  const store: TokenStore = {
    ...memory,
    set: (key, value, ttlMs) => memory.set(key, value, ttlMs).finally(wake),
    deleteIf: (key, value) => memory.deleteIf(key, value).finally(wake),
  };
  const [a, b] = [client(store, clock), client(store, clock)];
  await Promise.all([a.listFlows(), b.listFlows()]);
  clock.advance(86_400_000);
  await Promise.all([a.listFlows(), b.listFlows()]);
  expect(service.authRequests).toHaveLength(2);
});

test("a store that fails is passed over: calls go on with the client's own token", async () => {
  const broken: TokenStore = {
    get: () => Promise.reject(new Error("store down")),
    set: () => Promise.reject(new Error("store down")),
    setIfAbsent: () => {
      throw new Error("store down");
    },
    deleteIf: () => Promise.reject(new Error("store down")),
  };
  const c = client(broken);
  await Promise.all([c.listFlows(), c.listFlows()]);
  await c.listFlows();
  expect(service.authRequests).toHaveLength(1);
});

test.each([
  ["a string", "redis://localhost", /tokenStore is not an object/],
  ["an object without the methods", { get: () => undefined }, /tokenStore has no set, setIfAbsent, deleteIf method/],
  [
    "a store with a negative leaseMs",
    { ...createMemoryTokenStore(), leaseMs: -1 },
    /tokenStore has a leaseMs that is not a positive number/,
  ],
])("a tokenStore that is %s is a ConfigurationError", (_name, tokenStore, message) => {
  expect(() => clientFor(service, { tokenStore: tokenStore as TokenStore })).toThrow(ConfigurationError);
  expect(() => clientFor(service, { tokenStore: tokenStore as TokenStore })).toThrow(message);
});
