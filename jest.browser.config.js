/**
 * The browser suite (`npm run test:browser`): test/browser in headless
 * Chromium, one file at a time. Kept out of `npm test`, which needs no browser.
 * Built from the root config's `node` project: the root's `projects` would
 * run every other suite again.
 */
const { projects, ...root } = require("./jest.config.js");

const node = projects.find((project) => project.displayName === "node");
if (!node) throw new Error('jest.browser.config.js: jest.config.js has no project named "node" to build on');

/** @type {import('jest').Config} */
module.exports = {
  ...root,
  ...node,
  displayName: "browser",
  roots: ["<rootDir>/test/browser"],
  testPathIgnorePatterns: ["/node_modules/"],
  maxWorkers: 1,
  testTimeout: 60000,
};
