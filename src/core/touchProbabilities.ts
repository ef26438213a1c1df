/**
 * Touch (barrier-hit) probabilities under discrete monitoring, for many levels, both directions
 * and several windows from one pass over the paths.
 */

import { ascendingLevels } from "./ascendingOrder.ts";
import { requireEstimatesLength, requirePathShape, requireWindowEndSteps } from "./entryChecks.ts";
import { countAtMostSorted, countBelowSorted } from "./sortedCounts.ts";
import { createEstimates, probabilityStandardError, type Estimates } from "./stderr.ts";

/**
 * Touch probabilities and their standard errors for both directions, window-major: the entry of
 * window w and level l is at index `w * nLevels + l`.
 * @example const { up, down } = touchProbabilities(values, 1000, 289, { levels, windowEndSteps: Int32Array.of(288) });
 */
export interface TouchEstimates {
  /** P(some point of the window ≥ level). */
  readonly up: Estimates;
  /** P(some point of the window ≤ level). */
  readonly down: Estimates;
}

/**
 * What {@link touchProbabilities} and `touchBridgeProbabilities` estimate: the levels, the
 * windows, and where to write.
 * @example const options: TouchOptions = { levels: Float64Array.of(97, 101), windowEndSteps: Int32Array.of(72, 288) };
 */
export interface TouchOptions {
  /** The price levels (any order; a NaN level gives NaN). */
  readonly levels: Float64Array;
  /**
   * The last step (a point index, inclusive) of each window, ascending, each in
   * [fromStep, nPoints − 1]; every window starts at `fromStep`.
   */
  readonly windowEndSteps: Int32Array;
  /** The first point of every window (a point index); default 0. */
  readonly fromStep?: number;
  /**
   * Where to write, levels × windows entries in each direction ({@link createTouchEstimates});
   * a new buffer by default.
   */
  readonly out?: TouchEstimates;
}

/**
 * A {@link TouchEstimates} buffer for `nLevels` levels and `nWindows` windows.
 * @param nLevels - the number of levels.
 * @param nWindows - the number of windows.
 * @example createTouchEstimates(10, 4).up.values.length // => 40
 */
export function createTouchEstimates(nLevels: number, nWindows: number): TouchEstimates {
  return { up: createEstimates(nLevels * nWindows), down: createEstimates(nLevels * nWindows) };
}

/**
 * The entry checks of the touch kernels: path shape, window ends within [fromStep, nPoints − 1] and
 * ascending, and `out` sized levels × windows; each failure is a `RangeError` naming `operation`.
 * @example requireTouchArguments("touchProbabilities", values, 1000, 289, levels, ends, 0, out);
 */
export function requireTouchArguments(
  operation: string,
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  levels: Float64Array,
  windowEndSteps: Int32Array,
  fromStep: number,
  out: TouchEstimates,
): void {
  requirePathShape(operation, values, nPaths, nPoints);
  requireWindowEndSteps(operation, windowEndSteps, fromStep, nPoints);
  const entries = levels.length * windowEndSteps.length;
  requireEstimatesLength(operation, "out.up", out.up, entries);
  requireEstimatesLength(operation, "out.down", out.down, entries);
}

/**
 * Fraction of paths that touch each level within each window [fromStep, windowEndSteps[w]]
 * (inclusive), in both directions: "up" = some point ≥ level, "down" = some point ≤ level.
 * Standard errors √(p(1 − p)/nPaths).
 *
 * Method: one scan per path keeps the running maximum and minimum and, at each window end, how
 * many of the sorted levels they reach (a binary search at the path's start, then a walk, as the
 * extremes only widen); cumulative counts of those positions give every level's count.
 * O(nPaths·(nPoints + nWindows + L) + L log L) for L levels: the same counts as
 * sorting the extremes per window and binary-searching each level, without the
 * O(nWindows·nPaths log nPaths) sorts.
 *
 * Results are NaN for a NaN level, for every level of a window in which some path has a
 * non-finite point, and when nPaths is 0. Throws `RangeError` for a shape mismatch, a window
 * end outside [fromStep, nPoints − 1] or not ascending, or an `out` of the wrong length.
 * @param values - the paths, path-major: `nPaths` × `nPoints` prices.
 * @param nPaths - the number of paths.
 * @param nPoints - points per path.
 * @param options - the levels, the windows' ends and start, and the buffer to write.
 * @example
 * // two paths of three points, levels 97 and 101, one window over points 0..2
 * touchProbabilities(Float64Array.of(100, 96, 99, 100, 101, 102), 2, 3,
 *   { levels: Float64Array.of(97, 101), windowEndSteps: Int32Array.of(2) })
 * // => { up: { values: [1, 0.5], … }, down: { values: [0.5, 1], … } }
 */
export function touchProbabilities(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  options: TouchOptions,
): TouchEstimates {
  const operation = "touchProbabilities";
  const { levels, windowEndSteps } = options;
  const fromStep = options.fromStep ?? 0;
  const out = options.out ?? createTouchEstimates(levels.length, windowEndSteps.length);
  requireTouchArguments(operation, values, nPaths, nPoints, levels, windowEndSteps, fromStep, out);
  const nLevels = levels.length;
  const nWindows = windowEndSteps.length;

  const { sorted: sortedLevels, order } = ascendingLevels(levels); // NaN levels left out
  const nSorted = sortedLevels.length;

  // reachedUp[w*(nSorted+1) + b]: paths whose maximum is ≥ exactly the b lowest levels;
  // reachedDown[w*(nSorted+1) + b]: paths whose minimum is above exactly the b lowest levels.
  const stride = nSorted + 1;
  const reachedUp = new Int32Array(nWindows * stride);
  const reachedDown = new Int32Array(nWindows * stride);
  const windowHasNonFinite = new Uint8Array(nWindows);
  for (let path = 0; path < nPaths; ++path) {
    const base = path * nPoints;
    let maximum = values[base + fromStep];
    let minimum = maximum;
    let hasNaN = maximum !== maximum;
    // Levels ≤ maximum / < minimum: they only grow / shrink, so walk them from window to window.
    let levelsAtMostMaximum = countAtMostSorted(sortedLevels, maximum);
    let levelsBelowMinimum = countBelowSorted(sortedLevels, minimum);
    let index = base + fromStep + 1;
    for (let window = 0; window < nWindows; ++window) {
      const end = base + windowEndSteps[window];
      for (; index <= end; ++index) {
        const point = values[index];
        // Most points lie inside [minimum, maximum]: test that first (and a NaN fails it).
        if (point <= maximum && point >= minimum) continue;
        if (point > maximum) maximum = point;
        else if (point < minimum) minimum = point;
        else hasNaN = true;
      }
      if (hasNaN || maximum === Infinity || minimum === -Infinity) {
        windowHasNonFinite[window] = 1;
        continue;
      }
      while (levelsAtMostMaximum < nSorted && sortedLevels[levelsAtMostMaximum] <= maximum) {
        ++levelsAtMostMaximum;
      }
      while (levelsBelowMinimum > 0 && sortedLevels[levelsBelowMinimum - 1] >= minimum) {
        --levelsBelowMinimum;
      }
      reachedUp[window * stride + levelsAtMostMaximum] += 1;
      reachedDown[window * stride + levelsBelowMinimum] += 1;
    }
  }

  for (let window = 0; window < nWindows; ++window) {
    const row = window * nLevels;
    const valid = windowHasNonFinite[window] === 0;
    // Up: level of rank r is touched by the paths counted at positions > r (suffix sums).
    let touchedUp = 0;
    for (let rank = nSorted - 1; rank >= 0; --rank) {
      touchedUp += reachedUp[window * stride + rank + 1];
      writeProbability(out.up, row + order[rank], valid ? touchedUp / nPaths : NaN, nPaths);
    }
    // Down: level of rank r is touched by the paths counted at positions ≤ r (prefix sums).
    let touchedDown = 0;
    for (let rank = 0; rank < nSorted; ++rank) {
      touchedDown += reachedDown[window * stride + rank];
      writeProbability(out.down, row + order[rank], valid ? touchedDown / nPaths : NaN, nPaths);
    }
    for (let rank = nSorted; rank < nLevels; ++rank) {
      writeProbability(out.up, row + order[rank], NaN, nPaths);
      writeProbability(out.down, row + order[rank], NaN, nPaths);
    }
  }
  return out;
}

function writeProbability(estimates: Estimates, index: number, probability: number, n: number) {
  estimates.values[index] = probability;
  estimates.standardErrors[index] = probabilityStandardError(probability, n);
}
