#!/usr/bin/env node
"use strict";
/**
 * `npm run test:packages` (part of `npm test`): what `npm pack` gives users.
 * Packs flowsmith, @flowsmith/runtime and @flowsmith/redis once, then checks each tarball:
 * its files (built dist/ with types, README, LICENSE; no sources, tests,
 * benches or fixtures; no install script), @arethetypeswrong/cli (types
 * resolve under node10, node16 CJS and ESM, bundler) and publint, and holds
 * the runtime's production install to its budget (ioredis and BullMQ are
 * @flowsmith/redis's, never the runtime's). Exits 1 listing every problem.
 *
 * It builds the packages first (`npm run build`), then packs what was built
 * with `--ignore-scripts`: each package's prepack would build it again.
 * `--built` (as `npm test` runs it, right after its own build and beside
 * jest, which reads dist/) skips that build: a build there would rewrite
 * files of dist/ while suites read them.
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { formatBytes, measureProductionInstall, RUNTIME_INSTALL_BUDGET } = require("../../bench/install-size.js");

const REPO = path.resolve(__dirname, "..", "..");
const BIN = path.join(REPO, "node_modules", ".bin");

const PACKAGES = [
  {
    name: "flowsmith",
    packArgs: [],
    required: [
      "package.json",
      "README.md",
      "LICENSE",
      "bin/flowsmith.js",
      "dist/cli/main.js",
      "dist/cli/commands/codegen.js",
      "dist/emulator/index.js",
      "dist/emulator/index.d.ts",
      "codegen.config.schema.json",
    ],
    // The emitter reads templates/*.ts at codegen time; no other TypeScript source ships.
    allowedSources: /^templates\/[^/]+\.ts$/,
  },
  {
    name: "@flowsmith/runtime",
    packArgs: ["-w", "@flowsmith/runtime"],
    required: ["package.json", "README.md", "LICENSE", "dist/index.js", "dist/index.d.ts"],
    allowedSources: /^$/,
  },
  {
    name: "@flowsmith/redis",
    packArgs: ["-w", "@flowsmith/redis"],
    required: [
      "package.json",
      "README.md",
      "LICENSE",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/token-store.js",
      "dist/webhook-queue.js",
    ],
    allowedSources: /^$/,
  },
];

const FORBIDDEN = [
  /^test\//,
  /^bench\//,
  /fixtures\//,
  /^generated\//,
  /^flows\//,
  /\.tsbuildinfo$/,
  /\.map$/,
  /^\.ci\//,
  /^examples\//,
];
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepare"];

/**
 * publint's findings to leave out, each with why. The runtime's ES module
 * build (dist/esm) has a package.json of its own: `"type": "module"`, and the
 * `#platform` map again with paths inside dist/esm. publint says Node ignores
 * `imports` in a nested package.json; Node 20 (and 22 and 24) read it from
 * the nearest package.json, as its resolution algorithm says (the package
 * scope), and fail without it (ERR_PACKAGE_IMPORT_NOT_DEFINED); bundlers read
 * the root one. Both maps are written from one (runtime/scripts/write-esm-package.js),
 * and the consumer test runs the package on Node 20, 22, 24, Bun, Deno,
 * workerd and Vercel's Edge Runtime.
 */
const PUBLINT_ACCEPTED = [
  {
    pkg: "@flowsmith/runtime",
    code: "NESTED_PACKAGE_JSON_FIELD_IGNORED",
    filePath: "./dist/esm/package.json",
    field: "imports",
  },
];

async function main() {
  if (!process.argv.includes("--built"))
    execFileSync("npm", ["run", "-s", "build"], { cwd: REPO, stdio: ["ignore", "ignore", "inherit"] });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "flowsmith-packages-"));
  const problems = [];
  try {
    for (const pkg of PACKAGES) {
      const tarball = packOrThrow(pkg, work);
      problems.push(...checkContents(pkg, tarball));
      problems.push(...runTool(pkg, "attw", [tarball, "--format", "ascii"]));
      problems.push(...(await publintProblems(pkg, tarball)));
      if (pkg.name === "@flowsmith/runtime") problems.push(...checkInstallBudget(tarball));
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  if (problems.length > 0) {
    process.stderr.write(
      `check-packages: ${problems.length} problem(s):\n${problems.map((problem) => `  - ${problem}`).join("\n")}\n`,
    );
    process.exitCode = 1;
  } else {
    log("all three packages are fine");
  }
}

function packOrThrow(pkg, work) {
  const destination = path.join(work, pkg.name.replace(/[@/]/g, "_"));
  fs.mkdirSync(destination);
  execFileSync("npm", ["pack", "--silent", "--ignore-scripts", ...pkg.packArgs, "--pack-destination", destination], {
    cwd: REPO,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const [file] = fs.readdirSync(destination);
  if (!file) throw new Error(`npm pack gave no tarball for ${pkg.name}`);
  return path.join(destination, file);
}

function checkContents(pkg, tarball) {
  const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ""));
  const problems = [];
  for (const required of pkg.required)
    if (!files.includes(required)) problems.push(`${pkg.name}: the tarball lacks ${required}`);
  for (const file of files) {
    if (FORBIDDEN.some((pattern) => pattern.test(file)))
      problems.push(`${pkg.name}: the tarball should not ship ${file}`);
    if (/\.ts$/.test(file) && !/\.d\.ts$/.test(file) && !pkg.allowedSources.test(file))
      problems.push(`${pkg.name}: the tarball ships the source ${file}`);
  }
  const manifest = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }));
  for (const script of INSTALL_SCRIPTS) {
    if (manifest.scripts?.[script])
      problems.push(`${pkg.name}: package.json has a "${script}" script, which users' installs would run`);
  }
  log(`${pkg.name}: ${files.length} files, contents checked`);
  return problems;
}

/** publint's messages (strict: warnings count), but those PUBLINT_ACCEPTED says why to leave out. */
async function publintProblems(pkg, tarball) {
  const { publint } = await import("publint");
  const { formatMessage } = await import("publint/utils");
  const buffer = fs.readFileSync(tarball);
  const tarballBytes = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
  const { messages, pkg: manifest } = await publint({ pack: { tarball: tarballBytes }, strict: true });
  const accepted = (message) =>
    PUBLINT_ACCEPTED.some(
      (rule) =>
        rule.pkg === pkg.name &&
        rule.code === message.code &&
        message.args.filePath === rule.filePath &&
        message.args.field === rule.field,
    );
  const found = messages.filter((message) => message.type !== "suggestion" && !accepted(message));
  if (found.length === 0) {
    log(`${pkg.name}: publint found no problem`);
    return [];
  }
  return [
    `${pkg.name}: publint reports problems:\n${found.map((message) => `      ${message.type}: ${formatMessage(message, manifest, { color: false })}`).join("\n")}`,
  ];
}

function runTool(pkg, tool, args) {
  try {
    execFileSync(path.join(BIN, tool), args, { cwd: REPO, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    log(`${pkg.name}: ${tool} found no problem`);
    return [];
  } catch (error) {
    const output = `${error.stdout ?? ""}${error.stderr ?? ""}`.trim();
    return [`${pkg.name}: ${tool} reports problems:\n${output.replace(/^/gm, "      ")}`];
  }
}

function checkInstallBudget(tarball) {
  const measured = measureProductionInstall(tarball);
  log(
    `@flowsmith/runtime: production install is ${measured.packages} packages, ${formatBytes(measured.bytes)} (${measured.names.join(", ")})`,
  );
  const problems = [];
  if (measured.packages > RUNTIME_INSTALL_BUDGET.packages) {
    problems.push(
      `@flowsmith/runtime: production install has ${measured.packages} packages, over the budget of ${RUNTIME_INSTALL_BUDGET.packages}`,
    );
  }
  if (measured.bytes > RUNTIME_INSTALL_BUDGET.bytes) {
    problems.push(
      `@flowsmith/runtime: production install is ${formatBytes(measured.bytes)}, over the budget of ${formatBytes(RUNTIME_INSTALL_BUDGET.bytes)}`,
    );
  }
  return problems;
}

function log(message) {
  process.stdout.write(`check-packages: ${message}\n`);
}

main().catch((error) => {
  process.stderr.write(`check-packages: ${error.stack ?? error}\n`);
  process.exitCode = 1;
});
