"use strict";
/**
 * Benchmark 5, one tool in its own process: uploads the signing flow's
 * request with three files from disk and reports the wall time and the peak
 * growth of this process's RSS over its settled baseline, raw and with a GC
 * before each sample (what is really held). A small warm-up upload first, so
 * code loading and the connection are not counted as growth.
 * Usage: node --expose-gc bench/upload-client.js '<json settings>'
 */
const fs = require("node:fs");
const undici = require("undici");
const { loadFlowsmith, USER_AGENT } = require("./flowsmith-side.js");
const { fetchToken } = require("./undici-baseline.js");
const { nowMs } = require("./stats.js");

main(JSON.parse(process.argv[2])).catch((error) => {
  process.stderr.write(`upload-client: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});

async function main(settings) {
  const upload = await prepareUpload(settings);
  await upload(settings.warmupFiles);
  const timed = await measureUpload(upload, settings.files, { collectGarbage: false });
  const live = await measureUpload(upload, settings.files, { collectGarbage: true });
  const report = { tool: settings.tool, ms: timed.ms, rssGrowth: timed.growth, liveGrowth: live.growth };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

/**
 * Peak RSS over the settled baseline during one upload. Without collection
 * this shows garbage V8 has not collected yet as well (it lets external
 * buffers pile up to tens of MB before a GC); with `collectGarbage` every
 * sample follows a full GC, so the peak is what the upload really holds.
 * That run is slower, so the time comes from the first one.
 */
async function measureUpload(upload, files, { collectGarbage }) {
  global.gc();
  const baseline = process.memoryUsage.rss();
  const maxRssBefore = process.resourceUsage().maxRSS * 1024;
  let sampledPeak = baseline;
  const sampler = setInterval(
    () => {
      if (collectGarbage) global.gc();
      sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
    },
    collectGarbage ? 10 : 2,
  );
  const start = nowMs();
  try {
    await upload(files);
  } finally {
    // Also on failure, or the interval keeps the process alive.
    clearInterval(sampler);
  }
  const ms = nowMs() - start;
  if (collectGarbage) return { ms, growth: sampledPeak - baseline };
  const maxRssAfter = process.resourceUsage().maxRSS * 1024;
  // The kernel's max RSS covers the whole process life; it speaks for the upload only if it rose during it.
  const peak = Math.max(sampledPeak, process.memoryUsage.rss(), maxRssAfter > maxRssBefore ? maxRssAfter : 0);
  return { ms, growth: peak - baseline };
}

/** Returns a function that sends one request with the given files and throws unless it got a 201. */
async function prepareUpload(settings) {
  switch (settings.tool) {
    case "flowsmith":
      return flowsmithUpload(settings);
    case "undici FormData":
      return formDataUpload(settings, await fetchToken(settings.authUrl), viaUndici);
    case "fetch FormData":
      return formDataUpload(settings, await fetchToken(settings.authUrl), viaFetch);
    default:
      throw new Error(`unknown tool ${settings.tool}`);
  }
}

function flowsmithUpload(settings) {
  const flowsmith = loadFlowsmith(settings.modulePath);
  const client = flowsmith.createClient(settings, settings.environment);
  return async (files) => {
    const documents = await Promise.all(
      files.map(async (file, i) => ({ templateId: `template-${i}`, source: await flowsmith.fileFromPath(file) })),
    );
    const request = {
      input: { basicIdentity: { givenName: "Ada", familyName: "Lovelace" }, documentsToSign: { documents } },
      metadata: { subjectId: "bench-subject" },
    };
    await flowsmith.createSession(client, request);
  };
  // The process exits after its report; the client's sockets go with it.
}

/** The same parts, in the same order, as flowsmith sends for the signing flow. */
function formDataUpload(settings, token, send) {
  const url = `${settings.baseUrl}${settings.sessionsPath}`;
  const headers = { authorization: `Bearer ${token}`, "user-agent": USER_AGENT };
  return async (files) => {
    const form = send === viaUndici ? new undici.FormData() : new FormData();
    form.append("input[basicIdentity][givenName]", "Ada");
    form.append("input[basicIdentity][familyName]", "Lovelace");
    for (const [i, file] of files.entries()) {
      form.append("input[documentsToSign][documents][][templateId]", `template-${i}`);
      form.append("input[documentsToSign][documents][][source]", await fs.openAsBlob(file), `document-${i}.pdf`);
    }
    form.append("metadata[subjectId]", "bench-subject");
    await send(url, headers, form);
  };
}

async function viaUndici(url, headers, form) {
  const response = await undici.request(url, { method: "POST", headers, body: form });
  await response.body.dump();
  if (response.statusCode !== 201) throw new Error(`undici: status ${response.statusCode}`);
}

async function viaFetch(url, headers, form) {
  const response = await fetch(url, { method: "POST", headers, body: form });
  await response.arrayBuffer();
  if (response.status !== 201) throw new Error(`fetch: status ${response.status}`);
}
