/**
 * The control API answers only calls addressed to the emulator itself: a
 * page whose own name was rebound to 127.0.0.1 (DNS rebinding) reaches the
 * port as a same-origin page and sends no Origin on a GET, but its requests
 * carry its own name as Host. Raw HTTP over a socket, so the Host header is
 * exactly what the table says (or missing), for every control route.
 */
import { connect } from "node:net";
import { expect } from "@jest/globals";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { ALL_FLOWS } from "./fixtures.js";

interface RawAnswer {
  readonly status: number;
  readonly json: { code?: string; message?: string };
}

/** One request as written, `Connection: close`; the answer's status and JSON body. */
function rawRequest(
  port: number,
  request: {
    method: string;
    path: string;
    host: string | undefined;
    body?: string;
    version?: "1.0" | "1.1";
    headers?: Record<string, string>;
  },
): Promise<RawAnswer> {
  const body = request.body ?? "";
  const lines = [
    `${request.method} ${request.path} HTTP/${request.version ?? "1.1"}`,
    ...(request.host === undefined ? [] : [`Host: ${request.host}`]),
    "User-Agent: control-host-test/1.0",
    "Connection: close",
    `Content-Length: ${String(Buffer.byteLength(body))}`,
    ...Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      const json = text.slice(text.indexOf("\r\n\r\n") + 4);
      resolve({ status, json: json.startsWith("{") ? (JSON.parse(json) as RawAnswer["json"]) : {} });
    });
  });
}

let emulator: RunningEmulator;
let port: number;

beforeAll(async () => {
  emulator = await startEmulator({ flows: ALL_FLOWS });
  port = Number(new URL(emulator.baseUrl).port);
});
afterAll(() => emulator.close());

const ROUTES: [method: string, path: string, body: string][] = [
  ["GET", "/__emulator/requests", ""],
  ["GET", "/__emulator/faults", ""],
  ["POST", "/__emulator/faults", JSON.stringify({ path: "/x", status: 500 })],
  ["DELETE", "/__emulator/faults", ""],
  ["GET", "/__emulator/webhooks", ""],
  ["POST", "/__emulator/flows", "openapi: 3.0.3\n"],
  ["POST", "/__emulator/reset", ""],
  ["GET", "/__emulator/nothing", ""],
];

describe("a call not addressed to the emulator", () => {
  const otherHosts = (apiPort: number): [string, string | undefined][] => [
    ["a rebound name", `evil.example.test:${String(apiPort)}`],
    ["a name that resolves to 127.0.0.1", `127.0.0.1.nip.io:${String(apiPort)}`],
    ["a subdomain of localhost", `app.localhost:${String(apiPort)}`],
    ["a rebound name without a port", "evil.example.test"],
    ["loopback on another port", `127.0.0.1:${String(apiPort + 1)}`],
    ["loopback without the port", "127.0.0.1"],
    ["[::1] on another port", `[::1]:${String(apiPort + 1)}`],
    ["credentials before a name", `127.0.0.1:${String(apiPort)}@evil.example.test`],
    ["an empty Host", ""],
  ];

  test.each(ROUTES)(
    "%s %s is refused 403 CONTROL_HOST_NOT_ALLOWED whatever other Host it names, and does nothing",
    async (method, path, body) => {
      const fault = emulator.addFault({ path: "/kept", status: 500 });
      const before = { faults: emulator.faults(), requests: emulator.requests() };
      for (const [what, host] of otherHosts(port)) {
        const answer = await rawRequest(port, { method, path, host, body });
        expect([what, answer.status, answer.json.code]).toEqual([what, 403, "CONTROL_HOST_NOT_ALLOWED"]);
      }
      expect({ faults: emulator.faults(), requests: emulator.requests() }).toEqual(before);
      expect(emulator.faults().map((kept) => kept.id)).toEqual([fault.id]);
      emulator.clearFaults();
    },
  );

  test("an HTTP/1.0 call without Host is refused, and the message says what the emulator answers", async () => {
    const answer = await rawRequest(port, {
      method: "GET",
      path: "/__emulator/requests",
      host: undefined,
      version: "1.0",
    });
    expect([answer.status, answer.json.code]).toEqual([403, "CONTROL_HOST_NOT_ALLOWED"]);
    expect(answer.json.message).toContain(
      `Host localhost:${String(port)}, 127.0.0.1:${String(port)}, [::1]:${String(port)}`,
    );
    expect(answer.json.message).toContain("not no Host header");
  });

  test("the API endpoints are not the control API's: their Host is not checked", async () => {
    const answer = await rawRequest(port, {
      method: "GET",
      path: "/api/v1/flows/staging",
      host: `evil.example.test:${String(port)}`,
    });
    expect([answer.status, answer.json.code]).toEqual([401, "TOKEN_MISSING"]);
  });
});

describe("a call addressed to the emulator", () => {
  test.each([["127.0.0.1"], ["localhost"], ["LOCALHOST"], ["[::1]"], ["127.0.0.2"]])(
    "with Host %s and its port is answered",
    async (name) => {
      for (const [method, path] of ROUTES.filter(([method]) => method === "GET").slice(0, 3)) {
        const answer = await rawRequest(port, { method, path, host: `${name}:${String(port)}` });
        expect([name, path, answer.status]).toEqual([name, path, 200]);
      }
    },
  );

  test("bound to every interface with a token, the configured host passes and a rebound name does not, token or not", async () => {
    const token = "control-token-0123456789";
    const open = await startEmulator({ flows: [], host: "0.0.0.0", controlToken: token });
    try {
      const openPort = Number(new URL(open.baseUrl).port);
      const call = (host: string) =>
        rawRequest(openPort, {
          method: "GET",
          path: "/__emulator/faults",
          host,
          headers: { authorization: `Bearer ${token}` },
        });
      expect((await call(`0.0.0.0:${String(openPort)}`)).status).toBe(200);
      expect((await call(`127.0.0.1:${String(openPort)}`)).status).toBe(200);
      expect((await call(`evil.example.test:${String(openPort)}`)).json.code).toBe("CONTROL_HOST_NOT_ALLOWED");
    } finally {
      await open.close();
    }
  });
});
