/**
 * jest's test environment for `npm test` (jest.config.js): node's, plus one
 * TypeScript per worker process instead of one per suite.
 *
 * jest loads every module again in every suite. For TypeScript that is most
 * of a type check's cost: a cold compiler (loaded anew, every function run
 * unoptimised) took several times as long for a first program as a warm one,
 * and the libraries' declarations (lib.*.d.ts, @types/node, undici's) were
 * parsed again for each program. Here TypeScript is required once, in
 * the worker itself, and each suite's `import ts from "typescript"` gets
 * that one (jest.config.js maps it to test/support/worker-typescript.js). The declarations under node_modules
 * are parsed once per worker too (test/support/type-check-host.ts).
 *
 * The TypeScript that ts-morph bundles (most of what loading ts-morph cost
 * a suite) is shared the same way (test/support/jest-resolver.js).
 * Every other module is still loaded in each suite, but parsed once per
 * worker (test/support/code-cache.js).
 *
 * So is prettier's standalone build (test/support/worker-prettier.js): it
 * takes text and gives text, and a suite that formats (a dozen do) paid to
 * load it and run it cold.
 *
 * TypeScript and prettier are safe to share: they keep no state between calls
 * that a test could see, and what they take and give is text or plain data.
 * ts-morph itself, undici and ajv are not shared: they test values with
 * `instanceof Array` or `Function`, which fails for a value made in the
 * suite's own realm.
 */
const { TestEnvironment } = require("jest-environment-node");
// Each module's parse kept for the worker's later suites (see the file).
require("./code-cache.js");

const PRETTIER_MODULES = new Set(["prettier/standalone", "prettier/plugins/estree", "prettier/plugins/babel"]);

/** Lives as long as the worker process: every suite it runs reads the same one. */
const worker = {
  get typescript() {
    return require("typescript");
  },
  /** The TypeScript ts-morph bundles (another version), for its own code (test/support/jest-resolver.js). */
  get tsMorphTypeScript() {
    return require(require("./jest-resolver.js").TS_MORPH_TYPESCRIPT);
  },
  /**
   * Prettier's standalone build and the two plugins generator/emit/format.ts gives it
   * (test/support/worker-prettier.js), by the name the suite required.
   */
  prettier(name) {
    if (!PRETTIER_MODULES.has(name)) throw new Error(`worker-prettier.js: ${name} is not a module format.ts loads`);
    return require(name);
  },
  /** Parsed declarations from node_modules by path and parse options (type-check-host.ts). */
  sourceFiles: new Map(),
  /**
   * openapi-typescript's Node API, imported once per worker, for the judge
   * (test/judge/their-types.ts). Its dependencies are ES modules only, which jest's CommonJS
   * sandbox cannot load; the worker's own import() can. Like TypeScript it is safe to share: it
   * takes a document and gives syntax trees of the worker's one TypeScript, which the judge prints
   * to text at once, and it keeps nothing between calls but an enum cache for an option the judge
   * does not set.
   */
  openapiTypescript: undefined,
  loadOpenapiTypescript() {
    this.openapiTypescript ??= import("openapi-typescript");
    return this.openapiTypescript;
  },
};

class WorkerTypeScriptEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    // A function, not the object: jest clears what a suite left on its global at teardown,
    // and would take the properties of a shared object with it.
    this.global.__flowsmithWorker = () => worker;
  }
}

module.exports = WorkerTypeScriptEnvironment;
