/**
 * Uploading ~50 MB from disk must not hold the file in memory: fileFromPath
 * gives a disk-backed Blob and undici streams it. The server here counts the
 * bytes and drops them, so the growth measured is the client's.
 *
 * Garbage is not a leak: streamed chunks are dropped but freed only when the
 * GC runs, and on a busy machine it may run late. So the sampler forces a GC
 * before each sample and measures what is still alive (heap + Buffers); a
 * buffered upload keeps the whole file alive and fails at once.
 */
import { open, mkdtemp, rm } from "node:fs/promises";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileFromPath, MAX_REQUEST_BYTES, type Client } from "../../runtime/index.js";
import type { FlowSpec } from "../../runtime/flow-module.js";
import { clientFor } from "./support/clients.js";
import { createdSession, json, startFakeService, type FakeService } from "./support/fake-service.js";
import { createSession, value } from "./support/specs.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const FILE_BYTES = 50 * 1024 * 1024 - 4096;
const MB = 1024 * 1024;

const spec: FlowSpec<"staging"> = {
  id: "upload",
  version: 1,
  environment: "staging",
  path: "/api/v1/flows/upload/staging/sessions",
  bodyForm: "multipart",
  locales: ["en"],
  request: true,
  response: true,
  fields: {
    kind: "object",
    properties: [
      {
        name: "document",
        spec: { kind: "file", part: ["input[upload][document]"], maxBytes: MAX_REQUEST_BYTES, mediaTypes: [] },
      },
      {
        name: "metadata",
        spec: { kind: "object", properties: [{ name: "subjectId", spec: value("metadata[subjectId]") }] },
      },
    ],
  },
};

let service: FakeService;
let client: Client<"staging">;
let dir: string;
let path: string;
let bytesReceived = 0;
let onProgress: () => void = () => undefined;
const SAMPLE_EVERY = 4 * 1024 * 1024;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "flowsmith-stream-"));
  path = join(dir, "fifty.bin");
  // Real bytes on disk (not a sparse file), written in 1 MB pieces so the test itself stays small.
  const handle = await open(path, "w");
  const piece = Buffer.alloc(MB);
  for (let i = 0; i < piece.length; i++) piece[i] = (i * 31) & 0xff;
  for (let written = 0; written < FILE_BYTES; written += MB) {
    await handle.write(piece, 0, Math.min(MB, FILE_BYTES - written));
  }
  await handle.close();
  service = await startFakeService();
  service.onApi(
    (req, res) => {
      req.on("data", (chunk: Buffer) => {
        const before = bytesReceived;
        bytesReceived += chunk.length;
        if (Math.floor(before / SAMPLE_EVERY) !== Math.floor(bytesReceived / SAMPLE_EVERY)) onProgress();
      });
      // The test sends subjectId "w" (warm-up) and "big"; the body is not parsed, only counted.
      req.on("end", () => {
        json(res, 201, createdSession(req.url ?? "", bytesReceived > FILE_BYTES ? "big" : "w", "big"));
      });
    },
    { streaming: true },
  );
  client = clientFor(service, { timeoutMs: 60_000 });
});
afterAll(async () => {
  await client.close();
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

test("a ~50 MB upload from disk keeps the client's memory growth well below the file size", async () => {
  // Warm up connections, token and code paths so the measurement sees only the upload.
  await createSession(client, spec, {
    document: { data: new Blob([Buffer.alloc(1024)]) },
    metadata: { subjectId: "w" },
  });
  bytesReceived = 0;

  gc();
  const baseline = process.memoryUsage();
  const live = (m: NodeJS.MemoryUsage) => m.heapUsed + m.arrayBuffers;
  let peakRss = baseline.rss;
  let peakLive = live(baseline);
  let samples = 0;
  // Sampled as the server receives each 4 MB, so the samples fall inside the upload however fast it runs.
  onProgress = () => {
    gc();
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakLive = Math.max(peakLive, live(now));
    samples++;
  };
  try {
    const file = await fileFromPath(path);
    const response = await createSession(client, spec, { document: file, metadata: { subjectId: "big" } });
    expect(response).toMatchObject({ sessionContext: { sessionId: "big" } });
  } finally {
    onProgress = () => undefined;
  }

  expect(bytesReceived).toBeGreaterThan(FILE_BYTES);
  expect(samples).toBeGreaterThanOrEqual(12);
  const liveGrowth = peakLive - live(baseline);
  const rssGrowth = peakRss - baseline.rss;
  // Buffered, the file alone would keep 50 MB alive. Streamed, what is alive is the data in
  // flight between client and server (measured at about 12 MB here, whatever the file size).
  expect(liveGrowth).toBeLessThan(24 * MB);
  // RSS also holds freed pages the allocator keeps, so it gets the looser bound: below the file size.
  expect(rssGrowth).toBeLessThan(FILE_BYTES);
}, 60_000);
