/**
 * The proxy's URL and password (issue 31): a URL that does not parse, or
 * parses into something that is not a proxy's (a `#` or `/` in a password
 * that ends its authority early), read from the `proxy` option or from
 * HTTP_PROXY / HTTPS_PROXY, is a ConfigurationError that names where it came
 * from and holds nothing of the URL; and a proxy on loopback that echoes the
 * credentials it was sent, inside the tunnel, leaves no run of 8 characters
 * of the password (or of the Basic value) in the error, the log entries or
 * the spans.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ConfigurationError, ServerError, type Client } from "../../runtime/index.js";
import { arrayLogger } from "./support/array-logger.js";
import { clientFor } from "./support/clients.js";
import { startFakeService, type FakeService } from "./support/fake-service.js";
import { ENCODINGS, everyWayShown, leaksIn } from "./support/secret-echoes.js";

const PASSWORD = "Pr0xy-Pa55w0rd#42/Kq9+Zt7";
const PROXY_VARIABLES = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY"];

let service: FakeService;
const clients: Client[] = [];

beforeAll(async () => {
  service = await startFakeService();
});
afterAll(async () => {
  await service.close();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** Runs `make` with only these proxy variables set. */
function withProxyVariables<T>(variables: Record<string, string>, make: () => T): T {
  const saved = { ...process.env };
  process.env = {
    ...Object.fromEntries(Object.entries(saved).filter(([name]) => !PROXY_VARIABLES.includes(name))),
    ...variables,
  };
  try {
    return make();
  } finally {
    process.env = saved;
  }
}

type Given = { readonly variables?: Record<string, string>; readonly proxy?: unknown; readonly names: string };

const REFUSED: readonly [string, Given][] = [
  [
    "HTTPS_PROXY with an unescaped # in its password (does not parse)",
    { variables: { HTTPS_PROXY: `http://user:${PASSWORD}@127.0.0.9:3128` }, names: "HTTPS_PROXY" },
  ],
  [
    "https_proxy (the lower-case form, read first) with an unescaped # and /",
    {
      variables: {
        https_proxy: `http://user:${PASSWORD}@proxy.corp.example`,
        HTTPS_PROXY: "http://proxy.corp.example:3128",
      },
      names: "https_proxy",
    },
  ],
  [
    "HTTP_PROXY whose # ends it after a port (parses, with a fragment)",
    { variables: { HTTP_PROXY: "http://user:3128#Zt7Kq9Pr0xyPa55@proxy.corp.example" }, names: "HTTP_PROXY" },
  ],
  [
    "HTTP_PROXY whose / starts a path (parses)",
    { variables: { HTTP_PROXY: "http://user:3128/Zt7Kq9Pr0xyPa55@proxy.corp.example" }, names: "HTTP_PROXY" },
  ],
  [
    "HTTP_PROXY with a password that has a % starting no escape",
    { variables: { HTTP_PROXY: "http://user:Pr0xy%zzPa55w0rd@proxy.corp.example:3128" }, names: "HTTP_PROXY" },
  ],
  [
    "HTTPS_PROXY without a scheme, the user name read as one",
    { variables: { HTTPS_PROXY: "user:Pr0xyPa55w0rdZt7@proxy.corp.example:3128" }, names: "HTTPS_PROXY" },
  ],
  [
    "proxy: a URL with an unescaped # in its password",
    { proxy: `http://user:${PASSWORD}@127.0.0.9:3128`, names: 'proxy must be "env"' },
  ],
  [
    "proxy: a socks URL with a password",
    { proxy: "socks5://user:Pr0xyPa55w0rdZt7@127.0.0.9:1080", names: 'proxy must be "env"' },
  ],
  [
    "proxy.httpsProxy with an unescaped # in its password",
    { proxy: { httpsProxy: `http://user:${PASSWORD}@127.0.0.9:3128` }, names: "proxy.httpsProxy" },
  ],
  [
    'proxy: "env" leaves httpProxy to HTTP_PROXY, which does not parse',
    {
      proxy: { httpsProxy: "http://proxy.corp.example:3128" },
      variables: { HTTP_PROXY: `http://user:${PASSWORD}@127.0.0.9:3128` },
      names: "HTTP_PROXY",
    },
  ],
];

test.each(REFUSED)(
  "%s: a ConfigurationError that names it and shows no credential",
  (_name, { variables = {}, proxy = "env", names }) => {
    const error = withProxyVariables(variables, () => {
      try {
        clients.push(clientFor(service, { proxy: proxy as never }));
        return undefined;
      } catch (caught) {
        return caught;
      }
    });
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ code: "INVALID_OPTIONS" });
    expect((error as ConfigurationError).message).toContain(names);
    expect(error).not.toHaveProperty("input");
    expect((error as ConfigurationError).cause).toBeUndefined();
    const shown = everyWayShown(error);
    const credentials = [PASSWORD, "Zt7Kq9Pr0xyPa55", "Pr0xy%zzPa55w0rd", "Pr0xyPa55w0rdZt7"];
    expect(leaksIn(shown, ...credentials)).toEqual([]);
    // Nor the host, which a password cut short by a # or / turns into.
    expect(shown.join("\n")).not.toMatch(/proxy\.corp|127\.0\.0\.9|user:/);
  },
);

test("a proxy URL with a percent-encoded # and / is taken, through HTTPS_PROXY as through the option", () => {
  const escaped = `http://user:${encodeURIComponent(PASSWORD)}@127.0.0.9:3128`;
  withProxyVariables({ HTTPS_PROXY: escaped }, () => clients.push(clientFor(service, { proxy: "env" })));
  clients.push(clientFor(service, { proxy: escaped }));
  expect(clients).toHaveLength(2);
});

describe("a proxy that echoes the credentials it was sent", () => {
  let proxy: Server;
  let proxyPort: number;
  const exporter = new InMemorySpanExporter();

  beforeAll(async () => {
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    // CONNECT is answered 200, then the proxy answers in the tunnel itself: a token, then a 502 that echoes the credentials.
    proxy = createServer();
    proxy.on("connect", (req, socket: Socket) => {
      const authorization = req.headers["proxy-authorization"] ?? "";
      const password = Buffer.from(authorization.replace(/^Basic /, ""), "base64")
        .toString("utf8")
        .split(":")
        .slice(1)
        .join(":");
      const piece = password.slice(4, 20);
      const echo = [
        `you sent proxy-authorization: ${authorization}`,
        ...ENCODINGS.map(([name, encode]) => `${name}: ${encode(piece)}`),
      ].join("; ");
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      socket.once("data", (request: Buffer) => {
        const body = request.toString("latin1").startsWith("POST ")
          ? JSON.stringify({ access_token: "tok-through-the-proxy", expires_in: 3600, token_type: "Bearer" })
          : JSON.stringify({ code: "BAD_GATEWAY", message: `bad gateway for ${password.slice(0, 3)}…; ${echo}` });
        const status = request.toString("latin1").startsWith("POST ") ? "200 OK" : "502 Bad Gateway";
        socket.end(
          `HTTP/1.1 ${status}\r\ncontent-type: application/json\r\ncontent-length: ${String(Buffer.byteLength(body))}\r\n\r\n${body}`,
        );
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxyPort = (proxy.address() as AddressInfo).port;
  });
  afterAll(async () => {
    trace.disable();
    await new Promise((resolve) => proxy.close(resolve));
  });

  const withUrl = () => `http://proxy-user:${encodeURIComponent(PASSWORD)}@127.0.0.1:${String(proxyPort)}`;
  test.each([
    ["the proxy option", () => ({ proxy: withUrl() })],
    ['HTTP_PROXY, with proxy: "env"', () => ({ proxy: "env", variables: { HTTP_PROXY: withUrl() } })],
  ])(
    "through %s: no run of the password or its Basic value in the API error, the log entries or the spans",
    async (_name, given) => {
      const { proxy: option, variables = {} } = given() as { proxy: string; variables?: Record<string, string> };
      const logger = arrayLogger({ debug: true });
      const client = withProxyVariables(variables, () =>
        clientFor(service, { proxy: option, logger, retry: { maxRetries: 0 } }),
      );
      clients.push(client);
      const error = await client.getSession("s-1").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      expect(error).toMatchObject({ status: 502 });
      expect((error as ServerError).message).toContain("you sent proxy-authorization: [redacted]; raw: [redacted]");
      expect(JSON.stringify((error as ServerError).body)).toContain("hex, lower case: [redacted]");
      expect(logger.entries.find((entry) => entry.level === "debug")?.fields["body"]).toContain("raw: [redacted]");
      expect(service.authRequests).toHaveLength(0);
      const spans = exporter
        .getFinishedSpans()
        .map((span) => JSON.stringify({ name: span.name, attributes: span.attributes, status: span.status }));
      exporter.reset();
      const shown = [...everyWayShown(error), ...logger.entries.map((entry) => JSON.stringify(entry)), ...spans];
      expect(leaksIn(shown, PASSWORD, Buffer.from(`proxy-user:${PASSWORD}`).toString("base64"))).toEqual([]);
    },
  );
});
