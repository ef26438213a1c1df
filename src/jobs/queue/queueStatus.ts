/**
 * The queue as its user sees it: the counts, the failures with their reasons, the watches; and
 * the failed units put back to run again.
 */

import type { ConnectionOptions } from "bullmq";
import { quietQueue } from "./enqueueUnits.ts";
import { requestRate } from "./requestPacer.ts";

/**
 * The queue's counts and its failed units with their reasons (the most recent first, at most
 * `failedShown`).
 * @param connection - the Redis server holding the queue.
 * @param name - the queue's name, e.g. `pathlab`.
 * @param failedShown - the most failed units listed; 20 by default.
 * @example const status = await queueStatus(connection, "pathlab");
 */
export async function queueStatus(
  connection: ConnectionOptions,
  name: string,
  failedShown = 20,
): Promise<{
  counts: Record<string, number>;
  failed: { unit: string; attempts: number; reason: string }[];
  watches: { id: string; everyMs: number | undefined }[];
  /** The workers' shared request rate (`pathlab worker --requests-per-second`), if any. */
  requestsPerSecond: number | undefined;
}> {
  const queue = quietQueue(name, connection);
  try {
    const counts = await queue.getJobCounts("waiting", "active", "delayed", "completed", "failed");
    const watches = (await queue.getJobSchedulers(0, -1)).map((scheduler) => ({
      id: scheduler.key,
      everyMs:
        scheduler.every === undefined || scheduler.every === null
          ? undefined
          : Number(scheduler.every),
    }));
    const failed = (await queue.getFailed(0, failedShown - 1)).map((job) => ({
      unit: String(job.id),
      attempts: job.attemptsMade,
      reason: job.failedReason,
    }));
    return { counts, failed, watches, requestsPerSecond: await requestRate(connection, name) };
  } finally {
    await queue.close();
  }
}

/**
 * Moves every failed unit of the queue back to waiting, for the workers to run again (after the
 * cause of the failures, a worker's missing key or lake say, was fixed). Resolves to how many.
 * @param connection - the Redis server holding the queue.
 * @param name - the queue's name, e.g. `pathlab`.
 * @example await retryFailed(connection, "pathlab") // => 3
 */
export async function retryFailed(connection: ConnectionOptions, name: string): Promise<number> {
  const queue = quietQueue(name, connection);
  try {
    const failed = await queue.getFailedCount();
    await queue.retryJobs({ state: "failed" });
    return failed;
  } finally {
    await queue.close();
  }
}
