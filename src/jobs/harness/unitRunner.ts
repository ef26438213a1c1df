/**
 * The unit runner: how a job's units run. Where (this thread, or the unit pool's threads; a queue
 * worker runs them through the same functions), how many at once, and each unit's deadline and
 * interruption (`UnitDeadline`), in one place for every job.
 */

import { setMaxListeners } from "node:events";
import { UnitDeadline } from "./unitDeadline.ts";
import { UnitPool } from "./unitPool.ts";

/**
 * `work` on each item, at most `concurrency` at a time, results in the items' order. Once `signal`
 * aborts, the items not started yet end as `notStarted` gives them, without running.
 * @example const units = await runUnits(plans, { concurrency: 3, signal }, syncOne, interrupted);
 */
export async function runUnits<T, R>(
  items: readonly T[],
  options: { readonly concurrency: number; readonly signal?: AbortSignal },
  work: (item: T) => Promise<R>,
  notStarted: (item: T) => R,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index];
      results[index] = options.signal?.aborted === true ? notStarted(item) : await work(item);
    }
  };
  const workers = Math.min(options.concurrency, items.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}

/**
 * Units started `window` at a time and finished one by one in their order: `start` begins a unit
 * (its work runs meanwhile), `finish` takes its outcome in turn (and may store it), and the next
 * unit starts as each one is finished. `stop` is called for each started unit once it is finished,
 * and for those still running when a `finish` throws (which ends the run with that error).
 * @example await runUnitsInOrder(prompts, 2, startPrompt, storePrompt);
 */
export async function runUnitsInOrder<T, S extends { readonly stop: () => void }>(
  items: readonly T[],
  window: number,
  start: (item: T) => S,
  finish: (item: T, started: S, index: number) => Promise<void>,
): Promise<void> {
  const started: S[] = [];
  const begin = (index: number) => {
    if (index < items.length) started[index] = start(items[index]);
  };
  for (let index = 0; index < window; index++) begin(index);
  try {
    for (let index = 0; index < items.length; index++) {
      try {
        await finish(items[index], started[index], index);
      } finally {
        started[index].stop();
      }
      begin(index + window);
    }
  } finally {
    for (const entry of started) entry?.stop();
  }
}

/**
 * Where a job's units run: on this thread, or on `threads` unit pool threads (0: none).
 * @example const runner = new UnitRunner(2, job.signal); try { … } finally { await runner.close(); }
 */
export class UnitRunner {
  readonly pool: UnitPool;

  constructor(
    threads: number,
    private readonly signal?: AbortSignal,
  ) {
    this.pool = new UnitPool(threads);
  }

  /** Whether units run on the pool's threads. */
  get onThreads(): boolean {
    return this.pool.threads > 0;
  }

  /** Units that keep every thread busy (1 on this thread). */
  get capacity(): number {
    return this.pool.capacity;
  }

  /**
   * A deadline for one unit, tied to the job's interruption. Each unit in flight listens to the
   * job's signal, so the listener limit follows the units in flight.
   */
  deadline(deadlineMs: number | undefined, message: string, inFlight = 1): UnitDeadline {
    if (this.signal !== undefined) setMaxListeners(10 + inFlight, this.signal);
    return new UnitDeadline(deadlineMs, this.signal, message);
  }

  /** Stops the pool's threads (after the running units). */
  async close(): Promise<void> {
    await this.pool.close();
  }
}
