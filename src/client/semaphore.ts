/**
 * A counting semaphore: bounds how many tasks run at once. Waiters are served first come,
 * first served.
 */

/**
 * Runs tasks with at most `limit` of them in flight.
 * @example
 * const semaphore: Semaphore = createSemaphore(4);
 * semaphore.active; // => 0
 */
export interface Semaphore {
  /** Runs `task` once a slot is free; the slot is released when the task settles. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly waiting: number;
}

/**
 * Creates a {@link Semaphore} with `limit` slots (an integer ≥ 1).
 * @example
 * const semaphore = createSemaphore(2);
 * await Promise.all(urls.map((url) => semaphore.run(() => download(url)))); // ≤ 2 at a time
 */
export function createSemaphore(limit: number): Semaphore {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`createSemaphore requires an integer limit ≥ 1, got ${limit}`);
  }
  let active = 0;
  const queue: (() => void)[] = [];

  function release(): void {
    const next = queue.shift();
    // Hand the slot straight to the next waiter: `active` stays the same.
    if (next === undefined) active -= 1;
    else next();
  }

  async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active < limit) active += 1;
    else await new Promise<void>((resolve) => queue.push(resolve));
    try {
      return await task();
    } finally {
      release();
    }
  }

  return {
    run,
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
