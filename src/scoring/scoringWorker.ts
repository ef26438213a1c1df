/**
 * The scoring pool's worker thread: runs each {@link MinerTaskRequest} it is sent and posts the
 * {@link MinerTaskResult} on its result port, then bumps the pool's shared signal (so that a
 * blocking call sleeping in `Atomics.wait` wakes up). Started through `workerEntry`
 * (src/domain/workerEntry.ts).
 */

import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { runMinerTask, type MinerTaskRequest } from "./minerTask.ts";

const port = parentPort;
const { port: results, signal } = (workerData ?? {}) as {
  port?: MessagePort;
  signal?: Int32Array;
};
if (port === null || results === undefined || signal === undefined) {
  throw new Error("scoringWorker.ts must run in a worker thread started by ScoringPool");
}

/** Posts a message on the result port and wakes a blocked caller. */
function post(message: unknown): void {
  results!.postMessage(message);
  Atomics.add(signal!, 0, 1);
  Atomics.notify(signal!, 0);
}

port.on("message", (request: MinerTaskRequest) => {
  // Results hold plain numbers and arrays: nothing is transferred, so no ArrayBuffer is ever
  // detached in this isolate (which would slow its typed-array loops; bench/README.md).
  post(runMinerTask(request));
});
post({ ready: true });
