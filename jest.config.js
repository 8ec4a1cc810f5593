/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: {
    // Type-checking is tsc's job in `npm test`; jest only transpiles.
    "^.+\\.ts$": ["ts-jest", { diagnostics: false }],
  },
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
  testTimeout: 30000,
};
