/** @type {import('jest').Config} */
const node = {
  displayName: "node",
  // node's, with one TypeScript per worker process rather than one per suite (see the file).
  testEnvironment: "<rootDir>/test/support/jest-environment.js",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // The browser suite has its own config (jest.browser.config.js, `npm run test:browser`).
  testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/browser/"],
  transform: {
    // Type-checking is tsc's job in `npm test`; jest only strips the types, with swc: the
    // generated modules (each flow's index.ts) the suites require from temp folders are new
    // every run, so jest's cache never holds them, and ts-jest (TypeScript's transpileModule)
    // spent seconds of CPU a run on them alone, more on a cold cache. The package is
    // CommonJS, so dynamic import() becomes require() as tsc emits it (jest's sandbox refuses a
    // real one); class fields as tsc emits them for ES2022 (useDefineForClassFields); inline
    // source maps for stack traces at the TypeScript lines.
    "^.+\\.ts$": [
      "@swc/jest",
      {
        jsc: { parser: { syntax: "typescript" }, target: "es2022", transform: { useDefineForClassFields: true } },
        module: { type: "commonjs" },
        sourceMaps: "inline",
      },
    ],
  },
  // jest's, but ts-morph's copy of TypeScript is the worker's (see the file).
  resolver: "<rootDir>/test/support/jest-resolver.js",
  moduleNameMapper: {
    // The worker's TypeScript (test/support/jest-environment.js).
    "^typescript$": "<rootDir>/test/support/worker-typescript.js",
    // The worker's prettier, the standalone build and the plugins format.ts loads (test/support/worker-prettier.js).
    "^prettier/(standalone|plugins/estree|plugins/babel)$": "<rootDir>/test/support/worker-prettier/$1.js",
    // The build's OpenAPI 3.0 and config validators rather than a compile in each suite
    // (test/support/require-built.js).
    "^\\./openapi-validator\\.generated\\.js$": "<rootDir>/test/support/built-openapi-validator.js",
    "^\\./config-validator\\.generated\\.js$": "<rootDir>/test/support/built-config-validator.js",
    // Tests run the runtime from its sources, as tsconfig.json's paths do for tsc.
    "^@flowsmith/runtime$": "<rootDir>/runtime/index.ts",
    "^@flowsmith/runtime/(service-limits|internal|flow-module)$": "<rootDir>/runtime/$1.ts",
    "^@flowsmith/runtime/patterns$": "<rootDir>/runtime/patterns/index.ts",
    // The runtime's platform seam (runtime/package.json "imports"): Node's, as `node` picks it.
    "^#platform$": "<rootDir>/runtime/platform/node.ts",
    "^@flowsmith/runtime/internal/json$": "<rootDir>/runtime/json.ts",
    "^@flowsmith/redis$": "<rootDir>/redis/index.ts",
    // The web example imports the emulator as users do (the package's ./emulator export).
    "^flowsmith/emulator$": "<rootDir>/emulator/index.ts",
    "^(\\.{1,2}/.*)\\.js$": "$1",
  },
};

/**
 * The runtime's suites whose behaviour is the exchange's (timeouts, retries,
 * redaction, logging, middleware, tracing, per-call headers, bodies, uploads,
 * close()), again with the runtime's Web platform (runtime/platform/web.ts):
 * requests through the platform's fetch, as on Workers, Vercel Edge, Deno and
 * Bun, here Node's own fetch over loopback. What only Node does (a
 * dispatcher, proxies, fileFromPath) is skipped there by the suites
 * themselves; test/runtime/platforms.test.ts holds what the Web platform
 * refuses.
 */
const WEB_TRANSPORT_SUITES = [
  "action-patterns",
  "auth",
  "close",
  "dispatch",
  "errors",
  "hot-path",
  "logging",
  "middleware",
  "multipart",
  "observability-redaction",
  "path-segments",
  "preflight",
  "redaction",
  "response-checks",
  "session-calls",
  "token-response",
  "token-store",
  "tracing",
  "wait-for-outcome",
  "webhook-fetch",
  "wrong-address",
];

/** @type {import('jest').Config} */
const web = {
  ...node,
  displayName: "web transport",
  testMatch: WEB_TRANSPORT_SUITES.map((name) => `<rootDir>/test/runtime/${name}.test.ts`),
  moduleNameMapper: { ...node.moduleNameMapper, "^#platform$": "<rootDir>/runtime/platform/web.ts" },
};

/** @type {import('jest').Config} */
module.exports = {
  projects: [node, web],
  // A global option: jest reads it at the root only (in a project it is ignored, and its 5 s default applies).
  testTimeout: 30000,
  // jest's order, except that without timings (a fresh clone, CI) the longest suites start first (see the file).
  testSequencer: "<rootDir>/test/support/jest-sequencer.js",
  // jest's default is one worker less than the cores, which on a 2-core machine means every
  // suite in one process, one core idle. Suites are independent (each its own temp folders,
  // emulators on port 0), so use every core.
  maxWorkers: "100%",
};
