/**
 * Scoring one prompt for many miners on worker threads: a small pool that shares each miner's
 * prices with a worker through a SharedArrayBuffer, falls back to the calling thread for small
 * jobs, shuts down cleanly and never keeps the process alive while idle.
 * Over 300 lines because the pool's bookkeeping (workers, staging buffers, the job queue, failures)
 * is one state machine; split across files it would be harder to check.
 */

import { availableParallelism } from "node:os";
import type { PathSet } from "../paths/pathSet.ts";
import { workerEntry } from "../domain/workerEntry.ts";
import {
  keepAliveWhile,
  spawnPoolWorker,
  terminatePoolWorkers,
  waitForMessages,
  type PoolWorker,
} from "../paths/poolWorker.ts";
import type { RealizedPath } from "../domain/records/validation.ts";
import { allocateKernelScratch } from "./kernelScratch.ts";
import { runMinerTask, type MinerTaskRequest, type MinerTaskResult } from "./minerTask.ts";
import type { PromptPlan } from "./promptPlan.ts";
import {
  minerScore,
  prepareCall,
  runOnThisThread,
  type MinerPromptScore,
  type PreparedCall,
  type ScoreMinersOptions,
} from "./scoringCall.ts";
import type { ScoringTarget } from "./scoringTarget.ts";

/**
 * Options of {@link createScoringPool}.
 * @example const options: ScoringPoolOptions = { threads: 2, synchronousBelow: 4 };
 */
export interface ScoringPoolOptions {
  /** Worker threads; default `os.availableParallelism()` (2 on the reference machine). 0 = none. */
  readonly threads?: number;
  /** Jobs with fewer path sets than this run on the calling thread; default 4. */
  readonly synchronousBelow?: number;
  /**
   * Whether {@link ScoringPool.scoreMinersBlocking} also scores queued miners on the calling
   * thread while it waits, instead of only sleeping; default: when the pool has fewer workers than
   * the machine has cores (`threads < os.availableParallelism()`), so that the calling thread
   * takes a core that would idle. With one worker per core it measured no faster (bench/README.md).
   */
  readonly callerScores?: boolean;
}

/** Jobs in flight per worker: two, so that a worker never waits for its next job. */
const JOBS_PER_WORKER = 2;
/** A blocking call gives up when no worker has answered for this long. */
const BLOCKING_IDLE_LIMIT_MS = 60_000;

/** What arrives on a worker's result port. */
type PortMessage = MinerTaskResult | { readonly ready: true };

/** One queued job: the request without its values, the path set, and where its result goes. */
interface PendingJob {
  readonly request: Omit<MinerTaskRequest, "values" | "jobId">;
  readonly values: Float64Array;
  readonly call: CallState;
  readonly index: number;
}

/** A scoreMiners call in progress. */
interface CallState {
  readonly plan: PromptPlan;
  readonly results: (MinerPromptScore | undefined)[];
  readonly minerUids: number[];
  remaining: number;
  failed: boolean;
  readonly resolve: (results: MinerPromptScore[]) => void;
  readonly reject: (error: Error) => void;
}

/** A worker thread, its jobs in flight and its staging buffers. */
interface WorkerState extends PoolWorker {
  started: boolean;
  dead: boolean;
  readonly inFlight: Map<number, { job: PendingJob; stage: SharedArrayBuffer | undefined }>;
  readonly freeStages: SharedArrayBuffer[];
}

/**
 * A pool of worker threads that score prompts for many miners. Create it once with
 * {@link createScoringPool}, reuse it for every prompt (a worker takes ~0.3 s to start), and
 * {@link ScoringPool.close} it at the end. Idle workers are unreferenced, so a forgotten pool
 * never keeps the process alive; a call in progress does.
 * Data: prices that live in a SharedArrayBuffer are shared as they are, and the worker reads them
 * in place (read path sets that way: `pathSetFromPrediction` and `readPathSets` with
 * `{ shared: true }`); other prices are copied once by the calling thread into a SharedArrayBuffer
 * staging slot (two slots per worker, reused). The caller's arrays are never detached
 * (transferring would detach them and, with them, V8's ArrayBufferDetaching protector of the
 * calling thread). Results come back as plain numbers on a MessageChannel per worker, each
 * followed by a bump of a shared counter, so that {@link ScoringPool.scoreMinersBlocking} can
 * sleep in `Atomics.wait` until they arrive.
 * @example
 * const pool = createScoringPool();
 * try {
 *   const scores = await pool.scoreMiners(pathSets, realized, { competition: "crypto-24h" });
 * } finally {
 *   await pool.close();
 * }
 */
export class ScoringPool {
  /** Worker threads this pool runs (0: everything on the calling thread). */
  readonly threads: number;
  /** Jobs with fewer path sets than this run on the calling thread. */
  readonly synchronousBelow: number;
  /** Whether a blocking call scores queued miners on the calling thread while it waits. */
  readonly callerScores: boolean;
  private readonly workers: WorkerState[] = [];
  private readonly queue: PendingJob[] = [];
  /**
   * Incremented by a worker after each message it posts on its result port, so that a blocking
   * call can sleep in `Atomics.wait` until a result arrives.
   */
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private nextJobId = 1;
  private closed = false;

  /**
   * A pool with the given options (see {@link createScoringPool}). Workers start on first use or
   * on {@link ScoringPool.start}.
   * @example new ScoringPool({ threads: 2 })
   */
  constructor(options: ScoringPoolOptions = {}) {
    const threads = options.threads ?? availableParallelism();
    if (!Number.isInteger(threads) || threads < 0) {
      throw new RangeError(`ScoringPool requires threads to be an integer ≥ 0, got ${threads}`);
    }
    const synchronousBelow = options.synchronousBelow ?? 4;
    if (!Number.isInteger(synchronousBelow) || synchronousBelow < 0) {
      throw new RangeError(
        `ScoringPool requires synchronousBelow to be an integer ≥ 0, got ${synchronousBelow}`,
      );
    }
    this.threads = threads;
    this.synchronousBelow = synchronousBelow;
    this.callerScores = options.callerScores ?? threads < availableParallelism();
  }

  /**
   * Starts the worker threads and resolves when they are ready (optional: the first
   * {@link ScoringPool.scoreMiners} starts them too). Rejects when a worker cannot start.
   * @example await pool.start();
   */
  async start(): Promise<void> {
    this.requireOpen("start");
    this.replaceDeadWorkers();
    while (this.workers.length < this.threads) this.workers.push(this.spawn());
    await Promise.all(this.workers.map((state) => state.ready));
  }

  /**
   * Scores one prompt for every path set (all of the same prompt) against its realized path, as
   * {@link scorePrompt} does for one, and optionally computes each miner's calibration row
   * ({@link promptCalibration}). Results are in the order of `pathSets`, and equal, number for
   * number, those of the calling thread (the same function runs in the workers).
   * Rejects with a `RangeError` when the path sets do not all belong to the realized path's prompt
   * or have different shapes, with an `Error` naming the miner when its scoring throws, and when
   * the pool is closed or a worker dies.
   * @example
   * const scores = await pool.scoreMiners(pathSets, realized, { competition: "crypto-1h" }, { calibration: true });
   */
  async scoreMiners(
    pathSets: readonly PathSet[],
    realized: RealizedPath,
    target: ScoringTarget,
    options: ScoreMinersOptions = {},
  ): Promise<MinerPromptScore[]> {
    this.requireOpen("scoreMiners");
    if (pathSets.length === 0) return [];
    const prepared = prepareCall("scoreMiners", pathSets, realized, target, options);
    if (this.threads === 0 || pathSets.length < this.synchronousBelow) {
      return runOnThisThread(prepared, pathSets);
    }
    await this.start();
    this.requireOpen("scoreMiners");
    return new Promise<MinerPromptScore[]>((resolve, reject) => {
      this.enqueue(prepared, pathSets, resolve, reject);
    });
  }

  /**
   * {@link ScoringPool.scoreMiners} that blocks the calling thread until every miner is scored:
   * the workers score as usual while this thread takes their results with `receiveMessageOnPort`,
   * scores queued miners itself when the pool's `callerScores` says so, and sleeps in
   * `Atomics.wait` otherwise. For scripts and benchmarks with nothing else to do meanwhile (the
   * event loop does not run). The workers must have been started (`await pool.start()`). Jobs of
   * `scoreMiners` calls in progress share the workers (and the calling thread's help) and are
   * settled along the way.
   * Throws as `scoreMiners` rejects, and when the workers are not started or no worker answers
   * for 60 s.
   * @example
   * await pool.start();
   * const scores = pool.scoreMinersBlocking(pathSets, realized, { competition: "crypto-24h" });
   */
  scoreMinersBlocking(
    pathSets: readonly PathSet[],
    realized: RealizedPath,
    target: ScoringTarget,
    options: ScoreMinersOptions = {},
  ): MinerPromptScore[] {
    this.requireOpen("scoreMinersBlocking");
    if (pathSets.length === 0) return [];
    const prepared = prepareCall("scoreMinersBlocking", pathSets, realized, target, options);
    if (this.threads === 0 || pathSets.length < this.synchronousBelow) {
      return runOnThisThread(prepared, pathSets);
    }
    const ready =
      this.workers.length === this.threads &&
      this.workers.every((state) => state.started && !state.dead);
    if (!ready) {
      throw new Error(
        "ScoringPool.scoreMinersBlocking requires started workers: await pool.start() first",
      );
    }
    let outcome: MinerPromptScore[] | Error | undefined;
    this.enqueue(
      prepared,
      pathSets,
      (results) => (outcome = results),
      (error) => (outcome = error),
    );
    waitForMessages(
      "ScoringPool.scoreMinersBlocking",
      this.signal,
      this.workers.map((state) => state.port),
      (index, message) => this.onPortMessage(this.workers[index], message as PortMessage),
      () => outcome !== undefined,
      BLOCKING_IDLE_LIMIT_MS,
      (error) => this.abandon(error),
      () => this.callerScores && this.scoreQueuedHere(),
    );
    // Settled by the callbacks during the wait (which TypeScript's narrowing does not see).
    const settled = outcome as MinerPromptScore[] | Error;
    if (settled instanceof Error) throw settled;
    return settled;
  }

  /** Queues a prepared call's jobs and starts sending them. */
  private enqueue(
    prepared: PreparedCall,
    pathSets: readonly PathSet[],
    resolve: (results: MinerPromptScore[]) => void,
    reject: (error: Error) => void,
  ): void {
    const call: CallState = {
      plan: prepared.plan,
      results: new Array<MinerPromptScore | undefined>(pathSets.length),
      minerUids: prepared.requests.map((request) => request.minerUid),
      remaining: pathSets.length,
      failed: false,
      resolve,
      reject,
    };
    prepared.requests.forEach((request, index) => {
      this.queue.push({ request, values: pathSets[index].values, call, index });
    });
    for (const state of this.workers) this.pump(state);
  }

  /** A blocking call gave up: its queued and in-flight jobs are dropped, their workers retired. */
  private abandon(error: Error): void {
    for (const job of this.queue.splice(0)) this.fail(job.call, error);
    for (const state of this.workers) {
      if (state.inFlight.size > 0) this.retire(state, error);
    }
  }

  /**
   * Stops the workers and waits until they have exited. Calls in progress reject; the pool cannot
   * be used again. Safe to call twice.
   * @example await pool.close();
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const error = new Error("ScoringPool was closed while a scoreMiners call was in progress");
    for (const job of this.queue.splice(0)) this.fail(job.call, error);
    const workers = this.workers.splice(0);
    for (const state of workers) {
      for (const { job } of state.inFlight.values()) this.fail(job.call, error);
      state.inFlight.clear();
      state.dead = true;
    }
    await terminatePoolWorkers(workers, error);
  }

  private requireOpen(operation: string): void {
    if (this.closed) {
      throw new Error(`ScoringPool.${operation} requires an open pool; it is closed`);
    }
  }

  private replaceDeadWorkers(): void {
    for (let index = 0; index < this.workers.length; index++) {
      if (this.workers[index].dead) this.workers[index] = this.spawn();
    }
  }

  /** Starts one worker; its `ready` promise settles when it has loaded (or failed to). */
  private spawn(): WorkerState {
    // Referenced while starting (a caller awaits it), unreferenced once idle.
    const started = spawnPoolWorker({
      url: workerEntry(import.meta.url, "scoringWorker"),
      pool: "ScoringPool",
      signal: this.signal,
      onMessage: (message) => this.onPortMessage(state, message as PortMessage),
      onFailure: (error) => this.retire(state, error),
      isRetired: () => state.dead,
      // The kernel's scratch, allocated on this thread: faster for the worker than its own
      // (kernelScratch.ts).
      data: { kernelScratch: allocateKernelScratch(true) },
    });
    const state: WorkerState = {
      ...started,
      started: false,
      dead: false,
      inFlight: new Map(),
      freeStages: [],
    };
    return state;
  }

  /** A message on a worker's result port: "ready", or a job's result. */
  private onPortMessage(state: WorkerState, message: PortMessage): void {
    if ("ready" in message) {
      state.started = true;
      this.updateReference(state);
      state.markReady();
      return;
    }
    this.settle(state, message);
  }

  /** Sends queued jobs to `state` while it has room. */
  private pump(state: WorkerState): void {
    while (!state.dead && state.inFlight.size < JOBS_PER_WORKER && this.queue.length > 0) {
      const job = this.queue.shift()!;
      if (job.call.failed) continue;
      const jobId = this.nextJobId++;
      let values = job.values;
      let stage: SharedArrayBuffer | undefined;
      if (!(values.buffer instanceof SharedArrayBuffer)) {
        stage = state.freeStages.pop();
        if (stage === undefined || stage.byteLength < values.byteLength) {
          stage = new SharedArrayBuffer(values.byteLength);
        }
        const staged = new Float64Array(stage, 0, values.length);
        staged.set(values);
        values = staged;
      }
      state.inFlight.set(jobId, { job, stage });
      state.worker.postMessage({ ...job.request, jobId, values });
    }
    this.updateReference(state);
  }

  /**
   * Scores the first queued job on the calling thread (its own prices, no staging copy) and
   * settles it; false when the queue is empty.
   */
  private scoreQueuedHere(): boolean {
    const job = this.queue.shift();
    if (job === undefined) return false;
    if (!job.call.failed) {
      const result = runMinerTask({ ...job.request, jobId: 0, values: job.values });
      this.record(job, result);
    }
    return true;
  }

  /** A result came back from `state`. */
  private settle(state: WorkerState, result: MinerTaskResult): void {
    const entry = state.inFlight.get(result.jobId);
    if (entry === undefined) return;
    state.inFlight.delete(result.jobId);
    if (entry.stage !== undefined) state.freeStages.push(entry.stage);
    this.record(entry.job, result);
    this.pump(state);
  }

  /** Puts a job's result in its call, which resolves with its last result or fails with its first error. */
  private record(job: PendingJob, result: MinerTaskResult): void {
    const { call, index } = job;
    if (call.failed) return;
    if (result.error !== undefined) {
      this.fail(call, new Error(`scoreMiners: miner ${call.minerUids[index]}: ${result.error}`));
      return;
    }
    call.results[index] = minerScore(call.plan, call.minerUids[index], result);
    call.remaining -= 1;
    if (call.remaining === 0) call.resolve(call.results as MinerPromptScore[]);
  }

  /** A worker died: its jobs' calls fail, and it is replaced on the next start. */
  private retire(state: WorkerState, error: Error): void {
    if (state.dead) return;
    state.dead = true;
    for (const { job } of state.inFlight.values()) this.fail(job.call, error);
    state.inFlight.clear();
    state.worker.unref();
    state.port.close();
    void state.worker.terminate();
  }

  private fail(call: CallState, error: Error): void {
    if (call.failed) return;
    call.failed = true;
    call.reject(error);
  }

  /** A worker keeps the process alive only while it starts or has jobs in flight. */
  private updateReference(state: WorkerState): void {
    if (!state.dead) keepAliveWhile(state, !state.started || state.inFlight.size > 0);
  }
}

/**
 * A {@link ScoringPool}: `threads` worker threads (default: the machine's available
 * parallelism), scoring on the calling thread below `synchronousBelow` path sets (default 4).
 * @example
 * const pool = createScoringPool({ threads: 2 });
 * await pool.start(); // optional: pay the ~0.3 s start-up before the first prompt
 */
export function createScoringPool(options: ScoringPoolOptions = {}): ScoringPool {
  return new ScoringPool(options);
}
