"use strict";
/**
 * A command run as its own process and measured as a whole, children
 * included: wall time from spawn to exit, CPU time (user + sys) of the whole
 * process tree, and its peak memory (the largest sum of the resident set
 * sizes of the tree's processes). Linux only (/proc); elsewhere CPU and
 * memory are NaN and the rows say so.
 *
 * CPU: this process's own `cutime` + `cstime` (/proc/self/stat), read before
 * and after: the kernel adds a child's time, and that of every descendant it
 * waited for, when the child is reaped. The benchmark runs one command at a
 * time, so the difference is that command's tree.
 * Memory: every few milliseconds the tree is walked (/proc/<pid>/task/<tid>/children)
 * and VmRSS summed; each process's VmHWM (its own peak, kept by the kernel)
 * bounds it from below between samples, so a single-process tool's peak is
 * exact up to its last few milliseconds.
 */
const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const { nowMs } = require("./stats.js");

const SAMPLE_MS = 5;
const onLinux = process.platform === "linux" && fs.existsSync("/proc/self/stat");
const ticksPerSecond = onLinux
  ? Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100
  : 100;

/** Resolves with { ms, cpuMs, peakRssBytes, code, stdout, stderr }; never rejects on a non-zero exit. */
function runMeasured(command, args, { cwd, env } = {}) {
  return new Promise((resolve, reject) => {
    const cpuBefore = childrenCpuMs();
    const start = nowMs();
    const child = spawn(command, args, { cwd, env: env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    const stdout = [];
    const stderr = [];
    child.stdout.on("data", (chunk) => stdout.push(chunk));
    child.stderr.on("data", (chunk) => stderr.push(chunk));
    let peak = 0;
    const sample = () => {
      peak = Math.max(peak, treeMemoryBytes(child.pid));
    };
    const timer = onLinux ? setInterval(sample, SAMPLE_MS) : undefined;
    child.once("error", (error) => {
      clearInterval(timer);
      reject(error);
    });
    child.once("close", (code) => {
      clearInterval(timer);
      resolve({
        ms: nowMs() - start,
        cpuMs: childrenCpuMs() - cpuBefore,
        peakRssBytes: onLinux && peak > 0 ? peak : Number.NaN,
        code,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      });
    });
  });
}

/** Like runMeasured, but a non-zero exit is an error that carries the command's output. */
async function runMeasuredOrThrow(command, args, options) {
  const result = await runMeasured(command, args, options);
  if (result.code !== 0) {
    const output = `${result.stdout}\n${result.stderr}`.trim().split("\n").slice(-15).join("\n");
    throw new Error(`\`${[command, ...args].join(" ")}\` exited with ${result.code}:\n${output}`);
  }
  return result;
}

/** CPU time of this process's reaped children and their reaped descendants, in ms. */
function childrenCpuMs() {
  if (!onLinux) return Number.NaN;
  const stat = fs.readFileSync("/proc/self/stat", "utf8");
  // Fields after the command name (which may hold spaces), counted from field 3 (state).
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / ticksPerSecond;
}

/** max(Σ VmRSS, the largest VmHWM) over the process tree rooted at `pid`; 0 once it is gone. */
function treeMemoryBytes(pid) {
  let sum = 0;
  let largestPeak = 0;
  const queue = [pid];
  for (let index = 0; index < queue.length && index < 10_000; index += 1) {
    const status = readOrUndefined(`/proc/${queue[index]}/status`);
    if (status === undefined) continue;
    sum += kilobytes(status, "VmRSS");
    largestPeak = Math.max(largestPeak, kilobytes(status, "VmHWM"));
    for (const task of readdirOrEmpty(`/proc/${queue[index]}/task`)) {
      const children = readOrUndefined(`/proc/${queue[index]}/task/${task}/children`);
      if (children) queue.push(...children.trim().split(/\s+/).filter(Boolean).map(Number));
    }
  }
  return Math.max(sum, largestPeak) * 1024;
}

function kilobytes(status, field) {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
  return match ? Number(match[1]) : 0;
}

function readOrUndefined(file) {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function readdirOrEmpty(dir) {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

module.exports = { runMeasuredOrThrow };
