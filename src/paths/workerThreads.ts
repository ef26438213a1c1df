/**
 * A fixed number of worker threads running one entry module, through piscina: what
 * `ScoringThreads` and `InsightThreads` share (the thread count checked, the threads started at
 * once and kept while idle without keeping the process alive, closing, and errors that name
 * their owner).
 */

import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { workerExecArgv } from "./workerExecArgv.ts";

/**
 * What {@link WorkerThreads} needs.
 * @example const options: WorkerThreadsOptions = { owner: "ScoringThreads", entry: workerEntry(import.meta.url, "scoringWorker"), threads: 2, tasksPerThread: 2 };
 */
export interface WorkerThreadsOptions {
  /** The name the errors give, e.g. `ScoringThreads`. */
  readonly owner: string;
  /** The entry module (`workerEntry` finds it); piscina calls its default export with each task. */
  readonly entry: URL;
  readonly threads: number;
  /** Tasks posted to a thread at once (it runs them one after the other). */
  readonly tasksPerThread: number;
  /** Every thread's `workerData`, made once the count of threads is checked. */
  readonly workerData?: (threads: number) => unknown;
}

/**
 * `threads` worker threads of one entry module (see the module comment). They start at once and
 * are never retired while idle (a thread keeps what it set up), and idle threads never keep the
 * process alive. Throws `RangeError` unless `threads` is a whole number ≥ 1.
 * @example
 * const workers = new WorkerThreads<Task, Result>({ owner: "ScoringThreads", entry, threads: 2, tasksPerThread: 2 });
 * const result = await workers.run(task, "scoreMiners");
 */
export class WorkerThreads<Task, Result> {
  readonly threads: number;
  private readonly owner: string;
  private readonly piscina: Piscina<Task, Result>;
  private closed = false;

  constructor(options: WorkerThreadsOptions) {
    const { owner, threads } = options;
    if (!(Number.isInteger(threads) && threads >= 1)) {
      throw new RangeError(`${owner} requires a whole number of threads ≥ 1, got ${threads}`);
    }
    this.owner = owner;
    this.threads = threads;
    this.piscina = new Piscina<Task, Result>({
      filename: fileURLToPath(options.entry),
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Infinity,
      concurrentTasksPerWorker: options.tasksPerThread,
      // Nothing reads piscina's histogram of the tasks' times; it costs the calling thread a
      // little per task.
      recordTiming: false,
      execArgv: workerExecArgv(process.execArgv),
      workerData: options.workerData?.(threads),
    });
  }

  /**
   * Throws unless the threads are open, naming the owner's `operation`.
   * @example workers.requireOpen("scoreMiners");
   */
  requireOpen(operation: string): void {
    if (this.closed) {
      throw new Error(`${this.owner}.${operation} requires open threads; they are closed`);
    }
  }

  /**
   * Runs `task` on a thread; rejects when it throws there, when its thread fails, and, naming
   * `operation`, when the threads are closed meanwhile.
   * @example const result = await workers.run(task, "scoreMiners");
   */
  async run(task: Task, operation: string): Promise<Result> {
    try {
      return await this.piscina.run(task);
    } catch (error) {
      if (!this.closed) throw error;
      throw new Error(`${this.owner} were closed while a ${operation} call was in progress`, {
        cause: error,
      });
    }
  }

  /**
   * Stops the threads; tasks in progress reject. Safe to call twice.
   * @example await workers.close();
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.piscina.destroy();
  }
}
