/**
 * Touch probabilities under continuous monitoring, estimated from discretely observed paths with
 * the Brownian-bridge correction (Beaglehole, Dybvig & Zhou, "Going to Extremes: Correcting
 * Simulation Bias in Exotic Option Valuation", Financial Analysts Journal, 1997).
 */

import { ascendingLevels } from "./ascendingOrder.ts";
import { countAtMostSorted, countBelowSorted } from "./sortedCounts.ts";
import { meanStandardErrorFromSums } from "./stderr.ts";
import {
  createTouchEstimates,
  requireTouchArguments,
  type TouchEstimates,
  type TouchOptions,
} from "./touchProbabilities.ts";

/**
 * What {@link touchBridgeProbabilities} estimates: those of {@link touchProbabilities} and the
 * variance of the bridge between points.
 * @example const options: TouchBridgeOptions = { levels, windowEndSteps: Int32Array.of(288), stepLogVariance: 1e-6 };
 */
export interface TouchBridgeOptions extends TouchOptions {
  /**
   * The variance σ²Δ of a one-step log return, of every path ({@link pooledLogReturnVariance});
   * 0 gives the discrete result, a negative or non-finite one NaN everywhere.
   */
  readonly stepLogVariance: number;
}

/**
 * A step whose crossing probability q = exp(−x) has x above this leaves 1 − q rounded to exactly
 * 1 (q < 2⁻⁵⁴ for x > 37.43), so skipping it changes no bit of the result.
 */
const NEGLIGIBLE_EXPONENT = 38;

/**
 * Probability that each path touches each level within each window [fromStep, windowEndSteps[w]]
 * when prices are monitored continuously between the observed points, in both directions; the
 * mean over paths of a per-path touch probability, with standard error (sample std / √nPaths).
 *
 * Method: Brownian-bridge correction (Beaglehole, Dybvig & Zhou 1997). Between consecutive
 * points a and b in log space, both below log-level ℓ, a Brownian bridge with variance
 * `stepLogVariance` (σ²Δ) over the step crosses ℓ with probability exp(−2(ℓ−a)(ℓ−b)/(σ²Δ))
 * (mirrored for "down"). A path's touch probability is 1 if it touches discretely (some point
 * ≥ level, resp. ≤ level, as {@link touchProbabilities}), else 1 − Π(1 − p_step) over the
 * window's steps. Pass the pooled variance of the log returns of all paths,
 * {@link pooledLogReturnVariance}, as `stepLogVariance`: one σ for the ensemble is more stable
 * than a per-path estimate from a few hundred returns. With `stepLogVariance` 0 the result
 * equals the discrete one.
 *
 * Cost: a step contributes only for levels within √(19·σ²Δ) of it in log space (the others change
 * no bit, see the constant above), found by walking each point's position among the sorted levels
 * (O(1) amortized); only the points of those steps take a logarithm, relative to one reference
 * price so that differences of nearby logs keep their precision.
 * O(nPaths·nPoints) plus the near-level steps, plus O(nWindows·nPaths·L) to accumulate.
 *
 * Results are NaN for a NaN level; for every level of a window in which some path has a
 * non-finite or non-positive point; for every entry when `stepLogVariance` is negative or not
 * finite, or nPaths is 0. Levels ≤ 0 are never crossed between positive points. Throws
 * `RangeError` for a shape mismatch, window ends not ascending in [fromStep, nPoints − 1], or an
 * `out` of the wrong length.
 * @param values - the paths, path-major: `nPaths` × `nPoints` prices.
 * @param nPaths - the number of paths.
 * @param nPoints - points per path.
 * @param options - the levels, the windows' ends and start, the step variance and the buffer to
 *   write.
 * @example
 * const stepLogVariance = pooledLogReturnVariance(values, nPaths, nPoints);
 * const { up, down } = touchBridgeProbabilities(values, nPaths, nPoints,
 *   { levels, windowEndSteps: Int32Array.of(72, 288), stepLogVariance });
 */
export function touchBridgeProbabilities(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  options: TouchBridgeOptions,
): TouchEstimates {
  const operation = "touchBridgeProbabilities";
  const { levels, windowEndSteps, stepLogVariance } = options;
  const fromStep = options.fromStep ?? 0;
  const out = options.out ?? createTouchEstimates(levels.length, windowEndSteps.length);
  requireTouchArguments(operation, values, nPaths, nPoints, levels, windowEndSteps, fromStep, out);
  const nLevels = levels.length;
  const nWindows = windowEndSteps.length;
  out.up.values.fill(NaN);
  out.up.standardErrors.fill(NaN);
  out.down.values.fill(NaN);
  out.down.standardErrors.fill(NaN);
  if (!(stepLogVariance >= 0 && stepLogVariance < Infinity)) return out;

  const { sorted: sortedLevels, order } = ascendingLevels(levels); // NaN levels left out
  const nSorted = sortedLevels.length;
  // Logs are taken relative to one reference price, so that differences of logs of nearby
  // prices keep their relative precision (ln(ℓ/r) − ln(p/r) instead of ln ℓ − ln p).
  const first = values.length > 0 ? values[fromStep] : 1;
  const reference = first > 0 && first < Infinity ? first : 1;
  const logLevels = new Float64Array(nSorted); // unused for levels ≤ 0: never within reach
  for (let rank = 0; rank < nSorted; ++rank) {
    logLevels[rank] = Math.log(sortedLevels[rank] / reference);
  }
  // A level farther than √(19·σ²Δ) in log space from both ends of a step changes no bit.
  const reachFactor = Math.exp(Math.sqrt((NEGLIGIBLE_EXPONENT / 2) * stepLogVariance));
  const twoOverVariance = 2 / stepLogVariance;

  const survivalUp = new Float64Array(nSorted); // Π(1 − p_step) so far, per level
  const survivalDown = new Float64Array(nSorted);
  const sumUp = new Float64Array(nWindows * nSorted);
  const sumOfSquaresUp = new Float64Array(nWindows * nSorted);
  const sumDown = new Float64Array(nWindows * nSorted);
  const sumOfSquaresDown = new Float64Array(nWindows * nSorted);
  const windowIsInvalid = new Uint8Array(nWindows);
  for (let path = 0; path < nPaths; ++path) {
    survivalUp.fill(1);
    survivalDown.fill(1);
    const base = path * nPoints;
    let previous = values[base + fromStep];
    let logPrevious = NaN; // ln(previous / reference), NaN until a step needs it
    let minimum = previous;
    let finiteCheck = previous * 0; // stays 0 while every point is finite, NaN after
    // How many levels are at most / strictly below the previous point, walked point to point.
    let previousAtMost = countAtMostSorted(sortedLevels, previous);
    let previousBelow = countBelowSorted(sortedLevels, previous);
    // Levels of rank < touchedUp were reached upward at an observed point, levels of rank
    // ≥ untouchedDown downward: their touch probability is 1 and their survival is not needed.
    let touchedUp = previousAtMost;
    let untouchedDown = previousBelow;
    let step = fromStep + 1;
    for (let window = 0; window < nWindows; ++window) {
      const end = windowEndSteps[window];
      for (; step <= end; ++step) {
        const point = values[base + step];
        if (point < minimum) minimum = point;
        finiteCheck += point * 0;
        let atMost = previousAtMost;
        while (atMost < nSorted && sortedLevels[atMost] <= point) ++atMost;
        while (atMost > 0 && sortedLevels[atMost - 1] > point) --atMost;
        let below = previousBelow;
        while (below < nSorted && sortedLevels[below] < point) ++below;
        while (below > 0 && sortedLevels[below - 1] >= point) --below;
        if (atMost > touchedUp) touchedUp = atMost;
        if (below < untouchedDown) untouchedDown = below;
        let logPoint = NaN;
        // Up: untouched levels (so above both ends of the step), nearest first, while within reach.
        const highest = (point > previous ? point : previous) * reachFactor;
        let rank = touchedUp;
        if (rank < nSorted && sortedLevels[rank] <= highest) {
          if (logPrevious !== logPrevious) logPrevious = Math.log(previous / reference);
          logPoint = Math.log(point / reference);
          do {
            const toLevel = logLevels[rank];
            const exponent = twoOverVariance * (toLevel - logPrevious) * (toLevel - logPoint);
            survivalUp[rank] *= 1 - Math.exp(-exponent);
            ++rank;
          } while (rank < nSorted && sortedLevels[rank] <= highest);
        }
        // Down: untouched levels (so below both ends of the step), nearest first, within reach.
        const lowest = (point < previous ? point : previous) / reachFactor;
        rank = untouchedDown - 1;
        if (rank >= 0 && sortedLevels[rank] >= lowest) {
          if (logPrevious !== logPrevious) logPrevious = Math.log(previous / reference);
          if (logPoint !== logPoint) logPoint = Math.log(point / reference);
          do {
            const toLevel = logLevels[rank];
            const exponent = twoOverVariance * (logPrevious - toLevel) * (logPoint - toLevel);
            survivalDown[rank] *= 1 - Math.exp(-exponent);
            --rank;
          } while (rank >= 0 && sortedLevels[rank] >= lowest);
        }
        previous = point;
        logPrevious = logPoint;
        previousAtMost = atMost;
        previousBelow = below;
      }
      if (finiteCheck !== 0 || !(minimum > 0)) {
        windowIsInvalid[window] = 1;
        continue;
      }
      const row = window * nSorted;
      for (let rank = 0; rank < nSorted; ++rank) {
        const up = rank < touchedUp ? 1 : 1 - survivalUp[rank];
        sumUp[row + rank] += up;
        sumOfSquaresUp[row + rank] += up * up;
        const down = rank >= untouchedDown ? 1 : 1 - survivalDown[rank];
        sumDown[row + rank] += down;
        sumOfSquaresDown[row + rank] += down * down;
      }
    }
  }

  for (let window = 0; window < nWindows; ++window) {
    if (windowIsInvalid[window] === 1) continue;
    for (let rank = 0; rank < nSorted; ++rank) {
      const index = window * nLevels + order[rank];
      const sorted = window * nSorted + rank;
      out.up.values[index] = sumUp[sorted] / nPaths;
      out.up.standardErrors[index] = meanStandardErrorFromSums(
        sumUp[sorted],
        sumOfSquaresUp[sorted],
        nPaths,
      );
      out.down.values[index] = sumDown[sorted] / nPaths;
      out.down.standardErrors[index] = meanStandardErrorFromSums(
        sumDown[sorted],
        sumOfSquaresDown[sorted],
        nPaths,
      );
    }
  }
  return out;
}
