/**
 * The insight pool's worker thread: runs each {@link InsightTaskRequest} it is sent and posts the
 * {@link InsightTaskResult} on its result port, then bumps the pool's shared signal (so that a
 * blocking call sleeping in `Atomics.wait` wakes up). Started through `workerEntry` (src/domain/workerEntry.ts).
 */

import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { runInsightTask, type InsightTaskRequest, type InsightTaskResult } from "./insightTasks.ts";

const port = parentPort;
const { port: results, signal } = (workerData ?? {}) as {
  port?: MessagePort;
  signal?: Int32Array;
};
if (port === null || results === undefined || signal === undefined) {
  throw new Error("insightWorker.ts must run in a worker thread started by InsightPool");
}

/** Posts a message on the result port and wakes a blocked caller. */
function post(message: InsightTaskResult | { readonly ready: true }): void {
  results!.postMessage(message);
  Atomics.add(signal!, 0, 1);
  Atomics.notify(signal!, 0);
}

port.on("message", (request: InsightTaskRequest) => {
  // The parts are plain typed arrays, cloned into the caller (nothing transferred, so no
  // ArrayBuffer is detached in either isolate); the paths and block returns stay shared.
  try {
    post({ taskId: request.taskId, parts: runInsightTask(request.task) });
  } catch (error) {
    post({ taskId: request.taskId, error: error instanceof Error ? error.message : String(error) });
  }
});
post({ ready: true });
