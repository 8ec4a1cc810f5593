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
  const results = Object.fromEntries(TOOLS.map((tool) => [tool, { ms: [], rssGrowth: [], liveGrowth: [] }]));
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
        for (const key of Object.keys(results[tool])) results[tool][key].push(report[key]);
      }
    }
  } finally {
    await server.close();
  }
  return toRows(results, fileBytes);
}

/**
 * The memory goal is judged on live growth (GC before each sample): raw RSS
 * growth mostly shows how long V8 lets garbage buffers pile up, the same for
 * every tool, and is listed for reference.
 */
function toRows(results, fileBytes) {
  const at = (tool, key) => median(results[tool][key]);
  const size = fileBytes >= MB ? `${fileBytes / MB} MB` : `${fileBytes / 1024} KB`;
  const others = ["undici FormData", "fetch FormData"];
  const memoryRow = (tool, key, label, judged) => ({
    benchmark: `5. Upload 3 x ${size}: ${label} vs ${tool}`,
    flowsmith: formatMb(at("flowsmith", key)),
    baseline: `${tool} ${formatMb(at(tool, key))}`,
    ratio: Number.NaN,
    compared: false,
    goal: judged ? "flowsmith <= 16 MB" : "(for reference)",
    met: judged ? at("flowsmith", key) <= 16 * MB : null,
  });
  const timeRow = (tool, judged) => ({
    benchmark: `5. Upload 3 x ${size}: wall time vs ${tool}`,
    flowsmith: formatMs(at("flowsmith", "ms")),
    baseline: `${tool} ${formatMs(at(tool, "ms"))}`,
    ratio: ratio(at("flowsmith", "ms"), at(tool, "ms")),
    compared: true,
    goal: judged ? "<= 1" : "(for reference)",
    met: judged ? at("flowsmith", "ms") <= at(tool, "ms") : null,
  });
  return [
    ...others.map((tool) => memoryRow(tool, "liveGrowth", "peak live memory growth", true)),
    ...others.map((tool) => memoryRow(tool, "rssGrowth", "peak raw RSS growth", false)),
    timeRow("undici FormData", true),
    timeRow("fetch FormData", false),
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
