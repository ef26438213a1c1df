/**
 * The path set: one miner's simulated price paths for one prompt, in one Float64Array.
 */

/**
 * One miner's paths for one prompt: `nPaths` paths of `nPoints` points each, in one
 * path-major Float64Array (path p, point t at `p·nPoints + t`; point 0 is the start). As an Arrow
 * table (`toArrowTable`) the `prices` column's child buffer is this very `values` array.
 * @example
 * const pathSet: PathSet = {
 *   asset: "BTC", minerUid: 17, startTime: 1772063100, timeIncrement: 300,
 *   nPaths: 2, nPoints: 3, values: Float64Array.of(100, 101, 102, 100, 99, 98),
 * };
 */
export interface PathSet {
  /** Asset symbol, as the prompt names it (`BTC`, `XAU`, `NVDAX`). */
  readonly asset: string;
  /** The miner's uid (`miner_uid`, the leaderboard's `neuron_uid`). */
  readonly minerUid: number;
  /** Start of the paths, Unix seconds (the record's `start_time`). */
  readonly startTime: number;
  /** Seconds between consecutive points (300 for 24h prompts, 60 for 1h prompts). */
  readonly timeIncrement: number;
  /** Number of paths (1,000 in the spec). */
  readonly nPaths: number;
  /** Points per path, point 0 included (289 for 24h prompts, 61 for 1h prompts). */
  readonly nPoints: number;
  /** The prices, path-major: `nPaths × nPoints` numbers. */
  readonly values: Float64Array;
}

/**
 * How a reader allocates a path set's values (`pathSetFromPrediction`, `readPathSets`).
 * @example const allocation: PathSetAllocation = { shared: true };
 */
export interface PathSetAllocation {
  /**
   * Allocate `values` over a SharedArrayBuffer (default false). `ScoringThreads` then share
   * them with their threads, which read them in place; ordinary arrays are copied into shared
   * memory first, by the calling thread, on the way to a thread (~2.3 MB per 24h path set).
   * (`InsightThreads` reads an ensemble, which `ensembleOf(pathSets, { shared: true })` pools
   * into shared memory.)
   */
  readonly shared?: boolean;
}

/**
 * `length` zeros in a new Float64Array, over a SharedArrayBuffer when `shared`.
 * @param length - the number of values.
 * @param shared - whether to allocate over a SharedArrayBuffer (false by default).
 * @example allocateValues(3, true).buffer instanceof SharedArrayBuffer // => true
 */
export function allocateValues(length: number, shared = false): Float64Array {
  return shared
    ? new Float64Array(new SharedArrayBuffer(length * Float64Array.BYTES_PER_ELEMENT))
    : new Float64Array(length);
}
