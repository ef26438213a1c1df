/**
 * Probabilities of the terminal price S_T relative to many levels, from the sorted terminal
 * prices: one binary search per level.
 */

import { requireEstimatesLength, requireLength, requireSortedAscending } from "./entryChecks.ts";
import { allFiniteSorted, countAtMostSorted, countBelowSorted } from "./sortedCounts.ts";
import { createEstimates, probabilityStandardError, type Estimates } from "./stderr.ts";

/**
 * P(S_T > level) and P(S_T < level) per level, with standard errors.
 * @example const { above, below } = terminalProbabilitiesSorted(sortedTerminal, levels);
 */
export interface TerminalEstimates {
  /** P(S_T > level), strict. */
  readonly above: Estimates;
  /** P(S_T < level), strict. */
  readonly below: Estimates;
}

/**
 * A {@link TerminalEstimates} buffer for `nLevels` levels.
 * @param nLevels - the number of levels.
 * @example createTerminalEstimates(11).above.values.length // => 11
 */
export function createTerminalEstimates(nLevels: number): TerminalEstimates {
  return { above: createEstimates(nLevels), below: createEstimates(nLevels) };
}

/**
 * P(S_T > level) and P(S_T < level) (both strict) for every level, as counts over the ascending
 * terminal prices `sorted` divided by their number; standard errors √(p(1 − p)/n).
 * O(n) to check the order + O(L log n).
 * NaN for a NaN level, and for every level when `sorted` is empty or holds a non-finite price.
 * Throws `RangeError` when `sorted` is not ascending or `out` has the wrong length.
 * @param sorted - the terminal prices, ascending (NaN last, as `Float64Array.prototype.sort` leaves
 *   them).
 * @param levels - the price levels, any order; a NaN level gives NaN.
 * @param out - where to write, one entry per level in each of above and below ({@link
 *   createTerminalEstimates}); a new buffer by default.
 * @example
 * terminalProbabilitiesSorted(Float64Array.of(90, 100, 110, 120), Float64Array.of(100))
 * // => { above: { values: [0.5], … }, below: { values: [0.25], … } }
 */
export function terminalProbabilitiesSorted(
  sorted: Float64Array,
  levels: Float64Array,
  out: TerminalEstimates = createTerminalEstimates(levels.length),
): TerminalEstimates {
  const operation = "terminalProbabilitiesSorted";
  requireSortedAscending(operation, "sorted", sorted);
  const nLevels = levels.length;
  requireEstimatesLength(operation, "out.above", out.above, nLevels);
  requireEstimatesLength(operation, "out.below", out.below, nLevels);
  const n = sorted.length;
  const finite = allFiniteSorted(sorted);
  for (let index = 0; index < nLevels; ++index) {
    const level = levels[index];
    const usable = finite && !Number.isNaN(level);
    const above = usable ? (n - countAtMostSorted(sorted, level)) / n : NaN;
    const below = usable ? countBelowSorted(sorted, level) / n : NaN;
    out.above.values[index] = above;
    out.above.standardErrors[index] = probabilityStandardError(above, n);
    out.below.values[index] = below;
    out.below.standardErrors[index] = probabilityStandardError(below, n);
  }
  return out;
}

/**
 * P(lowers[i] ≤ S_T ≤ uppers[i]) (inclusive) for every interval i, from the ascending terminal
 * prices `sorted`; standard errors √(p(1 − p)/n). O(n) to check the order + O(I log n).
 * NaN for an interval with a NaN bound or lower > upper, and for every interval when `sorted` is
 * empty or holds a non-finite price.
 * Throws `RangeError` when `sorted` is not ascending or the lengths of `lowers`, `uppers` and
 * `out` differ.
 * @param sorted - the terminal prices, ascending (NaN last, as `Float64Array.prototype.sort` leaves
 *   them).
 * @param lowers - the lower bound of each interval (inclusive).
 * @param uppers - the upper bound of each interval (inclusive), one per lower bound.
 * @param out - where to write, one entry per interval; a new buffer by default.
 * @example terminalBetweenSorted(Float64Array.of(90, 100, 110, 120), Float64Array.of(100), Float64Array.of(110))
 * // => { values: [0.5], standardErrors: [0.25] }
 */
export function terminalBetweenSorted(
  sorted: Float64Array,
  lowers: Float64Array,
  uppers: Float64Array,
  out: Estimates = createEstimates(lowers.length),
): Estimates {
  const operation = "terminalBetweenSorted";
  requireSortedAscending(operation, "sorted", sorted);
  const nIntervals = lowers.length;
  requireLength(operation, "uppers", uppers.length, nIntervals);
  requireEstimatesLength(operation, "out", out, nIntervals);
  const n = sorted.length;
  const finite = allFiniteSorted(sorted);
  for (let index = 0; index < nIntervals; ++index) {
    const lower = lowers[index];
    const upper = uppers[index];
    const probability =
      finite && lower <= upper
        ? (countAtMostSorted(sorted, upper) - countBelowSorted(sorted, lower)) / n
        : NaN;
    out.values[index] = probability;
    out.standardErrors[index] = probabilityStandardError(probability, n);
  }
  return out;
}
