/**
 * The unit pool's worker thread (piscina): runs one task at a time as it arrives.
 */

import { runPromptTask, type PromptTask } from "./promptTask.ts";

/**
 * Runs one task of the unit pool.
 * @example await runUnitTask(task) // piscina calls it with each task
 */
export default async function runUnitTask(task: PromptTask): Promise<unknown> {
  if (task.kind === "score prompt") return runPromptTask(task);
  throw new TypeError(
    `unit pool: unknown task kind ${JSON.stringify((task as { kind: unknown }).kind)}`,
  );
}
