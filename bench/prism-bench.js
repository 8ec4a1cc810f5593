"use strict";
/**
 * Benchmark 9: createSession throughput of the emulator side by side with
 * Stoplight Prism's mock server, on the same description (flows/
 * aml-screening.yaml) and the same valid JSON body, validation on in both
 * (checked first: each must refuse an invalid body). Each server in its own
 * process; one client, concurrency 16, the two take turns each round.
 */
const undici = require("undici");
const {
  startEmulatorProcess,
  stagingToken,
  amlSessionsPath,
  AML_DESCRIPTION,
  AML_REQUEST,
  USER_AGENT,
} = require("./emulator-handle.js");
const { ensurePrismOrReason, startPrism } = require("./prism.js");
const { sessionLoad } = require("./session-load.js");
const { median, ratio, rotated } = require("./stats.js");

const NAME = "9. createSession c=16, validation on: emulator vs Prism mock";

async function benchPrism({ rounds, durationMs, warmupMs, install }) {
  const reason = await ensurePrismOrReason({ install });
  if (reason) {
    return {
      rows: [
        {
          benchmark: NAME,
          flowsmith: "n/a",
          baseline: "Prism: skipped",
          ratio: Number.NaN,
          goal: "(for reference)",
          compared: false,
          met: null,
        },
      ],
      details: [`Benchmark 9 skipped: ${reason}.`],
    };
  }
  const emulator = await startEmulatorProcess();
  const prism = await startPrism(AML_DESCRIPTION);
  try {
    const path = amlSessionsPath();
    const headers = (token) => ({
      authorization: `Bearer ${token}`,
      "user-agent": USER_AGENT,
      "content-type": "application/json",
    });
    const targets = {
      emulator: { origin: emulator.baseUrl, headers: headers(await stagingToken(emulator)) },
      // Prism checks that a bearer token is sent, not which.
      Prism: { origin: prism.baseUrl, headers: headers("bench-token") },
    };
    const refusals = {};
    for (const [name, target] of Object.entries(targets)) refusals[name] = await refusalOrThrow(name, target, path);
    const loads = Object.fromEntries(
      Object.entries(targets).map(([name, target]) => [name, sessionLoad({ ...target, path, body: AML_REQUEST })]),
    );
    const names = Object.keys(loads);
    const rates = Object.fromEntries(names.map((name) => [name, []]));
    for (const name of names) await loads[name].run({ durationMs: warmupMs });
    for (let round = 0; round < rounds; round += 1) {
      for (const name of rotated(names, round)) {
        const { completed, elapsedMs } = await loads[name].run({ durationMs });
        rates[name].push((completed / elapsedMs) * 1000);
      }
    }
    await Promise.all(names.map((name) => loads[name].close()));
    const emulatorRate = median(rates.emulator);
    const prismRate = median(rates.Prism);
    return {
      rows: [
        {
          benchmark: NAME,
          flowsmith: `${emulatorRate.toFixed(0)} req/s`,
          baseline: `Prism ${prismRate.toFixed(0)} req/s`,
          ratio: ratio(emulatorRate, prismRate),
          goal: "(for reference)",
          compared: true,
          met: null,
        },
      ],
      details: [
        `Emulator vs Prism (${rounds} rounds x ${durationMs} ms, medians): emulator ${emulatorRate.toFixed(0)} req/s, Prism ${prismRate.toFixed(0)} req/s; ` +
          `an invalid body (locale "xx") was refused by both: emulator ${refusals.emulator}, Prism ${refusals.Prism}.`,
      ],
    };
  } finally {
    await Promise.all([emulator.close(), prism.close()]);
  }
}

/** Validation must be on: a body with a locale the flow does not list is refused. Resolves with the status. */
async function refusalOrThrow(name, { origin, headers }, path) {
  const invalid = { ...AML_REQUEST, metadata: { ...AML_REQUEST.metadata, locale: "xx" } };
  const response = await undici.request(`${origin}${path}`, { method: "POST", headers, body: JSON.stringify(invalid) });
  await response.body.dump();
  if (response.statusCode < 400 || response.statusCode >= 500)
    throw new Error(`${name} accepted an invalid body (${response.statusCode}): is its validation off?`);
  return response.statusCode;
}

module.exports = { benchPrism };
