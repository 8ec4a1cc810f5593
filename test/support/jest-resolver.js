// jest's resolver for `npm test` (jest.config.js): jest's own, except that ts-morph's copy of
// TypeScript (`require('./typescript')` in @ts-morph/common) resolves to
// test/support/worker-ts-morph-typescript.js, the one copy of the jest worker process
// (test/support/jest-environment.js). Only that one require: by the requiring folder, which a
// moduleNameMapper entry (a pattern on `./typescript` alone) could not tell apart.
const { dirname, join } = require("node:path");

/** ts-morph's own @ts-morph/common (found from ts-morph, wherever npm placed it). */
const TS_MORPH_COMMON = dirname(require.resolve("@ts-morph/common", { paths: [dirname(require.resolve("ts-morph"))] }));
const WORKER_COPY = require.resolve("./worker-ts-morph-typescript.js");

module.exports = (request, options) =>
  request === "./typescript" && options.basedir === TS_MORPH_COMMON
    ? WORKER_COPY
    : options.defaultResolver(request, options);

/** The file ts-morph's `require('./typescript')` loads outside jest. */
module.exports.TS_MORPH_TYPESCRIPT = join(TS_MORPH_COMMON, "typescript.js");
