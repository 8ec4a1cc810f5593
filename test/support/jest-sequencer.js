// jest's order for `npm test` (jest.config.js), with one change for a run without timings.
// jest runs the suites that took longest last time first, so the two workers finish together;
// without timings (a fresh clone, a CI machine: jest's cache is empty) it orders by file size,
// which put the fuzz suite, a small file and by far the longest suite, last: one worker ran it
// alone at the end. Suites listed here, when jest has no timing
// for them, start first; with timings jest's own order stands.
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

/** Longest first, as `npm test` measured them (CONTRIBUTING.md, Tests). */
const LONGEST = [
  "test/generator/fuzz.test.ts",
  "test/generator/type-judge.test.ts",
  "test/generator/hostile-descriptions.test.ts",
  "test/redis/fleet.test.ts",
];

class LongestFirstWithoutTimings extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const rank = (test) => {
      const index = LONGEST.indexOf(path.relative(test.context.config.rootDir, test.path).split(path.sep).join("/"));
      return index === -1 || test.duration != null ? LONGEST.length : index;
    };
    // Array.prototype.sort is stable: everything else keeps jest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = LongestFirstWithoutTimings;
