/**
 * Preparing a session's records on two threads: the calling thread makes its one pass over the
 * paths while a worker thread (piscina) computes the whole-ensemble intermediates beside it.
 */

import { WorkerThreads } from "../paths/workerThreads.ts";
import { workerEntry } from "../domain/workerEntry.ts";
import type { InsightContext } from "./context.ts";
import type { InsightTask, InsightTaskResult } from "./insightTasks.ts";
import type { RecomputablePath } from "./recompute.ts";
import type { InsightSession } from "./session.ts";
import {
  TASKS_PER_SET,
  finish,
  planTasks,
  prepareOnThisThread,
  runLocal,
  type PlannedTask,
} from "./threadShares.ts";

/**
 * Prepares an {@link InsightSession} for a set of records on two threads: what `prepareRecords`
 * computes, plus the two whole-ensemble intermediates that dominate a full set, each on a worker
 * thread while the calling thread makes its pass over the paths.
 * - a worker computes the step percentiles of the prediction percentiles record
 *   (`InsightSession.stepPercentiles`: a transposition and a selection per step);
 * - a worker computes the previous prompt's block log returns, their percentiles and (when they
 *   are the volatility record's points: a start on a clock block's end) their volatilities, for
 *   the `forecast_past` of the volatility records, when `context.previous.ensemble` is an
 *   {@link InsightSession} (a plain ensemble gets a new session in every record, which could not
 *   keep them);
 * - the calling thread runs `prepareRecords` (running extremes, LP counts, block returns), the
 *   current prompt's volatility points and block percentiles, and then `meanwhile`, if given,
 *   before it waits for the workers: the place for the records that need no worker part (all
 *   but the prediction percentiles and the two volatility records), which then overlap with the
 *   workers (~3 ms of a full set; bench/README.md). A record computed there that needs a worker
 *   part computes it itself (the same numbers, only slower);
 * - over paths in a SharedArrayBuffer, the pass writes the current block returns into shared
 *   memory too, and a worker then takes the first half of the current block percentiles while
 *   the calling thread computes the second half (the two threads' shares measured balanced that
 *   way; bench/README.md).
 * The workers run the same kernels on the same numbers, so every record computed afterwards
 * equals, number for number, the record computed on one thread; the threads only save time
 * (~1.8× for a 10 × 1,000 × 289 set on 2 cores; bench/README.md). Paths in a SharedArrayBuffer
 * (`ensembleOf(pathSets, { shared: true })`) are read in place; others are copied into one
 * first. A task that throws in a worker is dropped (the record then computes it itself and
 * reports its own error). Create the threads once, reuse them, and
 * {@link InsightThreads.close} them; idle threads never keep the process alive.
 * @example
 * const threads = new InsightThreads();
 * try {
 *   let bounds;
 *   await threads.prepareRecords(session, context, RECOMPUTABLE_PATHS, () => {
 *     bounds = recompute("/insights/lp-bounds", session, context);
 *   });
 *   const percentiles = recompute("/insights/prediction-percentiles", session, context);
 * } finally {
 *   await threads.close();
 * }
 */
export class InsightThreads {
  /** Worker threads beside the calling thread. */
  readonly threads: number;
  private readonly workers: WorkerThreads<InsightTask, InsightTaskResult>;

  /**
   * `threads` worker threads beside the calling thread (default 1: a set has two tasks for
   * workers, the second of which fits beside the first, so more add little). They start at once
   * (~0.3 s). Throws `RangeError` unless `threads` is a whole number ≥ 1 (to prepare on the
   * calling thread alone, call `prepareRecords`).
   * @param threads - worker threads to start beside the calling thread, a whole number ≥ 1; 1 by
   *   default.
   * @example new InsightThreads(1)
   */
  constructor(threads = 1) {
    this.workers = new WorkerThreads({
      owner: "InsightThreads",
      entry: workerEntry(import.meta.url, "insightWorker"),
      threads,
      // Every task of a set goes to a thread at once: the calling thread returns to its event
      // loop, where piscina hands out queued tasks, only after its own share.
      tasksPerThread: TASKS_PER_SET,
    });
    this.threads = threads;
  }

  /**
   * `prepareRecords(session, context, paths)` and the intermediates above, on the workers and
   * the calling thread, which calls `meanwhile` (if given) once its own share is done, before
   * it waits for the workers; resolves when the session (and the previous prompt's session) hold
   * them. Rejects as `prepareRecords` or `meanwhile` throws (a context that does not fit), and
   * when the threads are closed or one of them fails.
   * @param session - the session that keeps what is prepared.
   * @param context - the records' context, as {@link recompute} takes it.
   * @param paths - the spec paths of the records that will be computed.
   * @param meanwhile - called once on the calling thread after its own share, while the workers
   *   finish theirs; nothing by default.
   * @example await threads.prepareRecords(session, context, RECOMPUTABLE_PATHS);
   */
  async prepareRecords(
    session: InsightSession,
    context: InsightContext,
    paths: readonly RecomputablePath[],
    meanwhile?: () => void,
  ): Promise<void> {
    this.workers.requireOpen("prepareRecords");
    const planned = planTasks(session, context, paths);
    if (planned.length === 0) {
      prepareOnThisThread(session, context, paths);
      meanwhile?.();
      return;
    }
    const sent: PlannedTask[] = [];
    const results: Promise<InsightTaskResult | Error>[] = [];
    const offload = (item: PlannedTask): void => {
      sent.push(item);
      // A thread's failure, as an error for `finish` (a task's own error is a result).
      const result = this.workers.run(item.task, "prepareRecords");
      results.push(result.catch((error: unknown) => asError(error)));
    };
    planned.forEach(offload);
    const local = runLocal(session, context, paths, meanwhile, offload);
    finish(sent, await Promise.all(results), local);
  }

  /**
   * Stops the threads; calls in progress reject. Safe to call twice.
   * @example await threads.close();
   */
  close(): Promise<void> {
    return this.workers.close();
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
