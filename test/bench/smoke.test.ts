/**
 * Keeps the benchmark alive: `node bench/run.js --smoke` runs every benchmark
 * once with tiny sizes (3 flows, 1 round, 64 KB files) against the compiled
 * dist/ output, and must finish with a ratio for every comparison. Goals are
 * not asserted here (timings on a shared machine are noise); the one exact
 * figure, a single token request for 200 concurrent calls, is.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const REPO_ROOT = path.resolve(__dirname, "..", "..");

interface BenchRow {
  readonly benchmark: string;
  readonly flowsmith: string;
  readonly baseline: string;
  readonly ratio: number | null;
  /** True where the ratio is the comparison (absolute goals have none). */
  readonly compared: boolean;
  readonly met: boolean | null;
}

/** The benchmark runs on dist/: `npm test` builds it before jest; say so plainly when it is missing. */
beforeAll(() => {
  for (const built of ["dist/generator/cli.js", "runtime/dist/index.js", "dist/emulator/index.js"]) {
    if (!existsSync(path.join(REPO_ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` first`);
  }
});

describe("bench/run.js --smoke", () => {
  test(
    "runs every benchmark once and reports a ratio for each comparison",
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "flowsmith-bench-"));
      const jsonPath = path.join(dir, "rows.json");
      try {
        await promisify(execFile)(process.execPath, ["bench/run.js", "--smoke", "--json", jsonPath], {
          cwd: REPO_ROOT,
          maxBuffer: 16 * 1024 * 1024,
        });
        const { rows } = JSON.parse(readFileSync(jsonPath, "utf8")) as { rows: BenchRow[] };
        const numbers = rows.map((row) => row.benchmark.split(".")[0]);
        // 7 (the production install) is left to test/packages: the smoke run skips it.
        expect([...new Set(numbers)]).toEqual(["1", "2a", "2b", "3", "4", "5", "6", "8", "9", "10"]);
        const compared = rows.filter((row) => row.compared);
        // 9 (emulator vs Prism) is measured only where a full run has installed Prism.
        const prismMeasured = rows.some((row) => row.benchmark.startsWith("9.") && row.compared);
        expect([...new Set(compared.map((row) => row.benchmark.split(".")[0]))]).toEqual(["1", "2a", "2b", "3", "4", "5", ...(prismMeasured ? ["9"] : [])]);
        for (const row of compared) {
          expect({ benchmark: row.benchmark, finite: Number.isFinite(row.ratio) && (row.ratio ?? 0) > 0 }).toEqual({
            benchmark: row.benchmark,
            finite: true,
          });
        }
        const singleFlight = rows.find((row) => row.benchmark.startsWith("6."));
        expect(singleFlight?.met).toBe(true);
        expect(rows.find((row) => row.benchmark.startsWith("8."))?.met).toBe(true);
        // Runtime memory: readings for flowsmith and the undici baseline; goals are judged in full runs only.
        const runtimeMemory = rows.filter((row) => row.benchmark.startsWith("10."));
        expect(runtimeMemory).toHaveLength(2);
        for (const row of runtimeMemory) {
          expect([row.flowsmith, row.baseline]).toEqual([expect.stringMatching(/MB → .* MB/), expect.stringMatching(/^undici .* MB → /)]);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
