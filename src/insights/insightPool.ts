/**
 * Preparing a session's records on two threads: the calling thread makes its one pass over the
 * paths while worker threads compute the whole-ensemble intermediates beside it.
 */

import { availableParallelism } from "node:os";
import { allocateValues } from "../paths/pathSet.ts";
import { workerEntry } from "../domain/workerEntry.ts";
import { recomputedPathsReading } from "../domain/insightKindLists.ts";
import {
  keepAliveWhile,
  spawnPoolWorker,
  terminatePoolWorkers,
  waitForMessages,
  type PoolWorker,
} from "../paths/poolWorker.ts";
import {
  VOLATILITY_LAYOUTS,
  annualizeVolatility,
  volatilityBlockSteps,
} from "../domain/insightConventions.ts";
import {
  absoluteScaledQuantiles,
  blockPercentileLayout,
  blockVolatilities,
  blockVolatilityPercentiles,
} from "./blockVolatility.ts";
import type { InsightContext } from "./context.ts";
import type { InsightTask, InsightTaskResult } from "./insightTasks.ts";
import { prepareRecords } from "./prepareRecords.ts";
import type { QuantileEstimates } from "./quantileErrors.ts";
import type { RecomputablePath } from "./recompute.ts";
import { InsightSession, type SessionPart } from "./session.ts";

/**
 * Options of {@link InsightPool}.
 * @example const options: InsightPoolOptions = { threads: 1 };
 */
export interface InsightPoolOptions {
  /**
   * Worker threads beside the calling thread: default 1 on a machine with 2 or more cores
   * (`os.availableParallelism()`), else 0 (everything on the calling thread). A set has two
   * tasks for workers, so more than 2 add nothing.
   */
  readonly threads?: number;
}

/** A blocking call gives up when no worker has answered for this long. */
const BLOCKING_IDLE_LIMIT_MS = 60_000;

/** A task sent to a worker and what to do with its result. */
interface PendingTask {
  readonly state: WorkerState;
  readonly settle: (result: InsightTaskResult | Error) => void;
}

/** A worker thread and its result port. */
interface WorkerState extends PoolWorker {
  started: boolean;
  dead: boolean;
  inFlight: number;
}

/** What arrives on a worker's result port. */
type WorkerMessage = InsightTaskResult | { readonly ready: true };

/** One task of a set and how its parts reach the sessions. */
interface PlannedTask {
  readonly task: InsightTask;
  readonly adopt: (parts: readonly SessionPart[]) => void;
}

/**
 * Prepares an {@link InsightSession} for a set of records on several threads: what
 * `prepareRecords` computes, plus the two whole-ensemble intermediates that dominate a full set,
 * each on a worker thread while the calling thread makes its pass over the paths.
 * - a worker computes the step percentiles of the prediction percentiles record
 *   (`InsightSession.stepPercentiles`: a transposition and a selection per step);
 * - a worker computes the previous prompt's block log returns, their volatilities and their
 *   percentiles (the `forecast_past` of the volatility records), when
 *   `context.previous.ensemble` is an {@link InsightSession} (a plain ensemble gets a new
 *   session in every record, which could not keep them);
 * - the calling thread runs `prepareRecords` (running extremes, LP counts, block returns), the
 *   current prompt's block volatilities and block percentiles, and then `meanwhile`, if given,
 *   before it waits for the workers: the place for the records that need no worker part (all
 *   but the prediction percentiles and the two volatility records), which then overlap with the
 *   workers (~3 ms of a full set; bench/README.md). A record computed there that needs a worker
 *   part computes it itself (the same numbers, only slower);
 * - over paths in a SharedArrayBuffer, the pass writes the current block returns into shared
 *   memory too, and a worker then takes the first half of the current block percentiles while
 *   the calling thread computes the second half (the two threads' shares measured balanced that
 *   way; bench/README.md).
 * The workers run the same kernels on the same numbers, so every record computed afterwards
 * equals, number for number, the record computed on one thread; the pool only saves time
 * (~1.8× for a 10 × 1,000 × 289 set on 2 cores; bench/README.md). Paths in a SharedArrayBuffer
 * (`ensembleOf(pathSets, { shared: true })`) are read in place; others are copied into one
 * first. A task that throws in a worker is dropped (the record then computes it itself and
 * reports its own error). Create the pool once, reuse it, and {@link InsightPool.close} it; idle
 * workers never keep the process alive.
 * @example
 * const pool = new InsightPool();
 * try {
 *   let bounds;
 *   await pool.prepareRecords(session, context, RECOMPUTABLE_PATHS, () => {
 *     bounds = recompute("/insights/lp-bounds", session, context);
 *   });
 *   const percentiles = recompute("/insights/prediction-percentiles", session, context);
 * } finally {
 *   await pool.close();
 * }
 */
export class InsightPool {
  /** Worker threads of this pool (0: everything on the calling thread). */
  readonly threads: number;
  private readonly workers: WorkerState[] = [];
  private readonly pending = new Map<number, PendingTask>();
  /** Bumped by a worker after each message it posts, for `Atomics.wait` in blocking calls. */
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private nextTaskId = 1;
  private closed = false;

  /**
   * A pool with the given options; workers start on first use or on {@link InsightPool.start}.
   * Throws `RangeError` unless `threads` is an integer ≥ 0.
   * @example new InsightPool({ threads: 1 })
   */
  constructor(options: InsightPoolOptions = {}) {
    const threads = options.threads ?? (availableParallelism() >= 2 ? 1 : 0);
    if (!Number.isInteger(threads) || threads < 0) {
      throw new RangeError(`InsightPool requires threads to be an integer ≥ 0, got ${threads}`);
    }
    this.threads = threads;
  }

  /**
   * Starts the workers and resolves when they are ready (optional: the first call starts them;
   * a worker takes ~0.3 s). Rejects when a worker cannot start.
   * @example await pool.start();
   */
  async start(): Promise<void> {
    this.requireOpen("start");
    for (let index = 0; index < this.workers.length; index++) {
      if (this.workers[index].dead) this.workers[index] = this.spawn();
    }
    while (this.workers.length < this.threads) this.workers.push(this.spawn());
    await Promise.all(this.workers.map((state) => state.ready));
  }

  /**
   * `prepareRecords(session, context, paths)` and the intermediates above, on the workers and
   * the calling thread, which calls `meanwhile` (if given) once its own share is done, before
   * it waits for the workers; resolves when the session (and the previous prompt's session) hold
   * them. Rejects as `prepareRecords` or `meanwhile` throws (a context that does not fit), and
   * when the pool is closed or a worker fails.
   * @example await pool.prepareRecords(session, context, RECOMPUTABLE_PATHS);
   */
  async prepareRecords(
    session: InsightSession,
    context: InsightContext,
    paths: readonly RecomputablePath[],
    meanwhile?: () => void,
  ): Promise<void> {
    this.requireOpen("prepareRecords");
    const planned = this.planOrPrepareHere(session, context, paths, meanwhile);
    if (planned.length === 0) return;
    await this.start();
    this.requireOpen("prepareRecords");
    const sent: PlannedTask[] = [];
    const results: Promise<InsightTaskResult | Error>[] = [];
    const offload = (item: PlannedTask): void => {
      sent.push(item);
      results.push(new Promise((resolve) => this.send(item.task, resolve)));
    };
    planned.forEach(offload);
    const local = runLocal(session, context, paths, meanwhile, offload);
    finish(sent, await Promise.all(results), local);
  }

  /**
   * {@link InsightPool.prepareRecords} that blocks the calling thread until the workers are done
   * (it sleeps in `Atomics.wait` once its own share and `meanwhile` are done): for scripts and
   * benchmarks. The workers must have been started (`await pool.start()`).
   * Throws as `prepareRecords` rejects, when the workers are not started, or when no worker
   * answers for 60 s.
   * @example
   * await pool.start();
   * pool.prepareRecordsBlocking(session, context, RECOMPUTABLE_PATHS);
   */
  prepareRecordsBlocking(
    session: InsightSession,
    context: InsightContext,
    paths: readonly RecomputablePath[],
    meanwhile?: () => void,
  ): void {
    this.requireOpen("prepareRecordsBlocking");
    const planned = this.planOrPrepareHere(session, context, paths, meanwhile);
    if (planned.length === 0) return;
    const ready =
      this.workers.length === this.threads &&
      this.workers.every((state) => state.started && !state.dead);
    if (!ready) {
      throw new Error(
        "InsightPool.prepareRecordsBlocking requires started workers: await pool.start() first",
      );
    }
    const sent: PlannedTask[] = [];
    const results: (InsightTaskResult | Error | undefined)[] = [];
    const offload = (item: PlannedTask): void => {
      const index = sent.push(item) - 1;
      results.push(undefined);
      this.send(item.task, (result) => (results[index] = result));
    };
    planned.forEach(offload);
    const local = runLocal(session, context, paths, meanwhile, offload);
    waitForMessages(
      "InsightPool.prepareRecordsBlocking",
      this.signal,
      this.workers.map((state) => state.port),
      (index, message) => this.onMessage(this.workers[index], message as WorkerMessage),
      () => !results.includes(undefined),
      BLOCKING_IDLE_LIMIT_MS,
      (error) => {
        for (const state of this.workers) if (state.inFlight > 0) this.retire(state, error);
      },
    );
    finish(sent, results as (InsightTaskResult | Error)[], local);
  }

  /**
   * Stops the workers and waits until they have exited; calls in progress reject. The pool
   * cannot be used again. Safe to call twice.
   * @example await pool.close();
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const error = new Error("InsightPool was closed while a prepareRecords call was in progress");
    for (const [taskId, pending] of this.pending) {
      this.pending.delete(taskId);
      pending.settle(error);
    }
    const workers = this.workers.splice(0);
    for (const state of workers) state.dead = true;
    await terminatePoolWorkers(workers, error);
  }

  private requireOpen(operation: string): void {
    if (this.closed) {
      throw new Error(`InsightPool.${operation} requires an open pool; it is closed`);
    }
  }

  /** Posts a task to the least busy live worker; `settle` gets its result or failure. */
  private send(task: InsightTask, settle: (result: InsightTaskResult | Error) => void): void {
    let state: WorkerState | undefined;
    for (const candidate of this.workers) {
      if (!candidate.dead && (state === undefined || candidate.inFlight < state.inFlight)) {
        state = candidate;
      }
    }
    if (state === undefined) {
      settle(new Error("InsightPool has no live worker thread"));
      return;
    }
    const taskId = this.nextTaskId++;
    this.pending.set(taskId, { state, settle });
    state.inFlight += 1;
    this.updateReference(state);
    state.worker.postMessage({ taskId, task });
  }

  /** A message on a worker's result port: "ready", or a task's result. */
  private onMessage(state: WorkerState, message: WorkerMessage): void {
    if ("ready" in message) {
      state.started = true;
      state.markReady();
      this.updateReference(state);
      return;
    }
    const pending = this.pending.get(message.taskId);
    if (pending === undefined) return;
    this.pending.delete(message.taskId);
    state.inFlight -= 1;
    this.updateReference(state);
    pending.settle(message);
  }

  /** Starts one worker; its `ready` promise settles when it has loaded (or failed to). */
  private spawn(): WorkerState {
    const started = spawnPoolWorker({
      url: workerEntry(import.meta.url, "insightWorker"),
      pool: "InsightPool",
      signal: this.signal,
      onMessage: (message) => this.onMessage(state, message as WorkerMessage),
      onFailure: (error) => this.retire(state, error),
      isRetired: () => state.dead,
    });
    const state: WorkerState = { ...started, started: false, dead: false, inFlight: 0 };
    return state;
  }

  /** A worker died: its tasks fail, and it is replaced on the next start. */
  private retire(state: WorkerState, error: Error): void {
    if (state.dead) return;
    state.dead = true;
    for (const [taskId, pending] of this.pending) {
      if (pending.state !== state) continue;
      this.pending.delete(taskId);
      pending.settle(error);
    }
    state.inFlight = 0;
    state.worker.unref();
    state.port.close();
    void state.worker.terminate();
  }

  /**
   * The worker tasks of a call; when there are none (no workers, or nothing worth a worker), it
   * prepares everything on this thread and calls `meanwhile` instead, and returns no task.
   */
  private planOrPrepareHere(
    session: InsightSession,
    context: InsightContext,
    paths: readonly RecomputablePath[],
    meanwhile: (() => void) | undefined,
  ): PlannedTask[] {
    const planned = this.threads === 0 ? [] : planTasks(session, context, paths);
    if (planned.length === 0) {
      prepareOnThisThread(session, context, paths);
      meanwhile?.();
    }
    return planned;
  }

  /** A worker keeps the process alive only while it starts or has tasks in flight. */
  private updateReference(state: WorkerState): void {
    if (!state.dead) keepAliveWhile(state, !state.started || state.inFlight > 0);
  }
}

/** The paths whose records read the volatility block returns. */
const VOLATILITY_PATHS: readonly RecomputablePath[] = recomputedPathsReading("previous-prompt");

/** The worker tasks of a set: the step percentiles, and the previous prompt's block returns. */
function planTasks(
  session: InsightSession,
  context: InsightContext,
  paths: readonly RecomputablePath[],
): PlannedTask[] {
  const planned: PlannedTask[] = [];
  const { nPaths, nPoints } = session;
  if (paths.includes("/insights/prediction-percentiles")) {
    planned.push({
      task: { kind: "step-percentiles", values: shared(session.ensemble.values), nPaths, nPoints },
      adopt: (parts) => parts.forEach((part) => session.adopt(part)),
    });
  }
  const previous = context.previous;
  const volatility = paths.some((path) => VOLATILITY_PATHS.includes(path));
  if (
    volatility &&
    previous !== undefined &&
    previous.ensemble instanceof InsightSession &&
    previous.ensemble.currentPrice === previous.currentPrice &&
    previous.ensemble.rebase === session.rebase
  ) {
    const past = previous.ensemble;
    let blockSteps: number;
    try {
      blockSteps = volatilityBlockSteps(context.horizon, past.ensemble.timeIncrement);
    } catch {
      return planned; // the volatility records report it
    }
    const nBlocks = Math.floor((past.nPoints - 1) / blockSteps);
    if (nBlocks < 1) return planned;
    const { blockMinutes } = VOLATILITY_LAYOUTS[context.horizon];
    const returns = allocateValues(nBlocks * past.nPaths, true);
    planned.push({
      task: {
        kind: "block-returns",
        values: shared(past.ensemble.values),
        nPaths: past.nPaths,
        nPoints: past.nPoints,
        blockSteps,
        returns,
        percentiles: paths.includes("/insights/volatility-percentiles"),
        scale: annualizeVolatility(1, blockMinutes),
        volatilities: paths.includes("/insights/volatility"),
        blockMinutes,
      },
      adopt: (parts) => {
        past.adopt({ kind: "block-returns", blockSteps, returns });
        parts.forEach((part) => past.adopt(part));
      },
    });
  }
  return planned;
}

/**
 * The calling thread's share: `prepareRecords`, then the current prompt's block volatilities and
 * block percentiles (the percentiles handed to a worker through `offload` when the pass wrote
 * the block returns into shared memory), then `meanwhile`; what it throws, as an error for
 * {@link finish}.
 */
function runLocal(
  session: InsightSession,
  context: InsightContext,
  paths: readonly RecomputablePath[],
  meanwhile: (() => void) | undefined,
  offload: (item: PlannedTask) => void,
): Error | undefined {
  try {
    prepareOnThisThread(session, context, paths, offload);
    meanwhile?.();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function prepareOnThisThread(
  session: InsightSession,
  context: InsightContext,
  paths: readonly RecomputablePath[],
  offload?: (item: PlannedTask) => void,
): void {
  prepareRecords(session, context, paths);
  const percentiles = paths.includes("/insights/volatility-percentiles");
  const split =
    percentiles && offload !== undefined && offloadBlockPercentiles(session, context, offload);
  if (paths.includes("/insights/volatility")) blockVolatilities(session, context.horizon);
  if (percentiles && !split) blockVolatilityPercentiles(session, context.horizon);
}

/**
 * When the pass has written the current prompt's block returns into shared memory (paths in a
 * SharedArrayBuffer): hands the block percentiles of the first half of the blocks to a worker
 * (`offload`), computes the second half here, and returns true; the session adopts both halves
 * as one part when the worker's half arrives (the same numbers as all blocks at once: each block
 * is selected on its own). Half, because the worker's own tasks already take about as long as
 * this thread's pass (bench/README.md). Returns false, doing nothing, for other block returns.
 */
function offloadBlockPercentiles(
  session: InsightSession,
  context: InsightContext,
  offload: (item: PlannedTask) => void,
): boolean {
  const { blockSteps, scale } = blockPercentileLayout(session, context.horizon);
  const returns = session.blockLogReturns(blockSteps);
  if (!(returns.buffer instanceof SharedArrayBuffer)) return false;
  const nPaths = session.nPaths;
  const split = Math.ceil(returns.length / nPaths / 2) * nPaths;
  offload({
    task: {
      kind: "block-percentiles",
      returns: returns.subarray(0, split),
      nPaths,
      blockSteps,
      scale,
    },
    adopt: (parts) => {
      for (const part of parts) {
        if (part.kind !== "block-percentiles") continue;
        const estimates = joinEstimates(part.estimates, secondHalf);
        session.adopt({ kind: "block-percentiles", blockSteps, scale, estimates });
      }
    },
  });
  // Adopted only after this call has returned, so `secondHalf` is set by then.
  const secondHalf = absoluteScaledQuantiles(returns.subarray(split), nPaths, scale);
  return true;
}

/** The estimates of consecutive blocks `first` then `second`, as one. */
function joinEstimates(first: QuantileEstimates, second: QuantileEstimates): QuantileEstimates {
  const join = (a: Float64Array, b: Float64Array) => {
    const joined = new Float64Array(a.length + b.length);
    joined.set(a);
    joined.set(b, a.length);
    return joined;
  };
  return {
    values: join(first.values, second.values),
    standardErrors: join(first.standardErrors, second.standardErrors),
  };
}

/**
 * Adopts the workers' parts and rethrows the first failure: the calling thread's own (its
 * context did not fit), else a worker's (not a task's error: that part is just not adopted).
 */
function finish(
  planned: readonly PlannedTask[],
  results: readonly (InsightTaskResult | Error)[],
  local: Error | undefined,
): void {
  if (local !== undefined) throw local;
  results.forEach((result, index) => {
    if (result instanceof Error) throw result;
    if ("parts" in result) planned[index].adopt(result.parts);
  });
}

/** `values` itself when it lives in a SharedArrayBuffer, else a copy in a new one. */
function shared(values: Float64Array): Float64Array {
  if (values.buffer instanceof SharedArrayBuffer) return values;
  const copy = allocateValues(values.length, true);
  copy.set(values);
  return copy;
}
