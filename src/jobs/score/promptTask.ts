/**
 * One prompt of the score job as a task for the unit pool: plain data in (the service to reach,
 * the prompt, the miners and the uid holders that key them), the prompt's pool out, computed by
 * `scorePromptPool` exactly as on the job's own thread.
 */

import type { EraSettings } from "../../domain/eras.ts";
import { minerKeysOf, type MinerKeys } from "./minerKeys.ts";
import type { PlannedPrompt } from "./rangePrompts.ts";
import { UnitDeadline } from "../harness/unitDeadline.ts";
import { threadClient, type TaskClientOptions } from "../../service/threadClients.ts";
import { scorePromptPool, type PromptCandidate, type PromptPool } from "./scorePromptPool.ts";

/**
 * A prompt to score on a pool thread.
 * @example const task: PromptTask = { kind: "score prompt", client, keys: keys.changes, prompt, ownOnly, selected, eraSettings, candidate };
 */
export interface PromptTask {
  readonly kind: "score prompt";
  readonly client: TaskClientOptions;
  /** The uid holders of the run (`MinerKeys.changes`): the thread makes the same keys from them. */
  readonly keys: MinerKeys["changes"];
  readonly prompt: PlannedPrompt;
  readonly ownOnly: boolean;
  readonly selected: readonly number[] | undefined;
  readonly eraSettings: EraSettings;
  readonly candidate: PromptCandidate;
  /** The prompt's deadline, from when its thread starts it: its requests stop then. */
  readonly deadlineMs: number;
  /** The error's message when the deadline passes. */
  readonly deadlineMessage: string;
}

/** The keys kept by a thread across its tasks (one run's holders). */
let lastKeys: { changes: MinerKeys["changes"]; keys: MinerKeys } | undefined;

/**
 * Runs `task` on this thread: its client (made once per thread and options), its keys, and the
 * prompt scored on this thread (no pool inside a pool thread).
 * @example const pool = await runPromptTask(task);
 */
export async function runPromptTask(task: PromptTask): Promise<PromptPool> {
  const client = threadClient(task.client);
  // Structured cloning gives each task its own copy of the changes: compare them by content.
  const keys =
    lastKeys !== undefined && sameChanges(lastKeys.changes, task.keys)
      ? lastKeys.keys
      : minerKeysOf(task.keys);
  lastKeys = { changes: task.keys, keys };
  const deadline = new UnitDeadline(task.deadlineMs, undefined, task.deadlineMessage);
  deadline.start();
  try {
    const scored = await scorePromptPool(
      {
        client: client.withSignal(deadline.signal),
        scoringThreads: undefined,
        keys,
        ownOnly: task.ownOnly,
        selected: task.selected,
        eraSettings: task.eraSettings,
      },
      task.prompt,
      task.candidate,
    );
    deadline.signal.throwIfAborted();
    return scored;
  } catch (error) {
    if (deadline.passed) throw deadline.signal.reason as Error;
    throw error;
  } finally {
    deadline.stop();
  }
}

function sameChanges(first: MinerKeys["changes"], second: MinerKeys["changes"]): boolean {
  if (first.size !== second.size) return false;
  for (const [uid, list] of first) {
    const other = second.get(uid);
    if (other === undefined || other.length !== list.length) return false;
    for (let index = 0; index < list.length; index++) {
      if (other[index].timeUnix !== list[index].timeUnix) return false;
      if (other[index].hotkey !== list[index].hotkey) return false;
    }
  }
  return true;
}
