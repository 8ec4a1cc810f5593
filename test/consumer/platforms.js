"use strict";
/**
 * The platform consumer (platform-sources.js) on every platform, in the ES module project of
 * the consumer test, against `npx flowsmith emulator` on loopback, from the packed tarballs:
 * - workerd through Miniflare, running the bundle `wrangler deploy --dry-run --outdir` makes
 *   of src/platform/worker.ts, once with `compatibility_flags = ["nodejs_compat"]`, once without;
 * - Vercel's Edge Runtime, running src/platform/edge.ts bundled by esbuild as Vercel and Next
 *   bundle edge code (edge-tools.js, EDGE_LIGHT_BUILD);
 * - this Node, and Bun and Deno when on-runtimes.js installed them, running src/platform/server.ts.
 * On each: POST /run (a token, a JSON and a multipart session, the OTP step to its end, the
 * session read back: ACCEPTED), the emulator's signed delivery of that session answered 204
 * and its onSessionEnded printed, an unsigned one answered 401, and what the platform says to
 * a proxy and to a file path (a ConfigurationError where it has neither). Every platform is
 * tried; the error lists each that failed and why.
 */
const { execFile } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const { newWebhookSecret } = require("./webhook-secret.js");
const { freePort } = require("../support/free-port.js");
const { EDGE_LIGHT_BUILD } = require("./edge-tools.js");
const { startGroup, withEmulator } = require("./process-group.js");

// Workers' compatibility date: the newest behaviour the workerd of edge-tools.js supports.
const COMPATIBILITY_DATE = "2025-09-01";
const WEBHOOK_WAIT_MS = 30_000;

/** Where the platform runs can only refuse a proxy and a file path, and must say so with a ConfigurationError. */
const WITHOUT_NODE = { proxy: "ConfigurationError", filePath: "ConfigurationError" };

/**
 * The platforms, each `{ name, build?(), host(env, port) => [command, args, env], refusals }`:
 * the host's command, arguments and environment (besides this process's).
 * `refusals`: per probe, the error name wanted; "accepted" when it must work; undefined when
 * either is right (Bun and Deno may route a proxy themselves, or refuse it).
 */
function platformsFor(dir, { tools, runtimes }) {
  const platforms = [];
  const server = path.join(dir, "out", "platform", "server.js");
  // On Node a file path is read (this one does not exist, FILE_NOT_READABLE), and a proxy is used.
  platforms.push({
    name: "node",
    host: (env, port) => [
      process.execPath,
      [path.join(__dirname, "hosts", "fetch-host.mjs")],
      { ...env, FLOWSMITH_HOST_OPTIONS: JSON.stringify({ module: server, port }) },
    ],
    refusals: { proxy: "accepted", filePath: "FlowsmithError" },
  });
  for (const [name, command] of Object.entries(runtimes)) {
    // Both serve the module's default export themselves: `bun server.js`, `deno serve`.
    const args =
      name === "deno"
        ? (port) => ["serve", "--allow-all", "--host", "127.0.0.1", "--port", String(port), server]
        : () => [server];
    platforms.push({
      name,
      host: (env, port) => [command, args(port), env],
      refusals: { proxy: undefined, filePath: "FlowsmithError" },
    });
  }
  if (!tools) return platforms;
  for (const flags of [["nodejs_compat"], []]) {
    const name = flags.length > 0 ? "workerd (nodejs_compat)" : "workerd (no nodejs_compat)";
    const outdir = path.join(dir, "platform-builds", flags.length > 0 ? "worker-nodejs-compat" : "worker");
    platforms.push({
      name,
      build: () => buildWorker(dir, tools, { entry: "src/platform/worker.ts", outdir, flags }),
      host: (env, port) => workerdHost(tools, { outdir, flags, bindings: env, port }),
      refusals: WITHOUT_NODE,
    });
  }
  const bundle = path.join(dir, "platform-builds", "edge", "edge.js");
  platforms.push({
    name: "edge-light (Vercel Edge Runtime)",
    build: () => buildEdge(tools, { entry: path.join(dir, "src", "platform", "edge.ts"), bundle }),
    host: (env, port) => edgeHost(tools, { bundle, env, port }),
    refusals: WITHOUT_NODE,
  });
  return platforms;
}

/** Runs the platform consumer on every platform; throws one error naming each that failed. */
function tryPlatforms(dir, options, log) {
  return tryEach(platformsFor(dir, options), (platform) => tryPlatform(dir, platform), "the platform consumer", log);
}

/**
 * `attempt` on each of `items` (each with a `name` and maybe a `build()`, run first), all of
 * them whatever fails; then throws one error naming each that failed and why.
 */
async function tryEach(items, attempt, what, log) {
  const failures = [];
  for (const item of items) {
    log(`${what} on ${item.name}`);
    const started = Date.now();
    const took = () => `${Math.round((Date.now() - started) / 1000)} s`;
    try {
      if (item.build) await item.build();
      await attempt(item);
      log(`${what} on ${item.name}: passed (${took()})`);
    } catch (error) {
      log(`${what} on ${item.name}: FAILED (${took()})`);
      failures.push(`${item.name}: ${error.message}`);
    }
  }
  if (failures.length > 0)
    throw new Error(`${what} failed on ${failures.length} platform(s):\n\n${failures.join("\n\n")}`);
}

async function tryPlatform(dir, platform) {
  await withPlatformHost(dir, platform, async ({ origin, emulator, host }) => {
    const ran = await fetch(`${origin}/run`, { method: "POST" });
    const report = await ran.json().catch(() => undefined);
    if (ran.status !== 200 || !report)
      throw new Error(`POST /run answered ${ran.status}: ${JSON.stringify(report, null, 2)}\n${host.output()}`);
    if (report.decision !== "ACCEPTED" || report.steps.at(-1) !== "END" || report.steps.length < 2) {
      throw new Error(
        `POST /run: expected the OTP step then END and the decision ACCEPTED, got ${JSON.stringify(report)}`,
      );
    }
    if (!report.playerUrl.startsWith(`${emulator.baseUrl}/player/`))
      throw new Error(`POST /run: playerUrl ${report.playerUrl} is not the emulator's`);
    await expectDelivery(
      emulator,
      host,
      report.sessionId,
      new RegExp(`^session-ended ${report.sessionId} (\\S+)$`, "m"),
    );
    await expectUnsignedRefused(`${origin}/webhooks`);
    await checkRefusals(origin, platform.refusals);
  });
}

/**
 * Starts the emulator, its webhooks sent to the platform's port (at `platform.webhookPath`,
 * `/webhooks` unless given), then the platform's host with the emulator's addresses and
 * staging client as FLOWSMITH_* settings, and runs `body({ origin, emulator, host })`.
 */
async function withPlatformHost(dir, platform, body) {
  const port = await freePort();
  const webhook = { port, path: platform.webhookPath, secret: newWebhookSecret() };
  await withEmulator(dir, webhook, async (emulator) => {
    const settings = {
      FLOWSMITH_BASE_URL: emulator.baseUrl,
      FLOWSMITH_AUTH_URL: emulator.authUrl,
      FLOWSMITH_CLIENT_ID: emulator.clients.staging.clientId,
      FLOWSMITH_CLIENT_SECRET: emulator.clients.staging.clientSecret,
      FLOWSMITH_WEBHOOK_SECRET: webhook.secret,
    };
    const [command, args, hostEnv] = platform.host({ ...settings, PLATFORM_PORT: String(port) }, port);
    const host = await startGroup(command, args, {
      cwd: dir,
      env: { ...process.env, ...hostEnv },
      name: platform.name,
      // Bun and Deno say nothing of their own when they serve: the port answering is the sign.
      readyOf: () => true,
    });
    try {
      const origin = `http://127.0.0.1:${port}`;
      await untilAnswering(origin, host);
      await body({ origin, emulator, host });
    } finally {
      await host.stop();
    }
  });
}

/** Resolves once the host answers anything on its port (bounded: 60 s, or the host's exit). */
async function untilAnswering(origin, host) {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (host.exited()) throw new Error(`it exited before it answered; its output:\n${host.output()}`);
    const answered = await fetch(`${origin}/`).then(
      (response) => response.body?.cancel().then(() => true),
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`it did not answer on ${origin} within 60 s; its output:\n${host.output()}`);
}

/**
 * The emulator's signed delivery of the session: onSessionEnded printed a line `printed`
 * matches, its group the decision, ACCEPTED; and the emulator's log shows the delivery's 204.
 */
async function expectDelivery(emulator, host, sessionId, printed) {
  const ended = await host.waitForOutput(printed, WEBHOOK_WAIT_MS);
  if (ended[1] !== "ACCEPTED") throw new Error(`onSessionEnded reported ${ended[1]}, not ACCEPTED`);
  // A receiver that finishes its work before answering (docs/vercel.md, docs/lambda.md) answers after it printed.
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const deliveries = (await (await fetch(`${emulator.baseUrl}/__emulator/webhooks`)).json()).webhooks.filter(
      (entry) => entry.sessionId === sessionId,
    );
    const statuses = deliveries.flatMap((entry) => entry.attempts.map((answer) => answer.status ?? answer.error));
    if (statuses.length > 0) {
      if (statuses[0] !== 204)
        throw new Error(
          `the emulator's delivery of ${sessionId} was answered ${JSON.stringify(statuses)}, not 204 first`,
        );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the emulator's log shows no answer to its delivery of ${sessionId} within 10 s`);
}

async function expectUnsignedRefused(url) {
  const unsigned = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  if (unsigned.status !== 401)
    throw new Error(`an unsigned delivery to ${new URL(url).pathname} was answered ${unsigned.status}, not 401`);
}

async function checkRefusals(origin, wanted) {
  const answer = await fetch(`${origin}/refusals`);
  const refusals = await answer.json();
  if (answer.status !== 200) throw new Error(`GET /refusals answered ${answer.status}: ${JSON.stringify(refusals)}`);
  for (const [probe, want] of Object.entries(wanted)) {
    const got = refusals[probe];
    const name = got.refused ? got.name : "accepted";
    if (want === undefined ? !["accepted", "ConfigurationError"].includes(name) : name !== want) {
      throw new Error(
        `${probe === "proxy" ? "a proxy" : "a file path as upload source"}: expected ${want ?? "accepted or a ConfigurationError"}, got ${JSON.stringify(got)}`,
      );
    }
  }
}

/**
 * `wrangler deploy --dry-run --outdir` with a wrangler.toml of its own; resolves with wrangler's output.
 * `tsconfig`: the one wrangler's esbuild reads for every file, instead of the nearest to each.
 */
async function buildWorker(dir, tools, { entry, outdir, flags, minify = false, tsconfig }) {
  fs.rmSync(outdir, { recursive: true, force: true });
  fs.mkdirSync(outdir, { recursive: true });
  const config = path.join(outdir, "..", `${path.basename(outdir)}.wrangler.toml`);
  const relative = (file) => path.relative(path.dirname(config), file).split(path.sep).join("/");
  fs.writeFileSync(config, wranglerToml(relative(path.join(dir, entry)), flags, tsconfig && relative(tsconfig)));
  return runWrangler(
    tools,
    ["deploy", "--dry-run", "--outdir", outdir, "--config", config, ...(minify ? ["--minify"] : [])],
    dir,
  );
}

function wranglerToml(main, flags, tsconfig) {
  return [
    `name = "flowsmith-consumer"`,
    `main = ${JSON.stringify(main)}`,
    ...(tsconfig ? [`tsconfig = ${JSON.stringify(tsconfig)}`] : []),
    `compatibility_date = "${COMPATIBILITY_DATE}"`,
    ...(flags.length > 0 ? [`compatibility_flags = ${JSON.stringify(flags)}`] : []),
    "",
  ].join("\n");
}

/** wrangler on edge-tools.js's Node, told it runs in CI (no prompts, no metrics); resolves with its output. */
function runWrangler(tools, args, cwd) {
  const env = {
    ...process.env,
    CI: "true",
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_LOG_PATH: path.join(tools.folder, "wrangler-logs"),
  };
  return new Promise((resolve, reject) => {
    execFile(
      tools.node,
      [tools.wrangler, ...args],
      { cwd, env, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(
              `wrangler ${args.join(" ")} failed (${error.signal ?? `exit code ${error.code}`}):\n${stdout}${stderr}`,
            ),
          );
        else resolve(`${stdout}${stderr}`);
      },
    );
  });
}

function workerdHost(tools, { outdir, flags, bindings, port }) {
  const options = {
    miniflare: tools.miniflare,
    modulesRoot: outdir,
    scriptPath: path.join(outdir, "worker.js"),
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: flags,
    bindings,
    port,
  };
  return [
    tools.node,
    [path.join(__dirname, "hosts", "workerd-host.mjs")],
    { FLOWSMITH_HOST_OPTIONS: JSON.stringify(options) },
  ];
}

/** esbuild as Vercel and Next bundle edge code; a module that imports what the platform lacks fails here. */
async function buildEdge(tools, { entry, bundle }) {
  const esbuild = require(tools.esbuild);
  fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
  const result = await esbuild
    .build({ ...EDGE_LIGHT_BUILD, entryPoints: [entry], outfile: bundle, format: "iife", globalName: "edgeModule" })
    .catch((error) => error);
  if (result instanceof Error) {
    const errors = (result.errors ?? []).map(
      (message) => `${message.location?.file ?? ""}:${message.location?.line ?? ""}: ${message.text}`,
    );
    throw new Error(
      `the edge-light bundle does not build (${errors.length} errors):\n${errors.slice(0, 20).join("\n")}${errors.length > 20 ? "\n..." : ""}`,
    );
  }
}

function edgeHost(tools, { bundle, env, port }) {
  const options = { edgeRuntime: tools.edgeRuntime, bundle, env, port };
  return [
    process.execPath,
    [path.join(__dirname, "hosts", "edge-host.js")],
    { FLOWSMITH_HOST_OPTIONS: JSON.stringify(options) },
  ];
}

module.exports = {
  tryPlatforms,
  tryEach,
  withPlatformHost,
  expectDelivery,
  expectUnsignedRefused,
  buildWorker,
  runWrangler,
  buildEdge,
  workerdHost,
  edgeHost,
};
