/**
 * The worker thread of `InsightThreads` (piscina): runs one {@link InsightTask} per task. Started
 * through `workerEntry` (src/domain/workerEntry.ts).
 */

import { runInsightTask, type InsightTask, type InsightTaskResult } from "./insightTasks.ts";

/**
 * Runs one task; a task that throws gives its error's message (the session then computes that
 * part itself), so that only a thread's failure rejects. The parts are plain typed arrays, cloned
 * into the caller (nothing transferred, so no ArrayBuffer is detached in either isolate); the
 * paths and block returns stay shared.
 * @example runThreadTask({ kind: "step-percentiles", values, nPaths: 10000, nPoints: 289 }) // piscina calls it with each task
 */
export default function runThreadTask(task: InsightTask): InsightTaskResult {
  try {
    return { parts: runInsightTask(task) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
