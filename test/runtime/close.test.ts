/**
 * close() ends what is open and refuses what comes after (issue 11): an
 * unread 100 MB getFile body, a server that never answers, a token request in
 * flight, a wait between polls or retries. "Resolves" is checked against a
 * generous bound only to turn a hang into a failure; nothing asserts how
 * long anything took.
 */
import { platform } from "#platform";
import type { ServerResponse } from "node:http";
import { Agent } from "undici";
import { AuthError, ClientClosedError, type Client } from "../../runtime/index.js";
import { clientFor } from "./support/clients.js";
import { json, startFakeService, type FakeService } from "./support/fake-service.js";
import { acceptAll, AML_SPEC, createSessionFor } from "./support/specs.js";
import { VirtualClock } from "./support/virtual-clock.js";

let service: FakeService;
let client: Client<"staging">;

beforeEach(async () => {
  service = await startFakeService();
  client = clientFor(service);
});
afterEach(async () => {
  await client.close();
  await service.close();
});

/** "settled" if `promise` settles before a bound that only a hang reaches. */
async function settledOrHung(promise: Promise<unknown>, boundMs = 5000): Promise<"settled" | "hung"> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<"hung">((resolve) => (timer = setTimeout(resolve, boundMs, "hung")));
  try {
    return await Promise.race([
      promise.then(
        () => "settled" as const,
        () => "settled" as const,
      ),
      hung,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Sends a body of `bytes` as fast as the client reads it: a client that does not read stalls it. */
function streamFile(res: ServerResponse, bytes: number, closed: () => void): void {
  res.on("close", closed);
  res.writeHead(200, { "content-type": "application/octet-stream", "content-length": bytes });
  const chunk = Buffer.alloc(1024 * 1024, 1);
  let sent = 0;
  const pump = () => {
    while (sent < bytes && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
    res.end();
  };
  pump();
}

test("an unread 100 MB getFile body is aborted: close() resolves, the body ends with CLIENT_CLOSED, the connection is dropped", async () => {
  let serverSawClose!: () => void;
  const connectionClosed = new Promise<void>((resolve) => (serverSawClose = resolve));
  service.onApi(
    (_req, res) => {
      streamFile(res, 100 * 1024 * 1024, serverSawClose);
    },
    { streaming: true },
  );
  const file = await client.getFile("v-1");
  expect(file.contentLength).toBe(100 * 1024 * 1024);

  await expect(settledOrHung(client.close())).resolves.toBe("settled");
  await expect(settledOrHung(connectionClosed)).resolves.toBe("settled");
  const reading = (async () => {
    for await (const chunk of file.body) expect(chunk).toBeDefined();
  })();
  await expect(reading).rejects.toMatchObject({ name: "ClientClosedError", code: "CLIENT_CLOSED" });
});

test("a body being read slowly is ended the same way", async () => {
  service.onApi((_req, res) => {
    res.writeHead(200, { "content-length": "1000000" });
    res.write(Buffer.alloc(1000)); // then nothing more
  });
  const file = await client.getFile("v-1");
  const chunks: Buffer[] = [];
  const reading = (async () => {
    for await (const chunk of file.body) chunks.push(chunk as Buffer);
  })().catch((e: unknown) => e);
  await expect(settledOrHung(client.close())).resolves.toBe("settled");
  await expect(reading).resolves.toBeInstanceOf(ClientClosedError);
});

test.each([
  ["an API call waiting for its answer", "api"],
  ["a call waiting for the token request", "auth"],
] as const)(
  "%s ends with ClientClosedError, not an AuthError or undici's UND_ERR_DESTROYED",
  async (_name, stalled) => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const hold = () => {
      arrived();
    }; // never answers
    if (stalled === "api") service.onApi(hold);
    else service.onToken(hold);
    const call = client.getSession("s-1").catch((e: unknown) => e);
    await requestArrived;
    await expect(settledOrHung(client.close())).resolves.toBe("settled");
    const error = await call;
    expect(error).toBeInstanceOf(ClientClosedError);
    expect(error).not.toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: "CLIENT_CLOSED" });
    expect(JSON.stringify(error) + String(error)).not.toMatch(/UND_ERR/);
  },
);

test("every call after close() fails with ClientClosedError and sends nothing", async () => {
  await client.close();
  const calls: [string, () => Promise<unknown>][] = [
    ["listFlows", () => client.listFlows()],
    ["getSession", () => client.getSession("s")],
    ["getDataBlocks", () => client.getDataBlocks("s")],
    ["getFile", () => client.getFile("v")],
    ["getStep", () => client.getStep("s")],
    ["waitForStep", () => client.waitForStep("s")],
    ["submitAction", () => client.submitAction("s", "t", { type: "X" })],
    ["createSession", () => createSessionFor(client as never, AML_SPEC, acceptAll, { metadata: { subjectId: "x" } })],
  ];
  for (const [name, call] of calls) {
    const error = await call().catch((e: unknown) => e);
    expect({ name, error }).toMatchObject({ name, error: { name: "ClientClosedError", code: "CLIENT_CLOSED" } });
    expect((error as Error).message).toMatch(/the client was closed \(client\.close\(\)\); create a new client/);
  }
  expect(service.authRequests.length + service.apiRequests.length).toBe(0);
  await expect(client.close()).resolves.toBeUndefined();
});

test("a wait between polls ends at close()", async () => {
  const clock = new VirtualClock({ hold: true, onSleep: () => void client.close() });
  await client.close();
  client = clientFor(service, { clock });
  service.onApi((_req, res) => {
    json(res, 200, { stepType: "START", ticketId: null });
  });
  const error = await client.waitForStep("s-1").catch((e: unknown) => e);
  expect(error).toMatchObject({ name: "ClientClosedError", path: "/api/v1/staging/sessions/s-1/step" });
  expect(service.apiRequests).toHaveLength(1);
});

test("a retry's wait on the real clock ends at close(), leaving no timer behind", async () => {
  await client.close();
  client = clientFor(service, { retry: { maxRetries: 1, maxDelayMs: 600_000 } });
  // Retry-After of ten minutes: only close() can end this wait.
  service.onApi((_req, res) => {
    json(res, 503, {}, { "retry-after": "600" });
    setImmediate(() => void client.close());
  });
  const error = await client.listFlows().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ClientClosedError);
  expect(service.apiRequests).toHaveLength(1);
});

/** A dispatcher is undici's, so Node's alone. */
const onNode = platform.name === "node" ? test : test.skip;

onNode("a dispatcher passed in: close() aborts the client's calls and leaves the dispatcher open", async () => {
  const dispatcher = new Agent();
  await client.close();
  client = clientFor(service, { dispatcher });
  let arrived!: () => void;
  const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
  service.onApi((req, res) => {
    if (req.url?.endsWith("/held")) arrived();
    else json(res, 200, [{ id: "f" }]);
  });
  const call = client.getSession("held").catch((e: unknown) => e);
  await requestArrived;
  await client.close();
  await expect(call).resolves.toBeInstanceOf(ClientClosedError);
  const other = clientFor(service, { dispatcher });
  await expect(other.listFlows()).resolves.toEqual([{ id: "f" }]);
  await other.close();
  await dispatcher.close();
});
