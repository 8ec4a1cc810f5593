"use strict";
/**
 * How the request benchmarks reach flowsmith: the compiled runtime in
 * runtime/dist and the generated flow modules, transpiled from the codegen
 * output to CommonJS (their `@flowsmith/runtime` import resolves to
 * runtime/dist through the workspace link). Also the request validator the other tools use,
 * so every tool validates with the same code.
 */
const fs = require("node:fs");
const path = require("node:path");
const { REPO_ROOT } = require("./workspace.js");

const USER_AGENT = "flowsmith-bench/1.0";
const RUNTIME_PATH = path.join(REPO_ROOT, "runtime", "dist", "index.js");
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
      runtime.createClient({ baseUrl: server.baseUrl, authUrl: server.authUrl, environment, userAgent: USER_AGENT, ...CREDENTIALS, ...extra }),
    createSession: (client, body) => flowModule.createSession(client, body),
    createSessionUnvalidated: unvalidatedCall(runtime, flowModule),
    fileFromPath: (file) => runtime.fileFromPath(file),
  };
}

/**
 * The same call with the pre-flight validator switched off: the runtime's
 * createSessionFor with the flow's exported `spec` and a validator that
 * accepts all.
 */
function unvalidatedCall(runtime, flowModule) {
  if (typeof runtime.createSessionFor !== "function" || !flowModule.spec) return undefined;
  const acceptAll = () => true;
  return (client, body) => runtime.createSessionFor(client, flowModule.spec, acceptAll, body);
}

/**
 * The flow's generated validator (ajv standalone code in validate.js beside
 * the module), so every tool validates with the same code; if a generator
 * version has none, ajv compiled once from the description.
 */
function loadRequestValidator(modulePath, document) {
  const validatorPath = path.join(path.dirname(modulePath), "validate.js");
  const generated = fs.existsSync(validatorPath) ? require(validatorPath) : {};
  const exported = generated.validate ?? generated.default;
  if (typeof exported === "function") return exported;
  const Ajv = require("ajv");
  const addFormats = require("ajv-formats");
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema(document, "description");
  const schema = Object.values(document.paths)[0].post.requestBody.content["application/json"].schema;
  return ajv.compile({ $ref: `description#${schema.$ref.slice(1)}` });
}

module.exports = { USER_AGENT, compileGenerated, missingRuntimeParts, loadFlowsmith, loadRequestValidator };
