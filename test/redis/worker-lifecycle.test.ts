/**
 * A worker's end, in a real process of the fleet (support/fleet-process.js,
 * on the built packages) sharing a real Redis with this one:
 *
 * - killed inside onSessionEnded: another worker takes its job over once
 *   its lock has expired and the next stalled-job check has run, so between
 *   lockDurationMs / 2 and lockDurationMs + lockDurationMs / 4 after the kill
 *   (docs/many-instances.md), measured here with a small lockDurationMs;
 * - frozen (SIGSTOP) for longer than lockDurationMs: taken over the same way,
 *   and, resumed, it finishes its callback too, as the docs warn, and says
 *   it lost the job;
 * - shut down in the documented order (queue, then client, then store)
 *   while a callback runs, or while Redis is away: the callback finishes,
 *   nothing is reported as not handled, and the process exits by itself.
 */
import { expect } from "@jest/globals";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SessionEnded } from "../../runtime/index.js";
import { startRedis, type RunningRedis } from "../support/redis-server.js";
import { waitFor } from "../support/wait-for.js";
import { useFleetProcesses } from "./support/fleet-processes.js";
import { freshQueueName, SECRET, send, settled, useQueueTestbed } from "./support/queue-testbed.js";

const { sessions, instance, endedSession, opened } = useQueueTestbed();
const { start } = useFleetProcesses();
/** Processes load the built packages: seconds on a loaded machine. The bound is for a run that hangs. */
const PROCESS_TEST_TIMEOUT_MS = 120_000;

/** A Redis set up as the docs ask (an append-only file), and a folder for the processes' completion files, both removed after the test. */
async function setUp(): Promise<{ redis: RunningRedis; doneDir: string }> {
  const redis = await startRedis({ config: { appendonly: "yes" } });
  opened.push(redis);
  const doneDir = mkdtempSync(path.join(tmpdir(), "flowsmith-worker-"));
  opened.push({
    close: () => {
      rmSync(doneDir, { recursive: true, force: true });
      return Promise.resolve();
    },
  });
  return { redis, doneDir };
}

/** A backend process's settings on this test's emulator and Redis. */
function backend(redis: RunningRedis, doneDir: string, settings: Record<string, unknown>): Record<string, unknown> {
  const { emulator } = sessions();
  return {
    mode: "backend",
    redisUrl: redis.url,
    api: { baseUrl: emulator.baseUrl, authUrl: emulator.authUrl, ...emulator.clients.staging },
    keyPrefix: `${String(settings.queueName)}:`,
    secret: SECRET,
    doneDir,
    startWorker: true,
    ...settings,
  };
}

/**
 * Process scheduling, the recovering worker's read of the session from the
 * API over loopback, and timers that fire late on a loaded machine: added to
 * the bound, never subtracted from the lower one.
 */
const SCHEDULING_MS = 1_500;

test(
  "a worker killed inside onSessionEnded: another takes its job over between lockDurationMs/2 and lockDurationMs + lockDurationMs/4 after the kill, and handles it once",
  async () => {
    const { redis, doneDir } = await setUp();
    const lockDurationMs = 3_000;
    const queueName = freshQueueName();
    const victim = start(backend(redis, doneDir, { queueName, victim: true, concurrency: 1, lockDurationMs }));
    const { url } = await victim.next<{ url: string }>("ready");
    const recovered: { ended: SessionEnded; at: number }[] = [];
    const other = await instance({
      connection: redis.url,
      name: queueName,
      lockDurationMs,
      onSessionEnded: (ended) => void recovered.push({ ended, at: Date.now() }),
    });
    const sessionId = await endedSession();
    expect((await send(`${url}/webhooks`, sessionId)).status).toBe(204);
    expect(await victim.next<string>("entered")).toBe(sessionId);
    // The rest of the fleet is running when the victim dies.
    await other.queue.startWorker();
    victim.child.kill("SIGKILL");
    const killedAt = Date.now();
    await victim.exited;
    await waitFor("another worker to take the job over", () => recovered.length === 1, 30_000);
    const recoveryMs = recovered[0]!.at - killedAt;
    expect(recoveryMs).toBeGreaterThanOrEqual(lockDurationMs / 2);
    expect(recoveryMs).toBeLessThanOrEqual(lockDurationMs + lockDurationMs / 4 + SCHEDULING_MS);
    expect(recovered[0]!.ended.sessionId).toBe(sessionId);
    expect(await settled(other.queue)).toMatchObject({ completed: 1, failed: 0 });
  },
  PROCESS_TEST_TIMEOUT_MS,
);

test(
  "a worker frozen (SIGSTOP) inside onSessionEnded for longer than lockDurationMs: another takes the job over; resumed, it finishes too, so the session is handled twice, as the docs say, and its onError says it lost the job",
  async () => {
    const { redis, doneDir } = await setUp();
    const lockDurationMs = 2_000;
    const queueName = freshQueueName();
    const frozen = start(backend(redis, doneDir, { queueName, concurrency: 1, lockDurationMs, callbackMs: 200 }));
    const { url } = await frozen.next<{ url: string }>("ready");
    const other = await instance({ connection: redis.url, name: queueName, lockDurationMs });
    const sessionId = await endedSession();
    expect((await send(`${url}/webhooks`, sessionId)).status).toBe(204);
    await frozen.next("entered");
    frozen.child.kill("SIGSTOP");
    try {
      await other.queue.startWorker();
      await waitFor("another worker to take the job over", () => other.handled.length === 1, 30_000);
    } finally {
      frozen.child.kill("SIGCONT");
    }
    await waitFor(
      "the resumed worker to finish its callback",
      () => readdirSync(doneDir).some((file) => file.startsWith(`${sessionId}.`)),
      30_000,
    );
    await waitFor(
      "the resumed worker to say it lost the job",
      () => frozen.stderr().includes("a key the queue needs is gone"),
      30_000,
    );
    expect(frozen.stderr()).toMatch(
      /Redis: flowsmith webhook queue: a key the queue needs is gone \(evicted, expired while a worker was frozen or cut off from Redis, or deleted\) \((Lock mismatch|Missing lock) for job /,
    );
    expect(await settled(other.queue)).toMatchObject({ completed: 1, failed: 0 });
  },
  PROCESS_TEST_TIMEOUT_MS,
);

describe("shut down in the documented order, the process exits by itself, and nothing is reported as not handled", () => {
  test(
    "while a callback runs: it finishes first",
    async () => {
      const { redis, doneDir } = await setUp();
      const running = start(backend(redis, doneDir, { queueName: freshQueueName(), concurrency: 2, callbackMs: 500 }));
      const { url } = await running.next<{ url: string }>("ready");
      const sessionId = await endedSession();
      expect((await send(`${url}/webhooks`, sessionId)).status).toBe(204);
      await running.next("entered");
      running.child.send("stop");
      expect(await running.exited).toBe(0);
      expect(
        readdirSync(doneDir).filter((file) => file.startsWith(`${sessionId}.`) && file.endsWith(".done")),
      ).toHaveLength(1);
      expect(running.stderr()).toBe("");
    },
    PROCESS_TEST_TIMEOUT_MS,
  );

  test(
    "while Redis is down",
    async () => {
      const { redis, doneDir } = await setUp();
      const running = start(backend(redis, doneDir, { queueName: freshQueueName(), concurrency: 2 }));
      await running.next("ready");
      await redis.stop();
      await waitFor("the outage to be reported", () => running.stderr().includes("Redis is unreachable"));
      running.child.send("stop");
      expect(await running.exited).toBe(0);
      expect(running.stderr()).not.toMatch(/not handled|ClientClosedError/);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
