// jest.config.js maps the `./<name>.generated.js` that generator/read/openapi-validation.ts and
// generator/config/load-config.ts require to test/support/built-*.js: the suites, run from the
// sources, load the validator the build wrote to dist/ (`npm test` builds before jest) instead of
// compiling its schema in each suite (the OpenAPI 3.0 schema's compile is slow).
// Without a build, the module is "not found" and the source module compiles its own, as it does
// run from the sources elsewhere. read-openapi-validator.test.ts and config-validator.test.ts
// check that the build's file is the one the sources compile, and cover the compile path.
const { existsSync } = require("node:fs");
const { basename, join } = require("node:path");

/** The build's file at `dist/<fromRoot>`, or the error a missing module gives. */
module.exports = function requireBuilt(fromRoot) {
  const built = join(__dirname, "..", "..", "dist", fromRoot);
  if (!existsSync(built)) {
    throw Object.assign(new Error(`Cannot find module './${basename(built)}' (${built}: run \`npm run build\`)`), {
      code: "MODULE_NOT_FOUND",
    });
  }
  return require(built);
};
