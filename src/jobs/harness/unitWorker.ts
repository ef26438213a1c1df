/**
 * The unit pool's worker thread (piscina): runs one task at a time as it arrives.
 */

import { move, transferableSymbol, valueSymbol } from "piscina";
import { runPromptTask, type PromptTask } from "../score/promptTask.ts";
import type { CheckedUnit } from "../sync/checkedUnit.ts";
import { runSyncTask, type SyncTask } from "../sync/task.ts";

/**
 * Runs one task of the unit pool.
 * @example await runUnitTask(task) // piscina calls it with each task
 */
export default async function runUnitTask(task: PromptTask | SyncTask): Promise<unknown> {
  if (task.kind === "score prompt") return runPromptTask(task);
  if (task.kind === "sync unit") return movedPathSets(await runSyncTask(task));
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
