/**
 * Statistics of a column that is already sorted, so that the column is sorted once for all the
 * records of an ensemble. Each repeats a reference definition on sorted input and is tested to give
 * the reference function's result bit for bit (`percentileLinear`, the counts of `lpRangeStatistics`).
 */

import { PERCENTILE_PROBABILITIES, roundTo } from "../../domain/insightConventions.ts";
import { PERCENTILE_KEYS, type Percentiles } from "../../domain/records/percentiles.ts";

/**
 * The R-7 percentile (numpy `linear`) of an ascending column: h = (n − 1)·p, lower = ⌊h⌋,
 * value = x[lower] + (h − lower)·(x[lower + 1] − x[lower]), exactly as `percentileLinear` of
 * `src/reference/percentiles.ts` computes it after sorting. NaN when the column holds a NaN
 * (ascending typed-array order puts NaN last). Throws `RangeError` for an empty column or p ∉ [0, 1].
 * @example percentileOfSorted(Float64Array.of(1, 2, 3, 4), 0.5) // => 2.5
 */
export function percentileOfSorted(sorted: Float64Array, p: number): number {
  const count = sorted.length;
  if (count === 0) throw new RangeError("percentileOfSorted requires a non-empty column, got none");
  if (!(p >= 0 && p <= 1)) {
    throw new RangeError(`percentileOfSorted requires p in [0, 1], got ${p}`);
  }
  if (Number.isNaN(sorted[count - 1])) return NaN;
  const h = (count - 1) * p;
  const lower = Math.floor(h);
  if (lower === count - 1) return sorted[lower];
  return sorted[lower] + (h - lower) * (sorted[lower + 1] - sorted[lower]);
}

/**
 * How many values of an ascending column are strictly below `level` (binary search, O(log n)).
 * @example countBelowSorted(Float64Array.of(1, 2, 2, 3), 2) // => 1
 */
export function countBelowSorted(sorted: Float64Array, level: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] < level) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * How many values of an ascending column are at or below `level` (binary search, O(log n)).
 * @example countAtOrBelowSorted(Float64Array.of(1, 2, 2, 3), 2) // => 3
 */
export function countAtOrBelowSorted(sorted: Float64Array, level: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] <= level) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The nine spec percentiles (keys `0.005` … `0.995`) of an ascending column by
 * {@link percentileOfSorted}, each rounded to `decimals` (`roundTo` of the insight conventions).
 * @example percentilesOfSorted(Float64Array.of(1, 2, 3), 2)["0.5"] // => 2
 */
export function percentilesOfSorted(sorted: Float64Array, decimals: number): Percentiles {
  const values = {} as Percentiles;
  PERCENTILE_KEYS.forEach((key, index) => {
    values[key] = roundTo(percentileOfSorted(sorted, PERCENTILE_PROBABILITIES[index]), decimals);
  });
  return values;
}
