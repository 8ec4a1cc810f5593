/**
 * Entry of a codegen worker thread (see emit-workers.ts): runs the jobs it is
 * sent one at a time and answers each with its result or its error.
 */
import { parentPort } from "node:worker_threads";
import { CodegenError } from "../errors.js";
import { preloadFlowJob, runFlowJobOrThrow, runIndexJob } from "./flow-job.js";
import type { WorkerAnswer, WorkerRequest, WorkerError } from "./emit-workers.js";

// A worker is started to generate: load what that needs while the pipeline reads sources.
void preloadFlowJob();

parentPort?.on("message", (request: WorkerRequest) => {
  const work = request.kind === "flow" ? runFlowJobOrThrow(request.job) : runIndexJob(request.names);
  work.then(
    (result) => parentPort?.postMessage({ id: request.id, result } satisfies WorkerAnswer),
    (error: unknown) => parentPort?.postMessage({ id: request.id, error: serializable(error) } satisfies WorkerAnswer),
  );
});

/** Errors cross threads as plain data; CodegenError keeps its code and context. */
function serializable(error: unknown): WorkerError {
  if (error instanceof CodegenError) return { codegen: { code: error.code, detail: error.detail, context: error.context } };
  const plain = error instanceof Error ? error : new Error(String(error));
  return { message: plain.message, stack: plain.stack ?? "" };
}
