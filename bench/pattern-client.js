"use strict";
/**
 * Benchmark 11, the measuring side (one process): the generated validator
 * on requests whose givenName is "a" x n + "!" for each length (after a
 * warm-up pass over all of them, the median of the rounds), the native RegExp on the same
 * pattern at lengths short enough to finish (each two characters more take
 * it about four times as long: it is never run past a few dozen), and both
 * engines on ordinary values. Prints one JSON line.
 */
const { validatorRuntime } = require("../runtime/dist/index.js");
const { median, nowMs } = require("./stats.js");

const settings = JSON.parse(process.argv[2]);
const { validate } = require(settings.validatePath);

const requestWith = (givenName) => ({
  input: { basicIdentity: { givenName, familyName: "Lovelace", birthDate: "1815-12-10" } },
  metadata: { subjectId: "bench-subject" },
});

function timed(run, rounds) {
  run();
  const times = [];
  let result;
  for (let round = 0; round < rounds; round += 1) {
    const start = nowMs();
    result = run();
    times.push(nowMs() - start);
  }
  return { ms: median(times), result };
}

const requests = settings.lengths.map((length) => requestWith(`${"a".repeat(length)}!`));
// A warm-up pass over every length first, so no length is timed while V8 is still compiling the engine.
for (const request of requests) validate(request);
const flowsmith = settings.lengths.map((length, index) => {
  const { ms, result } = timed(() => validate(requests[index]), settings.rounds);
  return { length, ms, valid: result };
});

const native = settings.nativeLengths.map((length) => {
  const regex = new RegExp(settings.pattern, "u");
  const text = `${"a".repeat(length)}!`;
  return { length, ms: timed(() => regex.test(text), settings.nativeRounds).ms };
});

const values = ["Ada", "aaaaaaaaaa", "Lovelace", "a"];
const calls = 200_000;
const perTest = (test) => {
  let matched = 0;
  const start = nowMs();
  for (let i = 0; i < calls; i += 1) if (test(values[i % values.length])) matched += 1;
  return { us: ((nowMs() - start) * 1000) / calls, matched };
};
const linearPattern = validatorRuntime.pattern(settings.pattern, "u");
const nativePattern = new RegExp(settings.pattern, "u");
perTest((value) => linearPattern.test(value));
perTest((value) => nativePattern.test(value));
const linear = perTest((value) => linearPattern.test(value));
const nativeOrdinary = perTest((value) => nativePattern.test(value));
if (linear.matched !== nativeOrdinary.matched) throw new Error(`the engines disagree on ordinary values: ${linear.matched} against ${nativeOrdinary.matched}`);

process.stdout.write(`${JSON.stringify({ flowsmith, native, ordinary: { values, linearUs: linear.us, nativeUs: nativeOrdinary.us } })}\n`);
