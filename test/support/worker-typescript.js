// jest.config.js maps `typescript` here in the suites: the one TypeScript of the jest worker
// process (test/support/jest-environment.js), instead of a fresh load in every suite.
const worker = /** @type {{ __flowsmithWorker?: () => { typescript: unknown } }} */ (globalThis).__flowsmithWorker;
if (typeof worker !== "function") {
  throw new Error(
    "worker-typescript.js: run the suites with test/support/jest-environment.js (jest.config.js testEnvironment)",
  );
}
module.exports = worker().typescript;
