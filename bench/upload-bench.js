"use strict";
/**
 * Benchmark 5: multipart upload of three files from disk, each tool in a
 * fresh child process (so RSS is the tool's own), against one stub server.
 */
const fs = require("node:fs");
const path = require("node:path");
const { startStubServer } = require("./stub-server-handle.js");
const { runNodeOrThrow, lastJsonLine } = require("./processes.js");
const { median, ratio, rotated } = require("./stats.js");
const { formatMs } = require("./codegen-bench.js");

const TOOLS = ["flowsmith", "undici FormData", "fetch FormData"];
const MB = 1024 * 1024;

async function benchUpload(workspace, flow, { rounds, fileBytes }) {
  const files = writeFiles(workspace.filesDir, "document", 3, fileBytes);
  const warmupFiles = writeFiles(workspace.filesDir, "warmup", 1, 64 * 1024);
  const server = await startStubServer();
  const results = Object.fromEntries(TOOLS.map((tool) => [tool, { ms: [], growth: [] }]));
  try {
    for (let round = 0; round < rounds; round += 1) {
      for (const tool of rotated(TOOLS, round)) {
        const settings = {
          tool,
          files,
          warmupFiles,
          baseUrl: server.baseUrl,
          authUrl: server.authUrl,
          environment: flow.environment,
          sessionsPath: flow.sessionsPath,
          modulePath: flow.modulePath,
        };
        const script = require.resolve("./upload-client.js");
        const report = lastJsonLine((await runNodeOrThrow(["--expose-gc", script, JSON.stringify(settings)])).stdout);
        results[tool].ms.push(report.ms);
        results[tool].growth.push(report.growth);
      }
    }
  } finally {
    await server.close();
  }
  return toRows(results, fileBytes);
}

function toRows(results, fileBytes) {
  const ms = (tool) => median(results[tool].ms);
  const growth = (tool) => median(results[tool].growth);
  const size = fileBytes >= MB ? `${fileBytes / MB} MB` : `${fileBytes / 1024} KB`;
  return [
    ...["undici FormData", "fetch FormData"].map((tool) => ({
      benchmark: `5. Upload 3 x ${size}: peak RSS growth vs ${tool}`,
      flowsmith: formatMb(growth("flowsmith")),
      baseline: `${tool} ${formatMb(growth(tool))}`,
      ratio: ratio(growth("flowsmith"), growth(tool)),
      goal: "growth <= 16 MB",
      met: growth("flowsmith") <= 16 * MB,
    })),
    {
      benchmark: `5. Upload 3 x ${size}: wall time vs undici FormData`,
      flowsmith: formatMs(ms("flowsmith")),
      baseline: `undici FormData ${formatMs(ms("undici FormData"))}`,
      ratio: ratio(ms("flowsmith"), ms("undici FormData")),
      goal: "<= 1",
      met: ms("flowsmith") <= ms("undici FormData"),
    },
    {
      benchmark: `5. Upload 3 x ${size}: wall time vs fetch FormData`,
      flowsmith: formatMs(ms("flowsmith")),
      baseline: `fetch FormData ${formatMs(ms("fetch FormData"))}`,
      ratio: ratio(ms("flowsmith"), ms("fetch FormData")),
      goal: "(for reference)",
      met: null,
    },
  ];
}

/** A constant byte per file: the server only drains the body, so content does not matter. */
function writeFiles(dir, prefix, count, bytes) {
  fs.mkdirSync(dir, { recursive: true });
  return Array.from({ length: count }, (_, i) => {
    const file = path.join(dir, `${prefix}-${i}.pdf`);
    const chunk = Buffer.alloc(Math.min(bytes, MB), i + 1);
    const handle = fs.openSync(file, "w");
    for (let written = 0; written < bytes; written += chunk.length) {
      fs.writeSync(handle, chunk, 0, Math.min(chunk.length, bytes - written));
    }
    fs.closeSync(handle);
    return file;
  });
}

function formatMb(bytes) {
  return `${(bytes / MB).toFixed(1)} MB`;
}

module.exports = { benchUpload };
