// jest.config.js maps prettier's standalone build and its estree and babel plugins (the three
// modules generator/emit/format.ts loads) to the files under test/support/worker-prettier/, one
// per module, which hand each suite the jest worker process's copy (test/support/jest-environment.js):
// loaded and warmed once per worker rather than in every suite that formats.
const worker = /** @type {{ __flowsmithWorker?: () => { prettier(name: string): unknown } }} */ (globalThis)
  .__flowsmithWorker;
if (typeof worker !== "function") {
  throw new Error(
    "worker-prettier.js: run the suites with test/support/jest-environment.js (jest.config.js testEnvironment)",
  );
}
/** @param {string} name one of the three modules */
module.exports = (name) => worker().prettier(name);
