"use strict";
/**
 * Creates sessions at full speed: `concurrency` requests in flight on one
 * undici Pool, until a count or a duration is reached. Every answer must be
 * a 201; anything else stops the run with the answer in the error.
 */
const undici = require("undici");
const { nowMs } = require("./stats.js");

function sessionLoad({ origin, path, headers, body, concurrency = 16 }) {
  const pool = new undici.Pool(origin, { connections: concurrency });
  const text = JSON.stringify(body);
  const createOne = async () => {
    const response = await pool.request({ method: "POST", path, headers, body: text });
    const answer = await response.body.text();
    if (response.statusCode !== 201) throw new Error(`POST ${path}: ${response.statusCode} ${answer.slice(0, 300)}`);
  };
  /** Stops at `count` sessions or at `durationMs`, whichever is given. */
  const run = async ({ count = Infinity, durationMs = Infinity }) => {
    const start = nowMs();
    const deadline = start + durationMs;
    let started = 0;
    let completed = 0;
    const worker = async () => {
      while (started < count && nowMs() < deadline) {
        started += 1;
        await createOne();
        completed += 1;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return { completed, elapsedMs: nowMs() - start };
  };
  return { run, close: () => pool.close() };
}

module.exports = { sessionLoad };
