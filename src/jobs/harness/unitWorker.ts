/**
 * The unit pool's worker thread (piscina): runs one task at a time as it arrives, and returns a
 * task's error as a record (`threadErrors.ts`) so that its name and fields reach the job.
 */

import { move, transferableSymbol, valueSymbol } from "piscina";
import { runPromptTask, type PromptTask } from "../score/promptTask.ts";
import type { CheckedUnit } from "../sync/checkedUnit.ts";
import { runSyncTask, type SyncTask } from "../sync/task.ts";
import { threadError } from "./threadErrors.ts";

/**
 * Runs one task of the unit pool.
 * @example await runUnitTask(task) // piscina calls it with each task
 */
export default async function runUnitTask(task: PromptTask | SyncTask): Promise<unknown> {
  try {
    if (task.kind === "score prompt") return await runPromptTask(task);
    if (task.kind === "sync unit") return movedPathSets(await runSyncTask(task));
  } catch (error) {
    return threadError(error);
  }
  throw new TypeError(
    `unit pool: unknown task kind ${JSON.stringify((task as { kind: unknown }).kind)}`,
  );
}

/**
 * A sync unit's result with its path sets' buffers moved to the job's thread rather than copied
 * (about 23 MB for a 24h unit); the thread does not read them again.
 */
function movedPathSets(result: CheckedUnit): unknown {
  const buffers = new Set<ArrayBuffer>();
  for (const { pathSet } of result.rows?.pathSets ?? []) {
    if (pathSet.values.buffer instanceof ArrayBuffer) buffers.add(pathSet.values.buffer);
  }
  return move({ [transferableSymbol]: [...buffers], [valueSymbol]: result } as never);
}
