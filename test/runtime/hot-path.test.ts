/**
 * What the hot path does without the machinery it used to have: the time
 * limit and the caller's signal without an AbortController per call, paths
 * resolved without a URL parsed per call, and fileFromPath streaming from
 * disk in large reads. Each behaviour the old machinery gave must still hold.
 */
import { describeWithDisk } from "./support/platform.js";
import { getEventListeners } from "node:events";
import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FlowsmithError, NetworkError, TimeoutError, fileFromPath, type Client } from "../../runtime/index.js";
import { BaseUrl } from "../../runtime/base-url.js";
import { parseMultipart, partValue, type ReceivedForm } from "./support/busboy-parts.js";
import { clientFor } from "./support/clients.js";
import { createdSession, json, startFakeService, type FakeService } from "./support/fake-service.js";
import { createSession, SIGNING_SPEC } from "./support/specs.js";

let service: FakeService;
let client: Client<"staging">;

beforeEach(async () => {
  service = await startFakeService("/verification");
  client = clientFor(service, { retry: { maxRetries: 0 } });
});
afterEach(async () => {
  await client.close();
  await service.close();
});

describe("time limit and caller's signal", () => {
  test("the time limit also covers a body that stops arriving after the headers", async () => {
    service.onApi((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "100" });
      res.write('[{"id":');
    });
    const error = await client.listFlows({ timeoutMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({
      code: "TIMEOUT",
      method: "GET",
      path: "/verification/api/v1/flows/staging",
      timeoutMs: 50,
    });
  });

  test("a signal shared by many calls keeps no listener once they are over, whatever their outcome", async () => {
    const controller = new AbortController();
    let calls = 0;
    service.onApi((_req, res) => {
      calls++;
      if (calls % 3 === 0) {
        json(res, 404, { status: 404, code: "FLOW_NOT_FOUND" });
        return;
      }
      if (calls % 3 === 1) {
        json(res, 200, [{ id: "f" }]);
        return;
      }
      // Never answered: the call's 50 ms limit ends it.
    });
    const outcomes: string[] = [];
    for (let i = 0; i < 15; i++) {
      // The unanswered calls end at their 50 ms limit; the answered ones get a limit no loaded machine reaches.
      const unanswered = (i + 1) % 3 === 2;
      await client.listFlows({ signal: controller.signal, timeoutMs: unanswered ? 50 : 30_000 }).then(
        () => outcomes.push("ok"),
        (error: unknown) => outcomes.push((error as FlowsmithError).code),
      );
    }
    expect(new Set(outcomes)).toEqual(new Set(["ok", "TIMEOUT", "NOT_FOUND"]));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  test("the caller's signal still ends a downloading file after the time limit has stopped", async () => {
    service.onApi((_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": "1000000" });
      res.write(Buffer.alloc(1000));
    });
    // The headers must beat the time limit; on a loaded machine one try may not (then it is a TimeoutError
    // before any stream exists, which is not what this test is about): a limit far above a loopback round trip,
    // and up to five tries, the token cached by the first.
    const LIMIT_MS = 250;
    let controller = new AbortController();
    let download: Awaited<ReturnType<typeof client.getFile>> | undefined;
    for (let attempt = 0; attempt < 5 && download === undefined; attempt++) {
      controller = new AbortController();
      download = await client
        .getFile("v-1", { signal: controller.signal, timeoutMs: LIMIT_MS })
        .catch((error: unknown) => {
          if (error instanceof TimeoutError) return undefined;
          throw error;
        });
    }
    if (download === undefined)
      throw new Error(`the headers never arrived within ${String(LIMIT_MS)} ms in five tries`);
    const chunks: Buffer[] = [];
    const reading = (async () => {
      for await (const chunk of download.body) chunks.push(chunk as Buffer);
    })();
    // Past the limit: the time limit no longer applies to the stream, the signal does.
    await new Promise((resolve) => setTimeout(resolve, LIMIT_MS * 2));
    controller.abort(new Error("user left"));
    await expect(reading).rejects.toBeDefined();
    expect(Buffer.concat(chunks).length).toBeGreaterThan(0);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});

describe("request paths", () => {
  test.each([
    ["http://127.0.0.1:1", "/api/v1/staging/sessions/abc-123", "/api/v1/staging/sessions/abc-123"],
    [
      "http://127.0.0.1:1/verification",
      "/api/v1/staging/sessions/a%20b%2Fc",
      "/verification/api/v1/staging/sessions/a%20b%2Fc",
    ],
    [
      "http://127.0.0.1:1/gw/v2/",
      "/api/v1/staging/sessions/%C3%BC~x.y_z",
      "/gw/v2/api/v1/staging/sessions/%C3%BC~x.y_z",
    ],
    [
      "http://127.0.0.1:1/verification",
      "/api/v1/staging/sessions/.hidden",
      "/verification/api/v1/staging/sessions/.hidden",
    ],
  ])("%s + %s is sent as built, under the baseUrl's prefix, never normalized", (base, path, sent) => {
    const prefix = sent.slice(0, sent.length - path.length);
    expect(new BaseUrl(base.replace(/\/$/, "")).resolve(path, "/api/v1/{environment}/sessions/{sessionId}")).toEqual({
      origin: "http://127.0.0.1:1",
      path: sent,
      displayPath: sent,
      route: `${prefix}/api/v1/{environment}/sessions/{sessionId}`,
    });
  });

  test("the request goes to the baseUrl's prefix, and errors name that path", async () => {
    service.onApi((_req, res) => {
      json(res, 404, { status: 404, code: "SESSION_NOT_FOUND" });
    });
    const error = await client.getSession("a b/ü").catch((e: unknown) => e);
    expect(service.apiRequests[0]?.url).toBe("/verification/api/v1/staging/sessions/a%20b%2F%C3%BC");
    expect(error).toMatchObject({ code: "NOT_FOUND", path: "/verification/api/v1/staging/sessions/a%20b%2F%C3%BC" });
  });
});

describeWithDisk("fileFromPath", () => {
  let dir: string;
  let received: ReceivedForm[];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "flowsmith-hot-path-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    received = [];
    service.onApi(
      async (req, res) => {
        const form = await parseMultipart(req);
        received.push(form);
        json(res, 201, createdSession(req.url ?? "", partValue(form, "metadata[subjectId]")));
      },
      { streaming: true },
    );
  });

  const signingRequest = (source: unknown) => ({
    input: { documentsToSign: { documents: [{ templateId: "t", source }] } },
    metadata: { subjectId: "x" },
  });

  test("a file of several read chunks arrives byte for byte, with the declared length", async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 123);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >> 16)) & 0xff;
    const path = join(dir, "large.pdf");
    await writeFile(path, bytes);
    await createSession(client, SIGNING_SPEC, signingRequest(await fileFromPath(path)));
    const form = received[0];
    const file = form?.parts.find((part) => part.filename !== undefined);
    expect(file?.filename).toBe("large.pdf");
    expect(file?.bytes?.equals(bytes)).toBe(true);
    expect(form?.bytesReceived).toBe(form?.contentLength);
  });

  test("an empty file is sent as an empty part", async () => {
    const path = join(dir, "empty.pdf");
    await writeFile(path, "");
    await createSession(client, SIGNING_SPEC, signingRequest(await fileFromPath(path)));
    const file = received[0]?.parts.find((part) => part.filename !== undefined);
    expect(file?.bytes?.length).toBe(0);
  });

  test("a file changed after fileFromPath opened it is refused, not sent", async () => {
    const path = join(dir, "changed.pdf");
    await writeFile(path, "%PDF-1.7 first");
    const file = await fileFromPath(path);
    await utimes(path, new Date(1_000_000), new Date(1_000_000));
    const error = await createSession(client, SIGNING_SPEC, signingRequest(file)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(String((error as Error).cause)).toMatch(/changed after fileFromPath opened it/);
    expect(received).toHaveLength(0);
  });

  test("a directory, a device or a missing path is refused by fileFromPath itself, naming the path", async () => {
    for (const [path, says] of [
      [dir, /is not a regular file/],
      ["/dev/null", /is not a regular file/],
      [join(dir, "missing.pdf"), /cannot read .*missing\.pdf.* \(ENOENT\)/],
    ] as const) {
      const error = await fileFromPath(path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FlowsmithError);
      expect(error).toMatchObject({ code: "FILE_NOT_READABLE", message: expect.stringMatching(says) as unknown });
    }
  });
});
