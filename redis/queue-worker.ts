/**
 * The queue's BullMQ worker in this process: started once the queue's
 * connection is usable (at once, or when Redis comes back), paused while
 * Redis is set up in a way the queue refuses, and stopped in an order that
 * never waits on a Redis that is away.
 *
 * Stopping: the worker takes no new job (BullMQ's pause), the jobs under way
 * finish (their callbacks, with the client they use still open), BullMQ
 * records them for at most a bounded time, and only then are its
 * connections ended, without waiting for Redis to answer: a BullMQ close that
 * waits for its jobs waits forever for a connection ioredis is still trying
 * to bring back. A job BullMQ could not record is taken over by another
 * worker once its lock expires, as a killed worker's is.
 */
import type { Job, Worker, WorkerOptions } from "bullmq";
import type { ConnectionState } from "./queue-connection.js";

type Processor<T> = (job: Job<T>) => Promise<void>;

export class QueueWorker<T> {
  private readonly worker: Worker<T>;
  private running = false;
  private stopping = false;
  /** Our processor's calls under way: the callbacks a stop lets finish. */
  private readonly calls = new Set<Promise<void>>();
  /** Jobs BullMQ has handed out and not yet recorded as done or failed. */
  private readonly active = new Set<string | undefined>();

  constructor(
    WorkerClass: typeof Worker,
    name: string,
    process: Processor<T>,
    options: WorkerOptions,
    private readonly failed: (error: unknown) => void,
  ) {
    this.worker = new WorkerClass<T>(name, (job) => this.call(process, job), { ...options, autorun: false });
    this.worker.on("active", (job) => this.active.add(job.id));
    this.worker.on("completed", (job) => this.active.delete(job.id));
    this.worker.on("failed", (job) => this.active.delete(job?.id));
  }

  /** BullMQ's events: "error", "completed", "failed". */
  get events(): Pick<Worker<T>, "on"> {
    return this.worker;
  }

  /** Takes jobs while the connection is usable, none while Redis is set up in a way the queue refuses. */
  follow(state: ConnectionState): void {
    if (this.stopping) return;
    if (state.kind === "refused") void this.worker.pause(true);
    if (state.kind !== "usable") return;
    if (!this.running) {
      this.running = true;
      this.worker.run().catch(this.failed);
    } else if (this.worker.isPaused()) {
      void this.worker.resume();
    }
  }

  /** Stops taking jobs, lets the ones under way finish and be recorded (for up to `recordMs`), then ends the worker's connections. */
  async stop(recordMs: number): Promise<void> {
    this.stopping = true;
    if (this.running) await this.worker.pause(true);
    while (this.calls.size > 0) await Promise.allSettled([...this.calls]);
    await this.recorded(recordMs);
    await this.worker.close(true);
  }

  private async call(process: Processor<T>, job: Job<T>): Promise<void> {
    // Fetched while the worker stops: left to its lock, as a stopped worker's job is.
    if (this.stopping) throw new Error("the worker is stopping");
    const call = process(job);
    this.calls.add(call);
    try {
      await call;
    } finally {
      this.calls.delete(call);
    }
  }

  /** Waits until BullMQ recorded every job it handed out, or `ms` passed. */
  private async recorded(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.active.size > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, RECORD_POLL_MS));
    }
  }
}

/** How often a stop looks whether BullMQ has recorded the last jobs. */
const RECORD_POLL_MS = 10;
