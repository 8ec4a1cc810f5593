#!/usr/bin/env node
"use strict";
/**
 * `npm run test:consumer`: flowsmith tried as a new user would, outside this
 * repository. Packs the three packages, installs the tarballs into throwaway
 * projects in the system's temp folder (an ES module project with
 * `nodenext`, a CommonJS one with `"module": "commonjs"`), runs
 * `npx flowsmith codegen` on a config without `runtimeImport` (twice: the second, into a
 * fresh outputDir, gives the same bytes), type-checks
 * the generated code and a consumer under strict tsc (also under `bundler`
 * and `node16` resolution), starts `npx flowsmith emulator`, and runs the
 * consumer: it creates sessions of a multipart and a JSON flow and follows one
 * through the OTP step to ACCEPTED, its token kept in a real Redis
 * (@flowsmith/redis, test/support/redis-server.js), and receives that
 * session's webhook through the Redis queue; lets a `test_rejected…` subject
 * end on its own, and meets a fault set over the control API (a session
 * created, its answer dropped: a NetworkError, and a 201 in the journal).
 * Then README's quick start step by step in an empty folder: `npm init -y`,
 * the tarballs, `npx flowsmith init --yes` (its printed first call saved as
 * first-call.mts and run with tsx against `npx flowsmith emulator`), and the
 * README's backend.mts as written there, run against the emulator started as
 * the README says (free ports in place of its fixed ones) until its webhook
 * reports the outcome, type-checked by the newest TypeScript and by 5.4 under the README's tsconfig.json; then the
 * README's flow change, whose change report and compile error at the call must be those the README shows. With FLOWSMITH_CONSUMER_RUNTIMES (on-runtimes.js), the same
 * consumer on Bun and Deno too, and in the ES module project a webhook
 * receiver on Bun.serve / Deno.serve (handler.fetch). In the ES module project, the
 * platform consumer (platforms.js) on this Node, Bun and Deno, and with
 * FLOWSMITH_CONSUMER_EDGE_TOOLS (on-runtimes.js, edge-tools.js) on workerd (with and
 * without nodejs_compat) and Vercel's Edge Runtime, and the docs' platform examples
 * (platform-docs.js). Exits 1 on the first failure, or at the end when only platforms
 * failed (each is tried, and everything else too); `--platforms` tries the ES module
 * project's platform consumer and the examples alone.
 *
 * Installs use npm's cache first (`--prefer-offline`): after `npm ci` in the
 * repository, every dependency is already there.
 */
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { consumerSource, PROJECTS, webhookCheckSource } = require("./projects.js");
const { newWebhookSecret } = require("./webhook-secret.js");
const { freePort } = require("../support/free-port.js");
const { startRedis } = require("../support/redis-server.js");
const { withEmulator } = require("./process-group.js");
const { edgeToolsIn } = require("./edge-tools.js");
const { PLATFORM_SOURCES } = require("./platform-sources.js");
const { tryPlatforms } = require("./platforms.js");
const { tryDocExamples, writeDocExamples } = require("./platform-docs.js");

const REPO = path.resolve(__dirname, "..", "..");
const STEP_TIMEOUT_MS = 180_000;
/** The TypeScript README's Requirements name; the quick start must type-check with it. */
const MINIMUM_TYPESCRIPT = "5.4";
/** The quick start's runs on chosen ports: a port taken in between is tried again, this many times in all. */
const PORT_ATTEMPTS = 3;
// `--platforms`: the ES module project and the platform consumer alone (platforms.js), for work on the runtime's platforms.
const PLATFORMS_ONLY = process.argv.includes("--platforms");
/** What the platform consumer and the platform pages' examples failed on (platforms.js, platform-docs.js). */
const platformFailures = [];

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "flowsmith-consumer-"));
  const keep = process.argv.includes("--keep");
  const redis = await startRedis();
  try {
    const tarballs = await packAll(path.join(work, "packs"));
    for (const project of PROJECTS.filter((candidate) => !PLATFORMS_ONLY || candidate.packageJson.type === "module")) {
      await tryProject(project, path.join(work, project.name), tarballs, redis);
    }
    if (!PLATFORMS_ONLY) {
      await tryFirstCall(path.join(work, "first-call"), tarballs);
      await tryQuickStart(path.join(work, "first-call"));
    }
    if (platformFailures.length > 0) throw new Error(platformFailures.join("\n\n"));
    log(
      PLATFORMS_ONLY
        ? "the platform consumer passed (--platforms: nothing else was tried)"
        : "all consumer projects passed",
    );
  } finally {
    await redis.close();
    if (keep) log(`kept ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
  }
}

async function packAll(dir) {
  fs.mkdirSync(dir, { recursive: true });
  log("packing flowsmith, @flowsmith/runtime and @flowsmith/redis");
  await run("npm", ["pack", "--silent", "--pack-destination", dir], { cwd: REPO });
  await run("npm", ["pack", "--silent", "-w", "@flowsmith/runtime", "--pack-destination", dir], { cwd: REPO });
  await run("npm", ["pack", "--silent", "-w", "@flowsmith/redis", "--pack-destination", dir], { cwd: REPO });
  const files = fs.readdirSync(dir);
  const find = (prefix) => {
    const file = files.find((name) => name.startsWith(prefix) && name.endsWith(".tgz"));
    if (!file) throw new Error(`npm pack wrote no ${prefix}*.tgz into ${dir} (found: ${files.join(", ")})`);
    return path.join(dir, file);
  };
  return { cli: find("flowsmith-0"), runtime: find("flowsmith-runtime-"), redis: find("flowsmith-redis-") };
}

async function tryProject(project, dir, tarballs, redis) {
  log(`${project.name}: creating ${dir}`);
  fs.mkdirSync(path.join(dir, "flows"), { recursive: true });
  for (const file of ["signing.yaml", "aml-screening.yaml"]) {
    fs.copyFileSync(path.join(REPO, "flows", file), path.join(dir, "flows", file));
  }
  writeJson(path.join(dir, "package.json"), {
    name: `consumer-${project.name}`,
    private: true,
    version: "1.0.0",
    ...project.packageJson,
  });
  writeJson(path.join(dir, "codegen.config.json"), {
    $schema: "./node_modules/flowsmith/codegen.config.schema.json",
    outputDir: "src/generated",
    flows: [
      { name: "signing", source: { file: "flows/signing.yaml" } },
      { name: "aml-screening", source: { file: "flows/aml-screening.yaml" } },
    ],
  });
  for (const [name, compilerOptions] of Object.entries(project.tsconfigs)) {
    writeJson(path.join(dir, name), {
      compilerOptions: {
        strict: true,
        target: "ES2022",
        lib: ["ES2023"],
        types: ["node"],
        skipLibCheck: false,
        outDir: "out",
        ...compilerOptions,
      },
      include: ["src"],
    });
  }
  fs.mkdirSync(path.join(dir, "src"), { recursive: true });
  fs.writeFileSync(path.join(dir, "src", "main.ts"), consumerSource());
  if (project.packageJson.type === "module") {
    fs.writeFileSync(path.join(dir, "webhook-check.mjs"), webhookCheckSource());
    writePlatformSources(dir);
    writeDocExamples(dir);
  }

  log(`${project.name}: npm install (the three tarballs, typescript, @types/node)`);
  const install = ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];
  await run("npm", [...install, tarballs.runtime, tarballs.redis], { cwd: dir });
  await run(
    "npm",
    [
      ...install,
      "--save-dev",
      tarballs.cli,
      `typescript@${devVersion("typescript")}`,
      `@types/node@${devVersion("@types/node")}`,
    ],
    { cwd: dir },
  );
  assertNoRepoPaths(dir);
  // An optional peer: npm must not install it, and everything below runs without it.
  if (fs.existsSync(path.join(dir, "node_modules", "@opentelemetry", "api")))
    throw new Error(`${project.name}: npm installed the optional peer @opentelemetry/api`);

  log(`${project.name}: npx flowsmith codegen`);
  await run("npx", ["--no-install", "flowsmith", "codegen"], { cwd: dir });
  await run("npx", ["--no-install", "flowsmith", "codegen", "--check"], { cwd: dir });
  // A fresh outputDir, as in a new checkout: the same bytes again (nothing is kept between runs but the output).
  const generated = path.join(dir, "src", "generated");
  const firstRun = fs.readFileSync(path.join(generated, "signing", "index.ts"), "utf8");
  fs.rmSync(generated, { recursive: true });
  await run("npx", ["--no-install", "flowsmith", "codegen"], { cwd: dir });
  if (fs.readFileSync(path.join(generated, "signing", "index.ts"), "utf8") !== firstRun)
    throw new Error(`${project.name}: a second codegen wrote other bytes`);
  await run("npx", ["--no-install", "flowsmith", "codegen", "--check"], { cwd: dir });
  if (!firstRun.includes('from "@flowsmith/runtime/flow-module"'))
    throw new Error(`${project.name}: generated code does not import @flowsmith/runtime/flow-module`);
  await assertLibFilesLeftOut(project, dir);

  for (const name of Object.keys(project.tsconfigs)) {
    log(`${project.name}: tsc -p ${name}`);
    await run("npx", ["--no-install", "tsc", "-p", name, ...(name === project.emitWith ? [] : ["--noEmit"])], {
      cwd: dir,
    });
  }

  if (!PLATFORMS_ONLY) {
    await runConsumer(project, dir, redis, "node", "node");
    for (const [name, command] of Object.entries(otherRuntimes())) await tryRuntime(project, dir, redis, name, command);
  }
  if (project.packageJson.type === "module") {
    // Every platform and every page's example is tried; the error names each that failed.
    const options = { tools: edgeTools(), runtimes: otherRuntimes() };
    const failed = [];
    for (const attempt of [tryPlatforms, tryDocExamples]) {
      await attempt(dir, options, (message) => log(`${project.name}: ${message}`)).catch((error) =>
        failed.push(error.message),
      );
    }
    // Said at the end: the other projects and the quick start are still tried.
    platformFailures.push(...failed);
  }
  log(`${project.name}: ${platformFailures.length > 0 ? "passed, but for the platforms that failed above" : "passed"}`);
}

/** The compiled consumer on one runtime, against `npx flowsmith emulator` and Redis. */
async function runConsumer(project, dir, redis, name, command) {
  log(
    `${project.name}: npx flowsmith emulator, then the consumer on ${name} against it and Redis (a scenario and a fault too)`,
  );
  const webhook = { port: await freePort(), secret: newWebhookSecret() };
  await withEmulator(dir, webhook, async (emulator) => {
    const env = {
      ...process.env,
      EMULATOR: JSON.stringify(emulator),
      REDIS_URL: redis.url,
      WEBHOOK_PORT: String(webhook.port),
      WEBHOOK_SECRET: webhook.secret,
    };
    const output = await run(command, runArgs(name, path.join("out", "main.js")), { cwd: dir, env });
    const on = name === "node" ? "" : ` on ${name}`;
    if (!/^decision ACCEPTED$/m.test(output))
      throw new Error(`${project.name}: the consumer${on} did not report ACCEPTED:\n${output}`);
    if (!/^webhook through the Redis queue for this session decision ACCEPTED$/m.test(output)) {
      throw new Error(
        `${project.name}: the consumer${on} did not receive its webhook through the Redis queue:\n${output}`,
      );
    }
    if (!/scenario REJECTED/.test(output))
      throw new Error(`${project.name}: the test_rejected scenario did not end REJECTED${on}:\n${output}`);
    if (!/fault NetworkError 201/.test(output))
      throw new Error(
        `${project.name}: the reset-after fault was not a NetworkError with a 201 in the journal${on}:\n${output}`,
      );
  });
}

/**
 * Runtimes besides Node to run the consumer on, from FLOWSMITH_CONSUMER_RUNTIMES
 * (`{"bun": "/path/to/bun", "deno": "/path/to/deno"}`, set by on-runtimes.js).
 */
function otherRuntimes() {
  const given = process.env.FLOWSMITH_CONSUMER_RUNTIMES;
  return given ? JSON.parse(given) : {};
}

/** The tools of Workers and Vercel Edge (edge-tools.js), from FLOWSMITH_CONSUMER_EDGE_TOOLS (set by on-runtimes.js). */
function edgeTools() {
  const folder = process.env.FLOWSMITH_CONSUMER_EDGE_TOOLS;
  return folder ? edgeToolsIn(folder) : undefined;
}

/** src/platform/: the platform consumer and its entries, compiled with the rest of the project. */
function writePlatformSources(dir) {
  fs.mkdirSync(path.join(dir, "src", "platform"), { recursive: true });
  for (const [name, source] of Object.entries(PLATFORM_SOURCES))
    fs.writeFileSync(path.join(dir, "src", "platform", name), source);
}

function runArgs(name, file) {
  return name === "deno" ? ["run", "--allow-all", file] : [file];
}

/** The consumer on Bun or Deno; in the ES module project also the webhook receiver on the runtime's own server. */
async function tryRuntime(project, dir, redis, name, command) {
  await runConsumer(project, dir, redis, name, command);
  if (project.packageJson.type !== "module") return;
  log(
    `${project.name}: a webhook receiver on ${name === "bun" ? "Bun.serve" : "Deno.serve"} (handler.fetch), fed by the emulator`,
  );
  const webhook = { port: await freePort(), secret: newWebhookSecret() };
  await withEmulator(dir, webhook, async (emulator) => {
    const env = {
      ...process.env,
      EMULATOR: JSON.stringify(emulator),
      WEBHOOK_PORT: String(webhook.port),
      WEBHOOK_SECRET: webhook.secret,
    };
    const output = await run(command, runArgs(name, "webhook-check.mjs"), { cwd: dir, env });
    if (!output.includes(`webhook ACCEPTED on ${name}`))
      throw new Error(`${project.name}: the webhook receiver on ${name} did not report ACCEPTED:\n${output}`);
  });
}

/** README's quick start up to `init --yes`, as written there (tsx from the registry, as a newcomer installs it), and init's printed first call. */
async function tryFirstCall(dir, tarballs) {
  log(`first call: ${dir}, as README's quick start says`);
  fs.mkdirSync(path.join(dir, "flows"), { recursive: true });
  await run("npm", ["init", "-y"], { cwd: dir });
  await run("npm", ["pkg", "set", "type=module"], { cwd: dir });
  const install = ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];
  await run("npm", [...install, tarballs.runtime], { cwd: dir });
  // As the README installs them: the registry's newest TypeScript, tsx and @types/node (tryQuickStart adds TypeScript 5.4).
  await run("npm", [...install, "--save-dev", tarballs.cli, "typescript", "tsx", "@types/node"], { cwd: dir });
  fs.copyFileSync(path.join(REPO, "flows", "aml-screening.yaml"), path.join(dir, "flows", "aml-screening.yaml"));
  const init = await run("npx", ["--no-install", "flowsmith", "init", "--yes"], { cwd: dir });
  const snippet = /\n\n(import \{ createClient[\s\S]*?await client\.close\(\);)\n/.exec(init);
  if (!snippet) throw new Error(`first call: init printed no first call:\n${init}`);
  fs.writeFileSync(path.join(dir, "first-call.mts"), snippet[1]);
  await withEmulator(dir, undefined, async (emulator) => {
    const env = {
      ...process.env,
      FLOWSMITH_BASE_URL: emulator.baseUrl,
      FLOWSMITH_AUTH_URL: emulator.authUrl,
      FLOWSMITH_STAGING_CLIENT_ID: emulator.clients.staging.clientId,
      FLOWSMITH_STAGING_CLIENT_SECRET: emulator.clients.staging.clientSecret,
    };
    const output = await run("npx", ["--no-install", "tsx", "first-call.mts"], { cwd: dir, env });
    if (!/\S+ http:\/\/127\.0\.0\.1:\d+\/player\//.test(output))
      throw new Error(`first call: no session id and playerUrl printed:\n${output}`);
  });
  log("first call: passed");
}

/**
 * README's tsconfig.json, backend.mts and emulator command, verbatim but for the ports: the backend type-checks (with the
 * newest TypeScript, as the README installs it, and with 5.4, the documented minimum), the session it creates ends and
 * its webhook says so; then README's flow change: codegen prints the change report the README shows, and tsc (5.4) fails
 * with the error the README shows, at the call in backend.mts.
 */
async function tryQuickStart(dir) {
  log(`quick start: README's tsconfig.json and backend.mts in ${dir}`);
  const readme = fs.readFileSync(path.join(REPO, "README.md"), "utf8");
  const tsconfig = /Save this as `tsconfig\.json`[^]*?:\n\n```json\n([\s\S]*?)```/.exec(readme);
  const backend = /Save this as `backend\.mts`:\n\n```ts\n([\s\S]*?)```/.exec(readme);
  const emulatorArgs = /^FLOWSMITH_WEBHOOK_SECRET=\$\(cat \.webhook-secret\) npx flowsmith emulator (.+)$/m.exec(
    readme,
  );
  if (!tsconfig || !backend || !emulatorArgs || !/^npx tsc --noEmit$/m.test(readme)) {
    throw new Error(
      "quick start: README.md has no tsconfig.json or backend.mts block, no `npx tsc --noEmit` or no emulator command in the form this test reads",
    );
  }
  fs.writeFileSync(path.join(dir, "tsconfig.json"), tsconfig[1]);
  // Type-checked as written; its ports are replaced just before it runs (below).
  fs.writeFileSync(path.join(dir, "backend.mts"), backend[1]);
  const tsc = ["--no-install", "tsc", "--noEmit"];
  await run("npx", tsc, { cwd: dir });
  const install = ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];
  await run("npm", [...install, "--save-dev", `typescript@${MINIMUM_TYPESCRIPT}`], { cwd: dir });
  const version = await run("npx", ["--no-install", "tsc", "--version"], { cwd: dir });
  if (!version.includes(`Version ${MINIMUM_TYPESCRIPT}.`))
    throw new Error(`quick start: expected TypeScript ${MINIMUM_TYPESCRIPT}, got ${version}`);
  await run("npx", tsc, { cwd: dir });
  const secret = newWebhookSecret();
  // Free ports are chosen right before the emulator and the backend listen on them. A port is free only when it is
  // chosen, and another process can take it before them: then the run is tried again on other ports.
  for (let attempt = 1; ; attempt += 1) {
    const ports = new Map([
      ["4010", await freePort()],
      ["4011", await freePort()],
      ["3000", await freePort()],
    ]);
    const withPorts = (text) => text.replace(/\b(4010|4011|3000)\b/g, (port) => String(ports.get(port)));
    fs.writeFileSync(path.join(dir, "backend.mts"), withPorts(backend[1]));
    const emulator = {
      args: withPorts(emulatorArgs[1]).split(" "),
      env: { ...process.env, FLOWSMITH_WEBHOOK_SECRET: secret },
    };
    try {
      await withEmulator(
        dir,
        undefined,
        async () => {
          const output = await run("npx", ["--no-install", "tsx", "backend.mts"], {
            cwd: dir,
            env: { ...process.env, WEBHOOK_SECRET: secret },
          });
          if (!/^created session \S+; the user would open http:\/\/127\.0\.0\.1:\d+\/player\//m.test(output))
            throw new Error(`quick start: no session created:\n${output}`);
          if (!/^webhook: session \S+ ended ACCEPTED$/m.test(output))
            throw new Error(`quick start: no webhook with the outcome:\n${output}`);
        },
        emulator,
      );
      break;
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS || !String(error.message).includes("EADDRINUSE")) throw error;
      log(`quick start: a chosen port was taken before it was listened on (EADDRINUSE); again on other ports`);
    }
  }
  await tryFlowChange(dir, readme);
  log("quick start: passed");
}

/** README's "A flow change is a compile error": its command run as written, then codegen's report and tsc's error as it shows them. */
async function tryFlowChange(dir, readme) {
  log("quick start: README's flow change, codegen's change report, and tsc failing at the call");
  const section = readme.slice(readme.indexOf("### A flow change is a compile error"));
  const edit = /^(perl -pi -e .+ flows\/aml-screening\.yaml)$/m.exec(section);
  const shown = [...section.matchAll(/```text\n([\s\S]*?)```/g)].map((match) => match[1].trimEnd());
  if (!edit || shown.length < 2 || !/^npx flowsmith codegen$/m.test(section)) {
    throw new Error(
      "quick start: README.md's flow change has no perl command, no `npx flowsmith codegen` or not the two outputs this test reads",
    );
  }
  const [report, compileError] = shown;
  await run("bash", ["-c", edit[1]], { cwd: dir });
  const codegen = await run("npx", ["--no-install", "flowsmith", "codegen"], { cwd: dir });
  for (const line of report.split("\n")) {
    if (!codegen.includes(line))
      throw new Error(
        `quick start: codegen did not print README's change report line ${JSON.stringify(line)}:\n${codegen}`,
      );
  }
  const typeCheck = await run("npx", ["--no-install", "tsc", "--noEmit"], { cwd: dir }).then(
    (output) => {
      throw new Error(`quick start: tsc passed after the flow change:\n${output}`);
    },
    (error) => error.message,
  );
  if (!typeCheck.split("\n").includes(compileError))
    throw new Error(`quick start: tsc did not fail with README's error (${compileError}):\n${typeCheck}`);
  // README's error names its line and column; they must be the call's own (the basicIdentity it passes).
  const [, line] = /^backend\.mts\((\d+),\d+\)/.exec(compileError) ?? [];
  const source = fs.readFileSync(path.join(dir, "backend.mts"), "utf8").split("\n");
  if (!line || !/basicIdentity: \{/.test(source[Number(line) - 1] ?? "")) {
    throw new Error(
      `quick start: README's error points at backend.mts line ${line}, which is not the call's basicIdentity: ${source[Number(line) - 1]}`,
    );
  }
}

/** The installed packages must be the tarballs' copies, not links back into this repository. */
function assertNoRepoPaths(dir) {
  for (const name of ["flowsmith", "@flowsmith/runtime", "@flowsmith/redis"]) {
    const real = fs.realpathSync(path.join(dir, "node_modules", name));
    if (real.startsWith(REPO)) throw new Error(`node_modules/${name} resolves into the repository (${real})`);
    if (!fs.existsSync(path.join(real, "dist")))
      throw new Error(`node_modules/${name} has no dist/: the tarball was packed without its build`);
  }
}

/**
 * The CLI loads ts-morph without its lib .d.ts text where Node has synchronous module hooks
 * (cli/ts-morph-lib-files.ts), and as published where it has not: tried on the installed
 * package's layout, with this Node.
 */
async function assertLibFilesLeftOut(project, dir) {
  // The installed bin as `npx flowsmith --version` runs it, then ts-morph's module as that process has it.
  const script = [
    'const path = require("node:path");',
    'const flowsmith = path.join(process.cwd(), "node_modules", "flowsmith");',
    'const bin = path.join(flowsmith, "bin", "flowsmith.js");',
    'process.argv = [process.execPath, bin, "--version"];',
    "require(bin);",
    'const tsMorph = require.resolve("ts-morph", { paths: [flowsmith] });',
    'const common = require(require.resolve("@ts-morph/common", { paths: [path.dirname(tsMorph)] }));',
    'const hooks = typeof require("node:module").registerHooks === "function";',
    "console.log(JSON.stringify({ hooks, libFiles: common.getLibFiles().length }));",
  ].join("\n");
  const output = await run("node", ["-e", script], { cwd: dir });
  const { hooks, libFiles } = JSON.parse(output.trim().split("\n").pop());
  if (hooks ? libFiles !== 0 : libFiles === 0)
    throw new Error(
      `${project.name}: ts-morph's lib files on ${process.version}: synchronous hooks ${hooks}, ${libFiles} lib files loaded`,
    );
  log(
    `${project.name}: ts-morph's lib files ${hooks ? "left out" : "loaded (no synchronous module hooks)"} on ${process.version}`,
  );
}

/** The version this repository tests with, so the consumer type-checks with the same TypeScript. */
function devVersion(name) {
  const installed = JSON.parse(fs.readFileSync(path.join(REPO, "node_modules", name, "package.json"), "utf8"));
  return installed.version;
}

function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), STEP_TIMEOUT_MS);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else
        reject(
          new Error(
            `${command} ${args.join(" ")} (in ${options.cwd}) ${signal ? `was killed (${signal})` : `exited with ${code}`}:\n${output}`,
          ),
        );
    });
  });
}

function writeJson(file, value) {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function log(message) {
  process.stdout.write(`consumer-test: ${message}\n`);
}

main().catch((error) => {
  process.stderr.write(`consumer-test: FAILED: ${error && error.message ? error.message : error}\n`);
  process.exitCode = 1;
});
