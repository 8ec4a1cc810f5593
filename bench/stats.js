"use strict";
/**
 * Small statistics for a noisy 2-core machine: medians of rounds, ratios of
 * medians from the same run, and a wall clock that does not go backwards.
 */

function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function ratio(numerator, denominator) {
  return denominator > 0 && Number.isFinite(numerator) ? numerator / denominator : Number.NaN;
}

function nowMs() {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Rotates the order of the tools each round, so none always runs first (warm caches, CPU boost). */
function rotated(items, round) {
  const shift = round % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

module.exports = { median, ratio, nowMs, rotated };
