// jest.config.js maps generator/read/openapi-validation.ts's `./openapi-validator.generated.js`
// here: the suites, run from the sources, load the OpenAPI 3.0 validator the build wrote to
// dist/ (`npm test` builds before jest) instead of compiling it in each suite, which cost about
// 0.3 s of CPU a suite. Without a build, the module is "not found" and openapi-validation.ts
// compiles it, as it does run from the sources elsewhere. read-openapi-validator.test.ts checks
// that this file is the one the sources compile, and covers the compile path.
const { existsSync } = require("node:fs");
const { join } = require("node:path");

const built = join(__dirname, "..", "..", "dist", "generator", "read", "openapi-validator.generated.js");
if (!existsSync(built)) {
  throw Object.assign(new Error(`Cannot find module './openapi-validator.generated.js' (${built}: run \`npm run build\`)`), {
    code: "MODULE_NOT_FOUND",
  });
}
module.exports = require(built);
