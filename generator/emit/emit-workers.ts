/**
 * Where flows are generated: in worker threads when the machine and the run
 * are large enough to pay for starting them (each loads ts-morph, prettier
 * and ajv itself and warms up on its own), else in this thread. Jobs are handed out as workers free
 * up; results come back per job, so the pipeline reads them in config order
 * and output and progress do not depend on which worker finished first.
 */
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { CodegenError, type CodegenErrorCode, type CodegenErrorContext } from "../errors.js";
import type { EmittedFile } from "./emit-flow.js";
import { runFlowJobOrThrow, runIndexJob, type FlowJob, type FlowJobResult } from "./flow-job.js";

/** Below this many flows to generate, starting threads costs more than it saves. */
const MIN_FLOWS_FOR_WORKERS = 4;
/**
 * Below this many cores the main thread and the workers compete: on 2 cores,
 * 100 flows took 3.35-3.61 s with 2 workers against 2.91-3.36 s in this thread.
 */
const MIN_CORES_FOR_WORKERS = 4;
/** Compiled next to this module; absent when running from the .ts sources (tests), which then use this thread. */
const WORKER_SCRIPT = path.join(__dirname, "emit-worker.js");

export interface FlowRunner {
  runFlow(job: FlowJob): Promise<FlowJobResult>;
  runIndex(names: readonly string[]): Promise<EmittedFile>;
  close(): Promise<void>;
}

/**
 * `workers`: threads to use; 0 = this thread. Default: one per core but the
 * main thread's on machines of MIN_CORES_FOR_WORKERS cores or more, for runs
 * of MIN_FLOWS_FOR_WORKERS flows or more; else 0.
 */
export function createFlowRunner(flowCount: number, workers?: number): FlowRunner {
  const cores = availableParallelism();
  const count = workers ?? (cores >= MIN_CORES_FOR_WORKERS && flowCount >= MIN_FLOWS_FOR_WORKERS ? Math.min(cores - 1, flowCount) : 0);
  if (count < 1 || !existsSync(WORKER_SCRIPT)) return { runFlow: runFlowJobOrThrow, runIndex: runIndexJob, close: async () => {} };
  return new WorkerPool(count);
}

export type WorkerRequest =
  | { readonly id: number; readonly kind: "flow"; readonly job: FlowJob }
  | { readonly id: number; readonly kind: "index"; readonly names: readonly string[] };

export type WorkerError =
  | { readonly codegen: { readonly code: CodegenErrorCode; readonly detail: string; readonly context: CodegenErrorContext } }
  | { readonly message: string; readonly stack: string };

export type WorkerAnswer =
  | { readonly id: number; readonly result: FlowJobResult | EmittedFile }
  | { readonly id: number; readonly error: WorkerError };

interface Pending {
  readonly request: WorkerRequest;
  readonly resolve: (result: FlowJobResult | EmittedFile) => void;
  readonly reject: (error: Error) => void;
}

class WorkerPool implements FlowRunner {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private started = false;

  /** Threads start with the first job: a run whose flows are all reused starts none. */
  constructor(private readonly count: number) {}

  runFlow(job: FlowJob): Promise<FlowJobResult> {
    return this.submit({ id: this.nextId++, kind: "flow", job }) as Promise<FlowJobResult>;
  }

  runIndex(names: readonly string[]): Promise<EmittedFile> {
    return this.submit({ id: this.nextId++, kind: "index", names }) as Promise<EmittedFile>;
  }

  async close(): Promise<void> {
    const workers = [...this.idle, ...this.busy.keys()];
    this.idle.length = 0;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private submit(request: WorkerRequest): Promise<FlowJobResult | EmittedFile> {
    if (!this.started) for (let i = 0; i < this.count; i += 1) this.idle.push(this.startWorker());
    this.started = true;
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop() as Worker;
      const pending = this.queue.shift() as Pending;
      this.busy.set(worker, pending);
      worker.postMessage(pending.request);
    }
  }

  private startWorker(): Worker {
    const worker = new Worker(WORKER_SCRIPT);
    worker.on("message", (answer: WorkerAnswer) => {
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      this.idle.push(worker);
      if (pending) {
        if ("error" in answer) pending.reject(errorFrom(answer.error));
        else pending.resolve(answer.result);
      }
      this.dispatch();
    });
    // A worker that dies (out of memory, a bug) fails its job instead of hanging the run.
    worker.on("error", (error) => {
      this.busy.get(worker)?.reject(error);
      this.busy.delete(worker);
      if (this.busy.size === 0 && this.idle.length === 0) for (const queued of this.queue.splice(0)) queued.reject(error);
    });
    return worker;
  }
}

function errorFrom(error: WorkerError): Error {
  if ("codegen" in error) return new CodegenError(error.codegen.code, error.codegen.detail, error.codegen.context);
  const rebuilt = new Error(error.message);
  rebuilt.stack = error.stack;
  return rebuilt;
}
