/** What of a job's client options can cross to its worker threads: data, not functions. */

/**
 * Whether `value` is data a thread can be given: a primitive, or an array or plain object of data.
 * @example isData({ naming: liveNaming }) // => true
 */
export function isData(value: unknown): boolean {
  if (typeof value === "function") return false;
  if (typeof value !== "object" || value === null) return true;
  const prototype = Object.getPrototypeOf(value) as unknown;
  const plain = Array.isArray(value) || prototype === Object.prototype || prototype === null;
  return plain && Object.values(value).every(isData);
}

/**
 * The entries of `options` that are data ({@link isData}).
 * @example dataOf({ concurrency: 4, onEvent: () => {} }) // => { concurrency: 4 }
 */
export function dataOf<T extends object>(options: T | undefined): Partial<T> {
  return Object.fromEntries(
    Object.entries(options ?? {}).filter(([, value]) => isData(value)),
  ) as Partial<T>;
}

/**
 * The unit pool threads a run may use: `requested`, or 0 when a recorder must see every request
 * (it sits on the job's client) or when the client options hold functions, which cannot cross to
 * a thread.
 * @example unitPoolThreads(2, { onEvent: () => {} }, false) // => 0
 */
export function unitPoolThreads(
  requested: number,
  clientOptions: object | undefined,
  recording: boolean,
): number {
  const clientIsData = Object.values(clientOptions ?? {}).every(isData);
  return !recording && clientIsData ? requested : 0;
}
