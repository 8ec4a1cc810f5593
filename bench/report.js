"use strict";
/**
 * The benchmark's output: a plain-text table for the terminal, and
 * BENCHMARKS.md with the machine, Node version, date, command, the table,
 * the details of the run and the hand-written analysis (bench/analysis.md).
 */
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const COLUMNS = [
  ["Benchmark", (row) => row.benchmark],
  ["flowsmith", (row) => row.flowsmith],
  ["Compared with", (row) => row.baseline],
  ["Ratio", (row) => formatRatio(row.ratio)],
  ["Goal", (row) => row.goal],
  ["Met", (row) => (row.met === null ? "-" : row.met ? "yes" : "NO")],
];

function formatRatio(value) {
  return Number.isFinite(value) ? value.toFixed(2) : "-";
}

function printTable(rows, write = (text) => process.stdout.write(text)) {
  const cells = [COLUMNS.map(([title]) => title), ...rows.map((row) => COLUMNS.map(([, cell]) => String(cell(row))))];
  const widths = COLUMNS.map((_, column) => Math.max(...cells.map((line) => line[column].length)));
  const line = (values) =>
    values
      .map((value, column) => value.padEnd(widths[column]))
      .join("  ")
      .trimEnd();
  write(`${line(cells[0])}\n${widths.map((width) => "-".repeat(width)).join("  ")}\n`);
  for (const values of cells.slice(1)) write(`${line(values)}\n`);
}

function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    date: new Date().toISOString().slice(0, 10),
  };
}

function markdownReport({ rows, details, command, settings, elapsedMs }) {
  const host = machine();
  const escape = (text) => String(text).replaceAll("|", "\\|");
  const table = [
    `| ${COLUMNS.map(([title]) => title).join(" | ")} |`,
    `|${COLUMNS.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${COLUMNS.map(([, cell]) => escape(cell(row))).join(" | ")} |`),
  ];
  const analysisFile = path.join(__dirname, "analysis.md");
  const analysis = fs.existsSync(analysisFile) ? fs.readFileSync(analysisFile, "utf8").trim() : "";
  return [
    "# Benchmarks",
    "",
    "flowsmith measured side by side with what users would pick instead: openapi-typescript",
    "types with the openapi-fetch client, or hand-written undici calls. Ratios come from one",
    "run (medians of several rounds); absolute times on this small, noisy machine are only a guide.",
    "This file is written by the benchmark; the analysis section comes from bench/analysis.md.",
    "",
    "## Run",
    "",
    `- Command: \`${command}\` (from a fresh clone after \`npm ci\`)`,
    `- Date: ${host.date}`,
    `- Machine: ${host.cpu}, ${host.cores} cores, ${host.memory} memory, ${host.platform}`,
    `- Node: ${host.node}`,
    `- Settings: ${settings}`,
    `- Whole run: ${(elapsedMs / 1000).toFixed(0)} s`,
    "",
    "## Results",
    "",
    ...table,
    "",
    "## Details of this run",
    "",
    ...details.map((detail) => `- ${detail}`),
    "",
    analysis,
    "",
  ].join("\n");
}

module.exports = { printTable, markdownReport };
