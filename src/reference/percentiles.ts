/**
 * Percentiles by the R-7 method (numpy's default `linear`), written to be read, not to be fast.
 * The fast core's `stepQuantiles` is tested against these.
 */

import { requireNonEmpty, requirePathMatrix } from "./validate.ts";

/**
 * The `p`-th quantile (0 ≤ p ≤ 1) of `values` by the R-7 method (numpy `percentile`, method
 * `linear`): sort a copy ascending, h = (n − 1)·p, lower = ⌊h⌋,
 * value = x[lower] + (h − lower)·(x[lower + 1] − x[lower]).
 * Returns NaN when any value is NaN (as numpy does).
 * Throws `RangeError` when `values` is empty or `p` is not in [0, 1].
 * @example percentileLinear([1, 2, 3, 4], 0.5) // => 2.5
 * @example percentileLinear([10, 0, 20], 0.25) // => 5
 */
export function percentileLinear(values: readonly number[], p: number): number {
  requireNonEmpty("percentileLinear", "values", values);
  if (!(p >= 0 && p <= 1)) {
    throw new RangeError(`percentileLinear requires p in [0, 1], got ${p}`);
  }
  if (values.some((value) => Number.isNaN(value))) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const h = (sorted.length - 1) * p;
  const lower = Math.floor(h);
  if (lower === sorted.length - 1) return sorted[lower];
  return sorted[lower] + (h - lower) * (sorted[lower + 1] - sorted[lower]);
}

/**
 * Percentiles of every step (point) across paths: `result[step][k]` is the R-7 percentile
 * {@link percentileLinear} of the column `paths[·][step]` at `probabilities[k]`.
 * `paths[p][t]` is path p at point t; every path must have the same number of points.
 * Throws `RangeError` when there are no paths or the paths have different lengths.
 * @example stepPercentiles([[100, 101], [100, 103]], [0.5]) // => [[100], [102]]
 */
export function stepPercentiles(
  paths: readonly (readonly number[])[],
  probabilities: readonly number[],
): number[][] {
  const pointCount = requirePathMatrix("stepPercentiles", paths);
  const result: number[][] = [];
  for (let step = 0; step < pointCount; step++) {
    const column = paths.map((path) => path[step]);
    result.push(probabilities.map((probability) => percentileLinear(column, probability)));
  }
  return result;
}
