/**
 * The network side of the exchange, on each transport (runtime/exchange/:
 * undici's dispatch handler on Node, fetch elsewhere; jest.config.js runs
 * this suite on both). What every transport must hold: bodies in many
 * chunks, a byte order mark, 1xx answers before the real one, limits on
 * what is kept, bodies that break off, a streamed body that pauses its
 * sender while the reader lags; and on Node, with a dispatcher of one
 * connection, calls that end while they still wait for it.
 */
import { platform } from "#platform";
import { Agent } from "undici";
import {
  ApiError,
  ClientClosedError,
  NetworkError,
  ServerError,
  TimeoutError,
  type Client,
} from "../../runtime/index.js";
import { clientFor } from "./support/clients.js";
import { json, startFakeService, type FakeService } from "./support/fake-service.js";

let service: FakeService;
let client: Client<"staging">;

beforeEach(async () => {
  service = await startFakeService();
  client = clientFor(service, { retry: { maxRetries: 0 } });
});
afterEach(async () => {
  await client.close();
  await service.close();
});

describe("bodies", () => {
  test("a body of many chunks, with multi-byte characters across their edges, arrives whole", async () => {
    // About 1.5 MB of two-byte characters: many socket reads, some splitting a character.
    const name = "ü".repeat(750_000);
    service.onApi((_req, res) => {
      json(res, 200, [{ id: "f", name }]);
    });
    await expect(client.listFlows()).resolves.toEqual([{ id: "f", name }]);
  });

  test("a UTF-8 byte order mark before the JSON is not part of it", async () => {
    service.onApi((_req, res) => {
      const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[{"id":"f"}]')]);
      res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
      res.end(body);
    });
    await expect(client.listFlows()).resolves.toEqual([{ id: "f" }]);
  });

  test("an informational 103 before the answer is passed over", async () => {
    service.onApi((_req, res) => {
      res.writeEarlyHints({ link: "</style.css>; rel=preload; as=style" });
      json(res, 200, [{ id: "f" }]);
    });
    await expect(client.listFlows()).resolves.toEqual([{ id: "f" }]);
  });

  test("an error body is kept up to 64 KB, the rest is not read, and the next call works", async () => {
    const large = "x".repeat(1024 * 1024);
    let calls = 0;
    service.onApi((_req, res) => {
      calls++;
      if (calls === 1) {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(large);
        return;
      }
      json(res, 200, [{ id: "f" }]);
    });
    const error = await client.listFlows().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ApiError).body).toBe("x".repeat(64 * 1024));
    await expect(client.listFlows()).resolves.toEqual([{ id: "f" }]);
  });

  test("an error body that breaks off leaves the status as the news", async () => {
    service.onApi((req, res) => {
      res.writeHead(503, { "content-type": "application/json", "content-length": "100" });
      res.write('{"code":"UNAV', () => req.socket.destroy());
    });
    const error = await client.getSession("s-1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, method: "GET", path: "/api/v1/staging/sessions/s-1" });
  });

  test("a 2xx body that breaks off is a NetworkError, not a wrong answer", async () => {
    service.onApi((req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('{"sessionStatus":', () => req.socket.destroy());
    });
    const error = await client.getSession("s-1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: "NETWORK_ERROR", method: "GET", path: "/api/v1/staging/sessions/s-1" });
  });
});

/** A dispatcher is undici's, so Node's alone (elsewhere it is a ConfigurationError: test/runtime/platforms.test.ts). */
const onNode = platform.name === "node" ? describe : describe.skip;

onNode("a call still waiting for a connection", () => {
  // One connection: a second call waits in the dispatcher's queue behind a first one the server holds.
  let dispatcher: Agent;
  let held: Promise<unknown>;

  beforeEach(async () => {
    await client.close();
    dispatcher = new Agent({ connections: 1 });
    client = clientFor(service, { dispatcher, retry: { maxRetries: 0 } });
    await client.listFlows().catch(() => undefined); // the token, fetched before the API connection is taken
    let arrived!: () => void;
    const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
    service.onApi(() => {
      arrived(); // never answered
    });
    held = client.getSession("held").catch((e: unknown) => e);
    await firstArrived;
  });
  afterEach(async () => {
    await client.close();
    await expect(held).resolves.toBeInstanceOf(ClientClosedError);
    await dispatcher.destroy();
  });

  test("ends at its own time limit, and is never sent", async () => {
    const error = await client.getSession("queued", { timeoutMs: 30 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ path: "/api/v1/staging/sessions/queued", timeoutMs: 30 });
    expect(service.apiRequests.map((request) => request.url)).not.toContain("/api/v1/staging/sessions/queued");
  });

  test("ends at close() with a ClientClosedError", async () => {
    const queued = client.getSession("queued").catch((e: unknown) => e);
    await client.close();
    await expect(queued).resolves.toMatchObject({ name: "ClientClosedError", path: "/api/v1/staging/sessions/queued" });
  });
});

describe("a streamed body (getFile)", () => {
  test("a reader that lags pauses undici: the server can send little more than the socket holds, and every byte arrives in order", async () => {
    const size = 32 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024);
    for (let i = 0; i < chunk.length; i++) chunk[i] = i % 251;
    let sent = 0;
    service.onApi(
      (_req, res) => {
        res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(size) });
        const pump = (): void => {
          while (sent < size) {
            sent += chunk.length;
            if (!res.write(chunk)) {
              res.once("drain", pump);
              return;
            }
          }
          res.end();
        };
        pump();
      },
      { streaming: true },
    );
    const file = await client.getFile("big");
    // Nobody reads for a while: undici must stop reading the socket rather than buffer the file, so the server's
    // writes stop once the socket's buffers are full (a few MB at most), far short of the file.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sent).toBeLessThan(size / 4);
    let received = 0;
    let inOrder = true;
    for await (const piece of file.body) {
      for (let i = 0; i < piece.length; i += 4096)
        if (piece[i] !== ((received + i) % chunk.length) % 251) inOrder = false;
      received += piece.length;
    }
    expect(received).toBe(size);
    expect(inOrder).toBe(true);
  });
});
