/**
 * createClient({ proxy }) through a real forward proxy on loopback (the
 * `proxy` package, test/support/forward-proxy-process.mjs, whose outbound connections
 * leave from 127.0.0.3): every request goes through it and none around it;
 * "env" reads HTTP_PROXY and NO_PROXY; the proxy is the client's alone.
 */
import { request } from "undici";
import { ConfigurationError, type Client } from "../../runtime/index.js";
import { startForwardProxy, type ForwardProxy } from "../support/forward-proxy.js";
import { clientFor } from "./support/clients.js";
import { json, startFakeService, type FakeService } from "./support/fake-service.js";

let service: FakeService;
let proxy: ForwardProxy;
const clients: Client[] = [];

beforeAll(async () => {
  proxy = await startForwardProxy();
});
afterAll(async () => {
  await proxy.close();
});
beforeEach(async () => {
  service = await startFakeService("/gw");
  service.onApi((_req, res) => {
    json(res, 200, [{ id: "f" }]);
  });
  proxy.forwarded.length = 0;
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await service.close();
});

const hostOf = (url: string) => new URL(url).host;

test("proxy: a URL: the token request and every call go through the proxy, none around it", async () => {
  const client = clientFor(service, { proxy: proxy.url });
  clients.push(client);
  await client.listFlows();
  await client.listFlows();
  const requests = [...service.authRequests, ...service.apiRequests];
  expect(requests).toHaveLength(3);
  expect(requests.map((recorded) => recorded.remoteAddress)).toEqual([
    proxy.outboundAddress,
    proxy.outboundAddress,
    proxy.outboundAddress,
  ]);
  expect(proxy.forwarded).toEqual(
    expect.arrayContaining([`CONNECT ${hostOf(service.authUrl)}`, `CONNECT ${hostOf(service.baseUrl)}`]),
  );
});

test('proxy: "env" reads HTTP_PROXY (when the client is made) and NO_PROXY (on each request)', async () => {
  const saved = { ...process.env };
  // Upper case only (a lower-case form would win), and the auth host exempt: its requests go direct, the API's through the proxy.
  const others = Object.fromEntries(
    Object.entries(saved).filter(([name]) => name !== "http_proxy" && name !== "no_proxy"),
  );
  process.env = { ...others, HTTP_PROXY: proxy.url, NO_PROXY: hostOf(service.authUrl) };
  try {
    const client = clientFor(service, { proxy: "env" });
    clients.push(client);
    await client.listFlows();
  } finally {
    process.env = saved;
  }
  expect(service.authRequests.map((recorded) => recorded.remoteAddress)).toEqual(["127.0.0.1"]);
  expect(service.apiRequests.map((recorded) => recorded.remoteAddress)).toEqual([proxy.outboundAddress]);
  expect(proxy.forwarded).toEqual([`CONNECT ${hostOf(service.baseUrl)}`]);
});

test("the proxy is the client's own: other requests in the process do not go through it", async () => {
  const client = clientFor(service, { proxy: proxy.url });
  clients.push(client);
  await client.listFlows();
  const before = proxy.forwarded.length;
  const plain = await request(`${service.baseUrl}/api/v1/flows/staging`);
  await plain.body.dump();
  expect(proxy.forwarded).toHaveLength(before);
  expect(service.apiRequests.at(-1)?.remoteAddress).toBe("127.0.0.1");
});

test.each([
  ["not a URL", "proxy.internal:3128"],
  ["a socks URL", "socks5://127.0.0.1:1080"],
  ["a number", 3128],
])("proxy that is %s is refused before anything is sent", (_name, value) => {
  expect(() => clientFor(service, { proxy: value as string })).toThrow(ConfigurationError);
  expect(() => clientFor(service, { proxy: value as string })).toThrow('proxy must be "env"');
});

test("proxy and dispatcher together are refused", async () => {
  const { Agent } = await import("undici");
  const agent = new Agent();
  expect(() => clientFor(service, { proxy: "env", dispatcher: agent })).toThrow(
    "pass either dispatcher or proxy, not both",
  );
  await agent.close();
});
