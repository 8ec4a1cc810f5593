"use strict";
/**
 * Benchmark 11, the measuring side (one process): the generated client's
 * request check (the runtime's schema checker on the module's spec.request,
 * patterns on the linear-time engine) on requests whose givenName is
 * "a" x n + "!" for each length; the native
 * RegExp on the same pattern at lengths short enough to finish (each two
 * characters more take it about four times as long: it is never run past a
 * few dozen); both engines on ordinary values. Times are the process's CPU
 * time (a busy machine descheduling it is not counted), medians of the
 * rounds after a warm-up pass. Prints one JSON line.
 */
const { issuesOf, schemaCheckOrThrow } = require("../runtime/dist/internal.js");
const { linearPatterns } = require("../runtime/dist/patterns/index.js");
const { median, rotated } = require("./stats.js");

const settings = JSON.parse(process.argv[2]);
const check = schemaCheckOrThrow(require(settings.modulePath).spec.request, { patterns: linearPatterns });
/** Whether the request passes, as createSession's preflight decides it. */
const validate = (request) => issuesOf(check, request).length === 0;

const requestWith = (givenName) => ({
  input: { basicIdentity: { givenName, familyName: "Lovelace", birthDate: "1815-12-10" } },
  metadata: { subjectId: "bench-subject" },
});

/** CPU time (user + system) of the process, in ms: a run descheduled on a busy machine is not charged for the wait. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** ms per call of `run`, over a batch of `calls` calls. */
function perCall(run, calls) {
  const start = cpuMs();
  let result;
  for (let call = 0; call < calls; call += 1) result = run();
  return { ms: (cpuMs() - start) / calls, result };
}

function timed(run, rounds) {
  run();
  const times = [];
  for (let round = 0; round < rounds; round += 1) {
    const start = cpuMs();
    run();
    times.push(cpuMs() - start);
  }
  return { ms: median(times) };
}

// Every round validates the same number of characters at each length (many short values, few long
// ones), lengths in a rotating order, so each length is measured alike under the same load.
const requests = settings.lengths.map((length) => requestWith(`${"a".repeat(length)}!`));
const callsAt = settings.lengths.map((length) => Math.max(1, Math.round(settings.charsPerRound / length)));
for (const [index, request] of requests.entries()) perCall(() => validate(request), callsAt[index]);
const samples = settings.lengths.map(() => []);
const valid = settings.lengths.map(() => false);
for (let round = 0; round < settings.rounds; round += 1) {
  for (const index of rotated(
    settings.lengths.map((_, i) => i),
    round,
  )) {
    const { ms, result } = perCall(() => validate(requests[index]), callsAt[index]);
    samples[index].push(ms);
    valid[index] = valid[index] || result;
  }
}
const flowsmith = settings.lengths.map((length, index) => ({
  length,
  ms: median(samples[index]),
  valid: valid[index],
}));

const native = settings.nativeLengths.map((length) => {
  const regex = new RegExp(settings.pattern, "u");
  const text = `${"a".repeat(length)}!`;
  return { length, ms: timed(() => regex.test(text), settings.nativeRounds).ms };
});

const values = ["Ada", "aaaaaaaaaa", "Lovelace", "a"];
const calls = 200_000;
const perTest = (test) => {
  let matched = 0;
  const start = cpuMs();
  for (let i = 0; i < calls; i += 1) if (test(values[i % values.length])) matched += 1;
  return { us: ((cpuMs() - start) * 1000) / calls, matched };
};
const linearPattern = linearPatterns.compile(settings.pattern);
if (!("test" in linearPattern))
  throw new Error(`the linear-time engine cannot run ${settings.pattern}: ${linearPattern.unsupported}`);
const nativePattern = new RegExp(settings.pattern, "u");
perTest((value) => linearPattern.test(value));
perTest((value) => nativePattern.test(value));
const linear = perTest((value) => linearPattern.test(value));
const nativeOrdinary = perTest((value) => nativePattern.test(value));
if (linear.matched !== nativeOrdinary.matched)
  throw new Error(`the engines disagree on ordinary values: ${linear.matched} against ${nativeOrdinary.matched}`);

process.stdout.write(
  `${JSON.stringify({ flowsmith, native, ordinary: { values, linearUs: linear.us, nativeUs: nativeOrdinary.us } })}\n`,
);
