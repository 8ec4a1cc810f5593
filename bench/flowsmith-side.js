"use strict";
/**
 * How the request benchmarks reach flowsmith: the compiled runtime in
 * runtime/dist and the generated flow modules, transpiled from the codegen
 * output to CommonJS (their `@flowsmith/runtime/flow-module` import resolves
 * to runtime/dist through the workspace link). Also the request check the
 * other tools use: the runtime's schema checker on the module's own
 * `spec.request`, so every tool validates with the same code.
 */
const fs = require("node:fs");
const path = require("node:path");
const { REPO_ROOT } = require("./workspace.js");

const USER_AGENT = "flowsmith-bench/1.0";
const RUNTIME_PATH = path.join(REPO_ROOT, "runtime", "dist", "index.js");
const FLOW_MODULE_PATH = path.join(REPO_ROOT, "runtime", "dist", "flow-module.js");
const INTERNAL_PATH = path.join(REPO_ROOT, "runtime", "dist", "internal.js");
const PATTERNS_PATH = path.join(REPO_ROOT, "runtime", "dist", "patterns", "index.js");
const CREDENTIALS = { clientId: "bench-client", clientSecret: "bench-secret" };

/** Transpiles every generated .ts file to CommonJS under outDir; tsc has type-checked them in benchmark 3. */
function compileGenerated(generatedDir, outDir) {
  const ts = require("typescript");
  for (const file of listFiles(generatedDir)) {
    const relative = path.relative(generatedDir, file);
    const target = path.join(outDir, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (!file.endsWith(".ts")) continue;
    const { outputText } = ts.transpileModule(fs.readFileSync(file, "utf8"), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      fileName: file,
    });
    fs.writeFileSync(target.replace(/\.ts$/, ".js"), outputText);
  }
}

function listFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

/** What is missing before the request benchmarks can run, or undefined when all is there. */
function missingRuntimeParts() {
  if (!fs.existsSync(RUNTIME_PATH)) return "runtime/dist/index.js (run `npm run build`)";
  const runtime = require(RUNTIME_PATH);
  if (typeof runtime.createClient !== "function") return "createClient in runtime/dist/index.js";
  if (typeof runtime.fileFromPath !== "function") return "fileFromPath in runtime/dist/index.js";
  if (!fs.existsSync(FLOW_MODULE_PATH) || typeof require(FLOW_MODULE_PATH).createFlowSession !== "function")
    return "createFlowSession in runtime/dist/flow-module.js";
  return undefined;
}

function loadFlowsmith(modulePath) {
  const runtime = require(RUNTIME_PATH);
  const flowModule = require(modulePath);
  return {
    module: flowModule,
    runtime,
    /** `extra`: more createClient options (a tokenStore). */
    createClient: (server, environment, extra = {}) =>
      runtime.createClient({
        baseUrl: server.baseUrl,
        authUrl: server.authUrl,
        environment,
        userAgent: USER_AGENT,
        ...CREDENTIALS,
        ...extra,
      }),
    createSession: (client, body) => flowModule.createSession(client, body),
    createSessionUnvalidated: unvalidatedCall(flowModule),
    fileFromPath: (file) => runtime.fileFromPath(file),
  };
}

/**
 * The same call with the request and 201 checks switched off: the module's
 * own call (createFlowSession, as its createSession makes it) with its spec
 * whose schemas accept anything. Made once, so the checks are built once,
 * as for the module's own spec.
 */
function unvalidatedCall(flowModule) {
  if (!flowModule.spec) return undefined;
  const { createFlowSession } = require(FLOW_MODULE_PATH);
  const acceptAll = { ...flowModule.spec, request: true, response: true };
  return (client, body) => createFlowSession(client, acceptAll, body);
}

/**
 * The flow's request check as the generated client makes it: the runtime's
 * schema checker on the module's `spec.request`, patterns on the linear-time
 * engine. Returns the issues of a request (none: valid).
 */
function loadRequestValidator(modulePath) {
  const { issuesOf, schemaCheckOrThrow } = require(INTERNAL_PATH);
  const { linearPatterns } = require(PATTERNS_PATH);
  const check = schemaCheckOrThrow(require(modulePath).spec.request, { patterns: linearPatterns });
  return (request) => issuesOf(check, request);
}

module.exports = { USER_AGENT, compileGenerated, missingRuntimeParts, loadFlowsmith, loadRequestValidator };
