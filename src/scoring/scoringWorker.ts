/**
 * The worker thread of `ScoringThreads` (piscina): scores one miner per task. Started through
 * `workerEntry` (src/domain/workerEntry.ts).
 */

import { runMinerTask, type MinerTaskRequest, type MinerTaskResult } from "./minerTask.ts";

/**
 * Runs one miner's task. Results hold plain numbers and arrays: nothing is transferred, so no
 * ArrayBuffer is ever detached in this isolate (which would slow its typed-array loops;
 * bench/README.md).
 * @example runScoringTask(request).crps // piscina calls it with each task
 */
export default function runScoringTask(request: MinerTaskRequest): MinerTaskResult {
  return runMinerTask(request);
}
