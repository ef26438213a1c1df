/**
 * Concentrated-liquidity range statistics for many intervals at once, from one pass over each
 * path: probability to stay inside, expected time inside, expected impermanent loss.
 */

import { ascendingOrder } from "./ascendingOrder.ts";
import { requireEstimatesLength, requireLength, requirePathShape } from "./entryChecks.ts";
import { impermanentLoss } from "./impermanentLoss.ts";
import {
  createEstimates,
  meanStandardErrorFromSums,
  probabilityStandardError,
  type Estimates,
} from "./stderr.ts";

/**
 * The statistics of each interval, with standard errors, in the order of the intervals.
 * @example const { probabilityToStay } = rangeStatistics(values, nPaths, nPoints, { lowers, uppers, startPrice: 2000, stepMinutes: 5 });
 */
export interface RangeEstimates {
  /** Fraction of paths with every point 0..N−1 strictly inside (lower, upper). */
  readonly probabilityToStay: Estimates;
  /** Mean over paths of stepMinutes × #{t in 1..N−1 : point t strictly inside}. */
  readonly expectedTimeInsideMinutes: Estimates;
  /** Mean over paths of the impermanent loss at the terminal price (positive fraction). */
  readonly expectedImpermanentLoss: Estimates;
}

/**
 * A {@link RangeEstimates} buffer for `nIntervals` intervals.
 * @param nIntervals - the number of intervals.
 * @example createRangeEstimates(16).probabilityToStay.values.length // => 16
 */
export function createRangeEstimates(nIntervals: number): RangeEstimates {
  return {
    probabilityToStay: createEstimates(nIntervals),
    expectedTimeInsideMinutes: createEstimates(nIntervals),
    expectedImpermanentLoss: createEstimates(nIntervals),
  };
}

/**
 * The intervals of {@link rangeEstimatesOfSums}, the step length, and where it writes.
 * @example const options: RangeIntervalOptions = { lowers: Float64Array.of(90), uppers: Float64Array.of(110), stepMinutes: 5 };
 */
export interface RangeIntervalOptions {
  /** The lower bound of each interval (exclusive). */
  readonly lowers: Float64Array;
  /** The upper bound of each interval (exclusive), one per lower bound. */
  readonly uppers: Float64Array;
  /** Minutes between consecutive points (positive; otherwise the expected time is NaN). */
  readonly stepMinutes: number;
  /**
   * Where to write, one entry per interval in each statistic ({@link createRangeEstimates}); a
   * new buffer by default.
   */
  readonly out?: RangeEstimates;
}

/**
 * The intervals of {@link rangeStatistics}, the position's opening price, the step length, and
 * where it writes.
 * @example const options: RangeOptions = { lowers: Float64Array.of(90), uppers: Float64Array.of(110), startPrice: 100, stepMinutes: 5 };
 */
export interface RangeOptions extends RangeIntervalOptions {
  /** The price at which the position opens (for the impermanent loss), within each interval. */
  readonly startPrice: number;
}

/**
 * For every interval i = (lowers[i], uppers[i]) of a concentrated-liquidity position opened at
 * `startPrice`: the probability that a path stays strictly inside at every point 0..N−1 (never
 * touches a bound), the expected time inside in minutes (stepMinutes × the points 1..N−1 strictly
 * inside, so at most the horizon), and the expected {@link impermanentLoss} at the terminal price;
 * standard errors √(p(1 − p)/n) and sample std / √n.
 *
 * Method: one scan per path keeps its minimum and maximum and, for each point, its position among
 * the sorted upper bounds (how many are ≤ it) and the sorted lower bounds (how many are < it),
 * walked from the previous point's position (paths move little per step, so O(1) amortized) and
 * counted per position as run lengths. Cumulative counts of those positions give
 * #{t : p < U} − #{t : p ≤ L} = #{t : L < p < U} for every interval.
 * O(nPaths·(nPoints + I)) after sorting the I intervals' bounds.
 *
 * NaN for every statistic when some point is not finite or nPaths is 0; for an interval unless
 * 0 < lower < upper < ∞; for the expected time when `stepMinutes` is not a positive finite
 * number; for the impermanent loss when `startPrice` is outside the interval or some terminal
 * price is negative. Throws `RangeError` for a shape mismatch or mismatched lengths of `lowers`,
 * `uppers` and `out`.
 * @param values - the paths, path-major: `nPaths` × `nPoints` prices.
 * @param nPaths - the number of paths.
 * @param nPoints - points per path.
 * @param options - the intervals, the opening price, the minutes between points, and the buffer
 *   to write.
 * @example
 * rangeStatistics(Float64Array.of(100, 101, 102, 100, 120, 100), 2, 3,
 *   { lowers: Float64Array.of(90), uppers: Float64Array.of(110), startPrice: 100, stepMinutes: 5 })
 * // => probabilityToStay [0.5], expectedTimeInsideMinutes [7.5], expectedImpermanentLoss [0.000501…]
 */
export function rangeStatistics(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  options: RangeOptions,
): RangeEstimates {
  const { lowers, uppers, startPrice, stepMinutes } = options;
  const out = options.out ?? createRangeEstimates(lowers.length);
  const operation = "rangeStatistics";
  requirePathShape(operation, values, nPaths, nPoints);
  const nIntervals = lowers.length;
  requireLength(operation, "uppers", uppers.length, nIntervals);
  requireEstimatesLength(operation, "out.probabilityToStay", out.probabilityToStay, nIntervals);
  requireEstimatesLength(
    operation,
    "out.expectedTimeInsideMinutes",
    out.expectedTimeInsideMinutes,
    nIntervals,
  );
  requireEstimatesLength(
    operation,
    "out.expectedImpermanentLoss",
    out.expectedImpermanentLoss,
    nIntervals,
  );

  // Sorted bounds between NaN sentinels: a walk compares bounds[position + 1] (the next bound up)
  // and bounds[position] (the last bound passed), and NaN stops it at either end.
  const lowerOrder = ascendingOrder(lowers);
  const upperOrder = ascendingOrder(uppers);
  const paddedLowers = new Float64Array(nIntervals + 2).fill(NaN);
  const paddedUppers = new Float64Array(nIntervals + 2).fill(NaN);
  const lowerRank = new Int32Array(nIntervals);
  const upperRank = new Int32Array(nIntervals);
  for (let rank = 0; rank < nIntervals; ++rank) {
    paddedLowers[rank + 1] = lowers[lowerOrder[rank]];
    paddedUppers[rank + 1] = uppers[upperOrder[rank]];
    lowerRank[lowerOrder[rank]] = rank;
    upperRank[upperOrder[rank]] = rank;
  }

  // Per path: how many points sit at each position among the sorted bounds (run lengths, as the
  // position rarely changes); cumulated, how many points lie below each bound.
  const upperPositions = new Int32Array(nIntervals + 1);
  const lowerPositions = new Int32Array(nIntervals + 1);
  const stayCounts = new Float64Array(nIntervals);
  const insideSums = new Float64Array(nIntervals); // counts of points: sums stay exact integers
  const insideSumsOfSquares = new Float64Array(nIntervals);
  const lossSums = new Float64Array(nIntervals);
  const lossSumsOfSquares = new Float64Array(nIntervals);
  let hasNonFinite = false;
  let upperPosition = 0; // #{upper bounds ≤ point}
  let lowerPosition = 0; // #{lower bounds < point}
  for (let path = 0; path < nPaths; ++path) {
    const base = path * nPoints;
    let minimum = values[base];
    let maximum = minimum;
    if (!(minimum - minimum === 0)) hasNonFinite = true;
    upperPositions.fill(0);
    lowerPositions.fill(0);
    let upperRunStart = 1;
    let lowerRunStart = 1;
    for (let step = 1; step < nPoints; ++step) {
      const point = values[base + step];
      if (!(point <= maximum && point >= minimum)) {
        if (point > maximum) maximum = point;
        else if (point < minimum) minimum = point;
        else hasNonFinite = true; // NaN
      }
      if (paddedUppers[upperPosition + 1] <= point || paddedUppers[upperPosition] > point) {
        upperPositions[upperPosition] += step - upperRunStart;
        upperRunStart = step;
        while (paddedUppers[upperPosition + 1] <= point) ++upperPosition;
        while (paddedUppers[upperPosition] > point) --upperPosition;
      }
      if (paddedLowers[lowerPosition + 1] < point || paddedLowers[lowerPosition] >= point) {
        lowerPositions[lowerPosition] += step - lowerRunStart;
        lowerRunStart = step;
        while (paddedLowers[lowerPosition + 1] < point) ++lowerPosition;
        while (paddedLowers[lowerPosition] >= point) --lowerPosition;
      }
    }
    upperPositions[upperPosition] += nPoints - upperRunStart;
    lowerPositions[lowerPosition] += nPoints - lowerRunStart;
    if (maximum === Infinity || minimum === -Infinity) hasNonFinite = true;
    // Cumulate: position ≤ r ⇔ point < r-th smallest upper (resp. point ≤ r-th smallest lower).
    for (let rank = 1; rank < nIntervals; ++rank) {
      upperPositions[rank] += upperPositions[rank - 1];
      lowerPositions[rank] += lowerPositions[rank - 1];
    }
    const terminal = values[base + nPoints - 1];
    for (let interval = 0; interval < nIntervals; ++interval) {
      const inside = upperPositions[upperRank[interval]] - lowerPositions[lowerRank[interval]];
      insideSums[interval] += inside;
      insideSumsOfSquares[interval] += inside * inside;
      if (minimum > lowers[interval] && maximum < uppers[interval]) stayCounts[interval] += 1;
      const loss = impermanentLoss(startPrice, lowers[interval], uppers[interval], terminal);
      lossSums[interval] += loss;
      lossSumsOfSquares[interval] += loss * loss;
    }
  }

  return rangeEstimatesOfSums(
    { stayCounts, insideSums, insideSumsOfSquares, lossSums, lossSumsOfSquares },
    !hasNonFinite,
    nPaths,
    { lowers, uppers, stepMinutes, out },
  );
}

/**
 * Per-interval sums over the paths of a range pass: the paths that stayed inside, the points
 * inside (stepMinutes × the points 1..N−1 strictly inside, unscaled) and their squares, the
 * impermanent losses at the terminal price and their squares.
 * @example const sums: RangeSums = { stayCounts, insideSums, insideSumsOfSquares, lossSums, lossSumsOfSquares };
 */
export interface RangeSums {
  /** Per interval, the paths that stayed strictly inside at every point. */
  readonly stayCounts: Float64Array;
  /** Per interval, Σ over paths of the points 1..N−1 strictly inside. */
  readonly insideSums: Float64Array;
  /** Per interval, Σ over paths of the square of those counts. */
  readonly insideSumsOfSquares: Float64Array;
  /** Per interval, Σ over paths of the impermanent loss at the terminal price. */
  readonly lossSums: Float64Array;
  /** Per interval, Σ over paths of its square. */
  readonly lossSumsOfSquares: Float64Array;
}

/**
 * The estimates of {@link rangeStatistics} from its per-interval sums over `nPaths` paths
 * (`finite`: every point of every path was finite), written into `out`: stay fraction, mean time
 * inside in minutes and mean loss, with standard errors √(p(1 − p)/n) and sample std / √n. NaN as
 * {@link rangeStatistics} says (the sums do not matter then).
 * @param sums - the per-interval sums over the paths.
 * @param finite - whether every point of every path was finite (otherwise every entry is NaN).
 * @param nPaths - the number of paths summed over.
 * @param options - the intervals, the minutes between points, and the buffer to write.
 * @example
 * const one = Float64Array.of(1);
 * const sums = { stayCounts: one, insideSums: Float64Array.of(2), insideSumsOfSquares: Float64Array.of(4), lossSums: Float64Array.of(0), lossSumsOfSquares: Float64Array.of(0) };
 * rangeEstimatesOfSums(sums, true, 1, { lowers: Float64Array.of(90), uppers: Float64Array.of(110), stepMinutes: 5 })
 *   .expectedTimeInsideMinutes.values[0] // => 10
 */
export function rangeEstimatesOfSums(
  sums: RangeSums,
  finite: boolean,
  nPaths: number,
  options: RangeIntervalOptions,
): RangeEstimates {
  const { lowers, uppers, stepMinutes } = options;
  const out = options.out ?? createRangeEstimates(lowers.length);
  const { stayCounts, insideSums, insideSumsOfSquares, lossSums, lossSumsOfSquares } = sums;
  const nIntervals = lowers.length;
  const validMinutes = stepMinutes > 0 && stepMinutes < Infinity;
  for (let interval = 0; interval < nIntervals; ++interval) {
    const lower = lowers[interval];
    const upper = uppers[interval];
    const valid = finite && nPaths > 0 && lower > 0 && lower < upper && upper < Infinity;
    const stay = valid ? stayCounts[interval] / nPaths : NaN;
    out.probabilityToStay.values[interval] = stay;
    out.probabilityToStay.standardErrors[interval] = probabilityStandardError(stay, nPaths);
    const timeValid = valid && validMinutes;
    out.expectedTimeInsideMinutes.values[interval] = timeValid
      ? (stepMinutes * insideSums[interval]) / nPaths
      : NaN;
    out.expectedTimeInsideMinutes.standardErrors[interval] = timeValid
      ? stepMinutes *
        meanStandardErrorFromSums(insideSums[interval], insideSumsOfSquares[interval], nPaths)
      : NaN;
    out.expectedImpermanentLoss.values[interval] = valid ? lossSums[interval] / nPaths : NaN;
    out.expectedImpermanentLoss.standardErrors[interval] = valid
      ? meanStandardErrorFromSums(lossSums[interval], lossSumsOfSquares[interval], nPaths)
      : NaN;
  }
  return out;
}
