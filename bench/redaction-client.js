"use strict";
/**
 * Benchmark 16, the measuring side (one process): a client's Redactor
 * (runtime/secrets/redaction.ts) scrubbing an error body as every error's body is
 * scrubbed (`text(body, { truncated })`), on bodies of growing
 * length, a realistic one (JSON with escapes, echoing pieces of the secret
 * and the token now and then) and a hostile one (escapes whose decoding
 * makes the next escape, so that every view of the text gets made); beside
 * it, the naive scrub a caller would write, `split(secret).join(...)` of the
 * raw secret alone. The Redactor holds the client secret and 100 tokens of
 * a kilobyte, the most a client remembers. Times are the process's CPU time, medians of the rounds after a
 * warm-up pass. Prints one JSON line.
 */
const { randomBytes } = require("node:crypto");
const { Redactor } = require("../runtime/dist/secrets/redaction.js");
const { median } = require("./stats.js");

const settings = JSON.parse(process.argv[2]);
const SECRET = "q7F/k2+Lm9=xR4&Tz8 Wv3%Yb6!Np1~Hc5";

function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The median CPU ms of `run` over the rounds, after one untimed call. */
function timed(run) {
  run();
  const times = [];
  for (let round = 0; round < settings.rounds; round += 1) {
    const start = cpuMs();
    run();
    times.push(cpuMs() - start);
  }
  return median(times);
}

function repeatTo(unit, length) {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** An error body as a service writes one: JSON records, some with escapes, now and then a piece of the secret echoed. */
function realisticBody(length, token) {
  const records = [];
  for (let i = 0, written = 0; written < length; i += 1) {
    const echo = i % 50 === 0 ? ` echo ${encodeURIComponent(SECRET.slice(5, 21))} ${token.slice(100, 124)}` : "";
    records.push(
      JSON.stringify({
        field: `input.items[${i}].name`,
        message: `must match "^[A-Z]\\/\\d+$" (got \u00e9t\u00e9 & co)${echo}`,
      }),
    );
    written += records[records.length - 1].length + 1;
  }
  return `{"errors":[${records.join(",")}]}`.slice(0, length);
}

const redactor = new Redactor({ clientId: "bench-redaction", clientSecret: SECRET });
const tokens = Array.from({ length: 100 }, () => randomBytes(768).toString("base64url"));
const built = cpuMs();
for (const token of tokens) redactor.rememberToken(token);
redactor.text("build the search");
const buildMs = cpuMs() - built;

const measure = (body) => {
  const text = body(settings.lengths[settings.lengths.length - 1]);
  return settings.lengths.map((length) => {
    const slice = text.slice(0, length);
    return {
      length,
      ms: timed(() => redactor.text(slice, { truncated: true })),
      naiveMs: timed(() => slice.split(SECRET).join("[redacted]")),
    };
  });
};

const realistic = measure((length) => realisticBody(length, tokens[99]));
const hostile = measure((length) => repeatTo("%2525&amp;amp;\\\\\\\\%5C%26", length));
const sample = realisticBody(4096, tokens[99]);
const scrubbed = redactor.text(sample);
process.stdout.write(
  `${JSON.stringify({ buildMs, realistic, hostile, echoesScrubbed: scrubbed.includes("[redacted]") && !scrubbed.includes(tokens[99].slice(100, 124)) })}\n`,
);
