/**
 * The unit pool: whole units (one scored prompt, or one sync unit up to its write) on worker
 * threads, through piscina. Each thread fetches, parses, checks and scores or recomputes its unit
 * with its own client, so that the job's thread only plans, stores and compares; a unit's work
 * never crosses threads.
 */

import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { workerEntry } from "../../domain/workerEntry.ts";
import type { PromptPool } from "../score/scorePromptPool.ts";
import type { PromptTask } from "../score/promptTask.ts";
import type { CheckedUnit } from "../sync/checkedUnit.ts";
import type { SyncTask } from "../sync/task.ts";
import { resultOfThread } from "./threadErrors.ts";

/**
 * A pool of `threads` worker threads (0: none; then use the job's own thread instead).
 * @example const pool = new UnitPool(2); const scored = await pool.scorePrompt(task, signal); await pool.close();
 */
export class UnitPool {
  readonly threads: number;
  private readonly piscina: Piscina<PromptTask | SyncTask, unknown> | undefined;

  constructor(threads: number) {
    if (!(Number.isInteger(threads) && threads >= 0)) {
      throw new RangeError(`UnitPool requires a whole number of threads ≥ 0, got ${threads}`);
    }
    this.threads = threads;
    this.piscina =
      threads === 0
        ? undefined
        : new Piscina<PromptTask | SyncTask, unknown>({
            filename: fileURLToPath(workerEntry(import.meta.url, "unitWorker")),
            minThreads: 0,
            maxThreads: threads,
            // Tasks wait on the network: the threads' event loops must run between them.
            atomics: "disabled",
            idleTimeout: 1000,
          });
  }

  /**
   * Units that keep every thread busy: one each (piscina gives a task that can be aborted, as
   * every unit's can, a thread of its own).
   */
  get capacity(): number {
    return Math.max(1, this.threads);
  }

  /**
   * Scores one prompt on a pool thread; `signal` stops it (its thread is then replaced).
   * @example const pool = await units.scorePrompt(task, deadline.signal);
   */
  scorePrompt(task: PromptTask, signal?: AbortSignal): Promise<PromptPool> {
    if (this.piscina === undefined) {
      return Promise.reject(new Error("UnitPool.scorePrompt: the pool has no threads"));
    }
    return this.piscina
      .run(task, signal === undefined ? {} : { signal })
      .then((result) => resultOfThread<PromptPool>(result));
  }

  /**
   * Fetches and checks one sync unit on a pool thread (`runSyncTask`), its channel's port moved
   * there; `signal` stops it (its thread is then replaced).
   * @example const checked = await units.checkSyncUnit(task, signal);
   */
  checkSyncUnit(task: SyncTask, signal?: AbortSignal): Promise<CheckedUnit> {
    if (this.piscina === undefined) {
      return Promise.reject(new Error("UnitPool.checkSyncUnit: the pool has no threads"));
    }
    return this.piscina
      .run(task, { ...(signal !== undefined && { signal }), transferList: [task.channel] })
      .then((result) => resultOfThread<CheckedUnit>(result));
  }

  /** Stops the threads (after the running units). */
  async close(): Promise<void> {
    await this.piscina?.destroy();
  }
}
