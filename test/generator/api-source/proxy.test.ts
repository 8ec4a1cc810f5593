/**
 * The CLI's service calls (flows, add, --refresh) honour HTTP_PROXY,
 * HTTPS_PROXY and NO_PROXY by default, as npm and curl do: tried through a
 * real forward proxy on loopback (test/support/forward-proxy-process.mjs).
 */
import { startForwardProxy, type ForwardProxy } from "../../support/forward-proxy";
import { cli, startService, type Service } from "./service";

let service: Service;
let proxy: ForwardProxy;

beforeAll(async () => {
  [service, proxy] = await Promise.all([startService(["flows/signing.yaml"]), startForwardProxy()]);
});
afterAll(async () => {
  await Promise.all([service.close(), proxy.close()]);
});
beforeEach(() => {
  proxy.forwarded.length = 0;
});

const hostOf = (url: string) => new URL(url).host;

test("with HTTP_PROXY set, `flowsmith flows` reaches the auth host and the API through the proxy", async () => {
  const run = await cli(["flows", "--environment", "staging", "--json"], {
    ...service.env,
    HTTP_PROXY: proxy.url,
    NO_PROXY: "",
  });
  expect(run).toMatchObject({ code: 0, stderr: "" });
  expect(JSON.parse(run.stdout)).toMatchObject({ staging: [expect.objectContaining({ name: "Signing" }) as unknown] });
  expect(new Set(proxy.forwarded)).toEqual(
    new Set([`CONNECT ${hostOf(service.emulator.authUrl)}`, `CONNECT ${hostOf(service.emulator.baseUrl)}`]),
  );
});

test("the lower-case http_proxy counts too, and NO_PROXY exempts a host", async () => {
  const run = await cli(["flows", "--environment", "staging"], {
    ...service.env,
    http_proxy: proxy.url,
    NO_PROXY: hostOf(service.emulator.authUrl),
  });
  expect(run.code).toBe(0);
  expect(proxy.forwarded).toEqual([`CONNECT ${hostOf(service.emulator.baseUrl)}`]);
});

test("a proxy that is not an http(s) URL is said, and nothing is fetched", async () => {
  const run = await cli(["flows", "--environment", "staging"], { ...service.env, HTTP_PROXY: "socks5://127.0.0.1:1" });
  expect(run.code).not.toBe(0);
  expect(run.stderr).toContain("proxy.httpProxy must be the http(s) URL of a proxy");
  expect(proxy.forwarded).toEqual([]);
});
