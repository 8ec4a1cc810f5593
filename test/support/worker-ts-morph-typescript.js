// test/support/jest-resolver.js resolves ts-morph's `require('./typescript')` here: the copy of
// TypeScript that ts-morph bundles, loaded once per jest worker process
// (test/support/jest-environment.js) instead of once per suite.
const worker = /** @type {{ __flowsmithWorker?: () => { tsMorphTypeScript: unknown } }} */ (globalThis)
  .__flowsmithWorker;
if (typeof worker !== "function") {
  throw new Error(
    "worker-ts-morph-typescript.js: run the suites with test/support/jest-environment.js (jest.config.js testEnvironment)",
  );
}
module.exports = worker().tsMorphTypeScript;
