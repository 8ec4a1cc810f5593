/**
 * The browser suite (`npm run test:browser`): test/browser in headless
 * Chromium, one file at a time. Kept out of `npm test`, which needs no browser.
 */
const base = require("./jest.config.js");

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ["<rootDir>/test/browser"],
  testPathIgnorePatterns: ["/node_modules/"],
  maxWorkers: 1,
  testTimeout: 60000,
};
