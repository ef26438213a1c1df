/**
 * Units on a Redis-backed queue (BullMQ), run by any number of worker processes into a lake.
 *
 * BullMQ gives what many machines need and pathlab does not hand-write: a job lock that a worker
 * renews while it runs a unit (a worker killed mid-unit lets its lock lapse, and the unit goes back
 * to the queue), attempts with backoff and a failed set with the reasons, a rate limit and a
 * concurrency limit shared by every worker of the queue (the service's limits are per key, not per
 * machine), and job ids that make a second enqueue of the same unit add nothing.
 */

import { hostname } from "node:os";
import type { Queue } from "bullmq";
import { Worker, type ConnectionOptions, type Job } from "bullmq";
import { prepareLake } from "../../store/lake.ts";
import { parseIsoTimeMs } from "../../domain/time.ts";
import { runBacktestUnitIntoLake, type BacktestUnit } from "../backtest/backtestUnit.ts";
import { MinerKeysCache, runScoreUnitIntoLake, type ScoreUnit } from "../score/queueUnit.ts";
import { runQueuedSyncUnit, type QueuedSyncUnit } from "../sync/queueUnit.ts";
import { quietQueue } from "./enqueueUnits.ts";
import { RequestPacers, setRequestRate } from "./requestPacer.ts";
import { ServiceCache } from "./serviceCache.ts";
import { PLAN_JOB, runPlanTick, type ScoreWatch, type SyncWatch } from "./watch.ts";

/**
 * What {@link runQueueWorker} needs.
 * @example const options: QueueWorkerOptions = { connection, queue: "pathlab", lake: "./lake", untilIdle: true };
 */
export interface QueueWorkerOptions {
  /** The Redis server holding the queue (BullMQ's connection options). */
  readonly connection: ConnectionOptions;
  /** The queue's name, e.g. `pathlab`. */
  readonly queue: string;
  /** The lake every unit's rows are written into. */
  readonly lake: string;
  /** The worker's name, shown on the units it runs (default `<host>:<pid>`). */
  readonly name?: string;
  /** Units this process runs at once (default 1). */
  readonly concurrency?: number;
  /**
   * Resolve once the queue has nothing waiting, delayed or running but a watch's next tick
   * (default: run until stopped).
   */
  readonly untilIdle?: boolean;
  /**
   * How long a unit's lock lasts without renewal, ms (default 30,000): a worker killed mid-unit
   * gives its unit back after about this long.
   */
  readonly lockMs?: number;
  /**
   * At most this many units start per minute over every worker of the queue (BullMQ's global rate
   * limit, kept in Redis until set again).
   */
  readonly unitsPerMinute?: number;
  /**
   * At most this many units run at once over every worker of the queue (BullMQ's global
   * concurrency, kept in Redis until set again).
   */
  readonly globalConcurrency?: number;
  /**
   * At most this many requests per second to each service, over every worker of the queue, evenly
   * spaced (see `requestPacer.ts`); 0 removes the limit. Kept in Redis until set again. Units of
   * the embedded sandbox are not paced: each worker has its own.
   */
  readonly requestsPerSecond?: number;
  /** The key of a service (never taken from a unit); default `PATHLAB_API_KEY`. */
  readonly apiKey?: string;
  /** Stops the worker: the running units finish, no new one starts. */
  readonly signal?: AbortSignal;
  /** Called when the worker's connection has trouble (at most once a minute). */
  readonly onProblem?: (message: string) => void;
  /** Called after each unit, done or failed. */
  readonly onUnit?: (event: {
    unit: string;
    ok: boolean;
    reason?: string;
    rows?: number;
    /**
     * For a sync unit stored whole but for some records or path sets the service got wrong: why
     * each of those was left out.
     */
    failures?: readonly string[];
    /** For a backtest unit stored with the penalty: why the model gave no answer. */
    penalized?: readonly string[];
    /** For a watch's tick: the units it added. */
    planned?: number;
  }) => void;
}

/** What a job leaves in Redis: the rows it wrote (a watch's tick: the units it added). */
interface UnitResult {
  readonly rows: number;
  readonly failures?: readonly string[];
  readonly penalized?: readonly string[];
}

/**
 * Runs units from the queue into the lake until stopped (or idle, with `untilIdle`). Each unit is
 * computed into a private in-memory store and written to the lake as one folder, a file per
 * table, that readers see whole or not at all (see `writeLakeUnit`); a unit that throws is retried up to {@link UNIT_ATTEMPTS} times. Resolves to
 * the counts of units done and failed by this process.
 * @param options - the Redis connection, the queue's name and the lake, and how many units to run
 *   and when to stop; see each field's default.
 * @example await runQueueWorker({ connection, queue: "pathlab", lake: "./lake", untilIdle: true });
 */
export async function runQueueWorker(
  options: QueueWorkerOptions,
): Promise<{ done: number; failed: number }> {
  const keys = new MinerKeysCache();
  const lockMs = options.lockMs ?? 30_000;
  const tally = { done: 0, failed: 0 };
  // A lake this worker cannot write fails here, not unit after unit.
  prepareLake(options.lake);
  const pacers = new RequestPacers(options.connection, options.queue);
  const services = new ServiceCache(options.apiKey ?? process.env.PATHLAB_API_KEY, pacers);
  const queue = quietQueue(options.queue, options.connection);
  try {
    // Kept in Redis: they bind every worker of the queue, until set again.
    if (options.globalConcurrency !== undefined) {
      await queue.setGlobalConcurrency(options.globalConcurrency);
    }
    if (options.unitsPerMinute !== undefined) {
      await queue.setGlobalRateLimit(options.unitsPerMinute, 60_000);
    }
    if (options.requestsPerSecond !== undefined) {
      await setRequestRate(options.connection, options.queue, options.requestsPerSecond);
    }
  } catch (error) {
    await queue.close();
    pacers.close();
    throw error;
  }
  const worker = new Worker(
    options.queue,
    async (
      job: Job<ScoreUnit | BacktestUnit | QueuedSyncUnit | ScoreWatch | SyncWatch>,
    ): Promise<UnitResult> => {
      if (job.data.kind === "watch" || job.data.kind === "sync watch") {
        const watch = job.data;
        const nowUnix =
          watch.service.kind === "sandbox"
            ? parseIsoTimeMs(watch.service.now) / 1000
            : Math.floor(Date.now() / 1000);
        const tick = await services.use(watch.service, (client) =>
          runPlanTick(watch, client, nowUnix, options.connection, options.queue),
        );
        return { rows: tick.added };
      }
      if (job.data.kind === "sync") {
        const unit = job.data;
        return services.use(unit.service, (client) =>
          runQueuedSyncUnit(unit, { client, lake: options.lake }),
        );
      }
      if (job.data.kind === "backtest") {
        const unit = job.data;
        return services.use(unit.service, (client) =>
          runBacktestUnitIntoLake(unit, { client, keys, lake: options.lake }),
        );
      }
      const unit = job.data;
      return services.use(unit.service, (client) =>
        runScoreUnitIntoLake(unit, { client, keys, lake: options.lake }),
      );
    },
    {
      connection: options.connection,
      name: options.name ?? `${hostname()}:${process.pid}`,
      concurrency: options.concurrency ?? 1,
      lockDuration: lockMs,
      stalledInterval: Math.max(500, Math.floor(lockMs / 2)),
    },
  );
  worker.on("completed", (job, result: UnitResult) => {
    if (job.name === PLAN_JOB) {
      options.onUnit?.({ unit: String(job.id), ok: true, planned: result.rows });
      return;
    }
    tally.done++;
    options.onUnit?.({
      unit: String(job.id),
      ok: true,
      rows: result.rows,
      ...(result.failures !== undefined && { failures: result.failures }),
      ...(result.penalized !== undefined && { penalized: result.penalized }),
    });
  });
  worker.on("failed", (job, error) => {
    tally.failed++;
    options.onUnit?.({ unit: String(job?.id), ok: false, reason: error.message });
  });
  // Connection trouble is retried by BullMQ: reported (once a minute at most), not thrown.
  let reportedAt = -Infinity;
  worker.on("error", (error) => {
    if (performance.now() - reportedAt < 60_000) return;
    reportedAt = performance.now();
    options.onProblem?.(`${error.message}; BullMQ retries`);
  });
  try {
    await new Promise<void>((resolve) => {
      options.signal?.addEventListener("abort", () => resolve(), { once: true });
      if (options.signal?.aborted) resolve();
      if (options.untilIdle !== true) return;
      const poll = setInterval(() => {
        void idle(queue)
          .then((done) => {
            if (done) {
              clearInterval(poll);
              resolve();
            }
          })
          .catch(() => {}); // asked again at the next tick
      }, 250);
      options.signal?.addEventListener("abort", () => clearInterval(poll), { once: true });
    });
  } finally {
    await worker.close();
    await queue.close();
    await services.close();
    pacers.close();
  }
  return tally;
}

/**
 * Whether the queue has nothing left to run: no job waiting or running, and no delayed job but a
 * watch's next tick (which keeps coming as long as the watch is installed). A retry waiting out its
 * backoff is delayed, so it keeps the worker.
 */
async function idle(queue: Queue): Promise<boolean> {
  const counts = await queue.getJobCounts("waiting", "active", "delayed", "prioritized");
  if (counts.waiting + counts.active + counts.prioritized > 0) return false;
  if (counts.delayed === 0) return true;
  if (counts.delayed > 16) return false;
  // A delayed unit (a retry's backoff) can move to waiting between the two reads: then the list is
  // shorter than the count, and the queue is not idle.
  const delayed = await queue.getJobs(["delayed"], 0, 16);
  return delayed.length === counts.delayed && delayed.every((job) => job.name === PLAN_JOB);
}
