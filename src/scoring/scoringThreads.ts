/**
 * Scoring one prompt's miners spread over worker threads, through piscina: each miner is one
 * task, run by the same function as {@link scoreMiners} on the calling thread.
 */

import { availableParallelism } from "node:os";
import { workerEntry } from "../domain/workerEntry.ts";
import type { RealizedPath } from "../domain/records/validation.ts";
import { allocateValues, type PathSet } from "../paths/pathSet.ts";
import { WorkerThreads } from "../paths/workerThreads.ts";
import { allocateKernelScratches } from "./kernelScratch.ts";
import type { MinerTaskRequest, MinerTaskResult } from "./minerTask.ts";
import {
  minerScore,
  prepareCall,
  type MinerPromptScore,
  type ScoreMinersOptions,
} from "./scoreMiners.ts";
import type { ScoringTarget } from "./scoringTarget.ts";

/** Tasks a thread holds at once: the second waits in its port, so that it never idles between two. */
const TASKS_PER_THREAD = 2;

/**
 * Worker threads that score a prompt's miners, as {@link scoreMiners} does on the calling thread.
 * Create them once and reuse them for every prompt (a thread takes ~0.3 s to start; they start
 * at once), and {@link ScoringThreads.close} them at the end; idle threads never keep the process
 * alive.
 * Data: prices in a SharedArrayBuffer are shared with the threads as they are, and read in place
 * (read path sets that way: `pathSetFromPrediction` and `readPathSets` with `{ shared: true }`);
 * other prices are copied by the calling thread into a SharedArrayBuffer staging buffer (one per
 * task in flight, reused), which the thread reads (a thread scores memory it allocated itself
 * more slowly: `kernelScratch.ts`). The caller's arrays are never detached (that would invalidate
 * V8's ArrayBufferDetaching protector of the calling thread).
 * Each thread scores in kernel scratch allocated on this thread (`kernelScratch.ts` says why).
 * @example
 * const threads = new ScoringThreads(2);
 * try {
 *   const scores = await threads.scoreMiners(pathSets, realized, { competition: "crypto-24h" });
 * } finally {
 *   await threads.close();
 * }
 */
export class ScoringThreads {
  /** Worker threads. */
  readonly threads: number;
  private readonly workers: WorkerThreads<MinerTaskRequest, MinerTaskResult>;

  /**
   * `threads` worker threads (default: the machine's available parallelism). Throws
   * `RangeError` unless it is a whole number ≥ 1 (to score on the calling thread, call
   * {@link scoreMiners}).
   * @param threads - worker threads to start, a whole number ≥ 1; the machine's available
   *   parallelism by default.
   * @example new ScoringThreads(2)
   */
  constructor(threads = availableParallelism()) {
    this.workers = new WorkerThreads({
      owner: "ScoringThreads",
      entry: workerEntry(import.meta.url, "scoringWorker"),
      threads,
      tasksPerThread: TASKS_PER_THREAD,
      workerData: (count) => ({ kernelScratch: allocateKernelScratches(count) }),
    });
    this.threads = threads;
  }

  /**
   * {@link scoreMiners} with each miner scored on a worker thread: the same numbers, in the order
   * of `pathSets`. Rejects as `scoreMiners` throws (a `RangeError` for path sets of another
   * prompt or shape, an `Error` naming the miner whose scoring throws), and when the threads are
   * closed or one of them fails.
   * @param pathSets - every miner's path set of one prompt, all of one shape.
   * @param realized - the prompt's realized path.
   * @param target - the competition, or the intervals (name → seconds) to score.
   * @param options - as {@link scoreMiners}'s.
   * @example
   * const scores = await threads.scoreMiners(pathSets, realized, { competition: "crypto-1h" }, { calibration: true });
   */
  async scoreMiners(
    pathSets: readonly PathSet[],
    realized: RealizedPath,
    target: ScoringTarget,
    options: ScoreMinersOptions = {},
  ): Promise<MinerPromptScore[]> {
    this.workers.requireOpen("scoreMiners");
    if (pathSets.length === 0) return [];
    const { plan, requests } = prepareCall("scoreMiners", pathSets, realized, target, options);
    const results = new Array<MinerTaskResult>(requests.length);
    let next = 0;
    let failed = false;
    // Lanes that each send the next miner when their last one is scored: as many as the threads
    // take at once, so that only those miners' ordinary prices are staged at a time.
    const lane = async () => {
      let stage: Float64Array | undefined;
      try {
        while (!failed && next < requests.length) {
          const index = next++;
          let values = pathSets[index].values;
          if (!(values.buffer instanceof SharedArrayBuffer)) {
            if (stage === undefined || stage.length < values.length) {
              stage = allocateValues(values.length, true);
            }
            const staged = stage.subarray(0, values.length);
            staged.set(values);
            values = staged;
          }
          results[index] = await this.workers.run({ ...requests[index], values }, "scoreMiners");
        }
      } catch (error) {
        failed = true;
        throw error;
      }
    };
    const lanes = Math.min(requests.length, this.threads * TASKS_PER_THREAD);
    await Promise.all(Array.from({ length: lanes }, lane));
    return results.map((result, index) => minerScore(plan, requests[index].minerUid, result));
  }

  /**
   * Stops the threads; calls in progress reject. Safe to call twice.
   * @example await threads.close();
   */
  close(): Promise<void> {
    return this.workers.close();
  }
}
