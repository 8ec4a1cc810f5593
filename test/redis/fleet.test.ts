/**
 * The fleet, as real processes (support/fleet-process.js, on the built
 * packages) sharing a real Redis:
 *
 * - three backends (handler + worker each) behind a round-robin proxy that
 *   also copies every delivery to a second backend; the emulator sends the
 *   session-ended webhooks; one backend is killed with SIGKILL while inside
 *   onSessionEnded. Every session's onSessionEnded completes exactly once,
 *   counted across the processes by the files they write, and none is missing.
 * - tokens: 3 processes x 50 concurrent cold calls make one token request,
 *   and so do 10 processes run one after another.
 */
import { expect } from "@jest/globals";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Queue } from "bullmq";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { ALL_FLOWS } from "../emulator/fixtures.js";
import { startEmulatedSessions } from "../runtime/support/emulated-sessions.js";
import { startProxy } from "../support/http-proxy.js";
import { startRedis, type RunningRedis } from "../support/redis-server.js";
import { closeStarted } from "../support/teardown.js";
import { waitFor } from "../support/wait-for.js";
import { useFleetProcesses, type FleetProcess } from "./support/fleet-processes.js";

const SECRET = `whsec_${randomBytes(32).toString("base64")}`;
const SESSIONS = 24;
/**
 * Each test starts processes (three, or ten one after another) that load the
 * packages: a few seconds on a quiet machine, ten times that on a loaded one.
 * The bound is for a run that hangs, not a measure.
 */
const PROCESS_TEST_TIMEOUT_MS = 180_000;

let redis: RunningRedis;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  // Set up as docs/many-instances.md asks for its guarantees: an append-only file, no eviction.
  redis = await startRedis({ config: { appendonly: "yes" } });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => closeStarted(redis));

const { start: startProcess } = useFleetProcesses();
const start = (settings: Record<string, unknown>): FleetProcess => startProcess({ redisUrl: redis.url, ...settings });

describe("webhooks", () => {
  test(
    "3 backends, every delivery sent to two of them, one killed with SIGKILL inside onSessionEnded: each session completes exactly once",
    async () => {
      const doneDir = mkdtempSync(path.join(tmpdir(), "flowsmith-fleet-"));
      cleanups.push(() => {
        rmSync(doneDir, { recursive: true, force: true });
        return Promise.resolve();
      });
      const proxy = await startProxy({ targets: [], duplicate: true });
      cleanups.push(() => proxy.close());
      // The emulator retries a delivery the proxy answered 502 (the killed backend) on the next backend in turn.
      const sessions = await startEmulatedSessions({
        webhookUrl: `${proxy.url}/webhooks`,
        webhookSecret: SECRET,
        webhookRetryDelaysMs: [100, 300, 1000, 2000, 4000],
      });
      cleanups.push(() => sessions.close());
      const { emulator } = sessions;
      const common = {
        mode: "backend",
        api: { baseUrl: emulator.baseUrl, authUrl: emulator.authUrl, ...emulator.clients.staging },
        keyPrefix: `fleet-webhooks:`,
        secret: SECRET,
        doneDir,
        queueName: "fleet-webhooks",
        lockDurationMs: 1_500,
      };
      // Only the victim's worker runs at first, one job at a time, so the first job is its and it is inside it when killed;
      // the others' workers start once it is dead (their handlers take deliveries from the start).
      const victim = start({ ...common, victim: true, startWorker: true, concurrency: 1 });
      const others = [start({ ...common, concurrency: 4 }), start({ ...common, concurrency: 4 })];
      const urls = await Promise.all([victim, ...others].map((backend) => backend.next<{ url: string }>("ready")));
      for (const { url } of urls) proxy.add(url);
      const killed = victim.next<string>("entered").then(async (sessionId) => {
        victim.child.kill("SIGKILL");
        proxy.remove(urls[0]!.url);
        await victim.exited;
        await Promise.all(others.map((backend) => (backend.child.send("start-worker"), backend.next("workerStarted"))));
        return sessionId;
      });

      const ids: string[] = [];
      for (let batch = 0; batch < SESSIONS / 6; batch++) {
        ids.push(...(await Promise.all(Array.from({ length: 6 }, () => sessions.create("fleet")))));
      }
      await Promise.all(ids.map((id) => sessions.end(id, "ACCEPTED")));
      const interrupted = await killed;
      expect(ids).toContain(interrupted);

      const completions = () => readdirSync(doneDir).filter((file) => file.endsWith(".done"));
      await waitFor(
        "every session to complete",
        () => new Set(completions().map((file) => file.split(".")[0])).size === SESSIONS,
        90_000,
      );
      // No more deliveries (the emulator's retries end with it), and nothing left in the queue to run.
      await sessions.emulator.close();
      const queue = new Queue("fleet-webhooks", { connection: { url: redis.url }, prefix: "flowsmith" });
      cleanups.push(() => queue.close());
      await waitFor("the queue to settle", async () => {
        const counts = await queue.getJobCounts("waiting", "active", "delayed");
        return counts.waiting === 0 && counts.active === 0 && counts.delayed === 0;
      });
      const perSession = new Map<string, number>();
      for (const file of completions())
        perSession.set(file.split(".")[0]!, (perSession.get(file.split(".")[0]!) ?? 0) + 1);
      expect([...perSession.keys()].sort()).toEqual([...ids].sort());
      expect([...perSession.values()].every((count) => count === 1)).toBe(true);
      // The killed backend wrote nothing: the interrupted session was completed by another.
      expect(completions().filter((file) => file.includes(`.${String(victim.child.pid)}.`))).toEqual([]);
      expect(await queue.getJobCounts("completed", "failed")).toEqual({ completed: SESSIONS, failed: 0 });
      await Promise.all(others.map((backend) => (backend.child.send("stop"), backend.exited)));
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});

describe("tokens", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ flows: ALL_FLOWS });
  });
  afterAll(() => closeStarted(emulator));

  async function countingAuth(delayMs = 0): Promise<{ url: string; tokenRequests: () => number }> {
    const proxy = await startProxy({ targets: [emulator.authUrl], delayMs });
    cleanups.push(() => proxy.close());
    return { url: proxy.url, tokenRequests: () => proxy.received.filter((r) => r.path === "/oidc/token").length };
  }

  const callsProcess = (authUrl: string, keyPrefix: string, calls: number, waitForGo: boolean) =>
    start({
      mode: "calls",
      api: { baseUrl: emulator.baseUrl, authUrl, ...emulator.clients.staging },
      keyPrefix,
      calls,
      waitForGo,
    });

  test(
    "3 processes x 50 concurrent cold calls: 1 token request",
    async () => {
      // The token answer is held back, so the first calls of all three overlap.
      const auth = await countingAuth(300);
      const processes = [1, 2, 3].map(() => callsProcess(auth.url, "fleet-concurrent:", 50, true));
      await Promise.all(processes.map((p) => p.next("ready")));
      for (const p of processes) p.child.send("go");
      const reports = await Promise.all(processes.map((p) => p.next<{ ok: number; failed: string[] }>("done")));
      expect(reports).toEqual([1, 2, 3].map(() => ({ ok: 50, failed: [] })));
      expect(auth.tokenRequests()).toBe(1);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  test(
    "10 processes one after another: 1 token request",
    async () => {
      const auth = await countingAuth();
      for (let i = 0; i < 10; i++) {
        const p = callsProcess(auth.url, "fleet-sequential:", 1, false);
        expect(await p.next("done")).toEqual({ ok: 1, failed: [] });
        expect(await p.exited).toBe(0);
      }
      expect(auth.tokenRequests()).toBe(1);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
