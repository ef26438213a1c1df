/** Touch probabilities of an ensemble with the context's touch estimate (discrete or bridge). */

import { touchBridgeProbabilities } from "../core/touchBridgeProbabilities.ts";
import { createTouchEstimates, type TouchEstimates } from "../core/touchProbabilities.ts";
import { probabilityStandardError } from "../core/stderr.ts";
import { DEFAULT_TOUCH_ESTIMATE, type TouchEstimate } from "../domain/insightConventions.ts";
import type { InsightSession } from "./session.ts";

/**
 * Touch probabilities of `levels` in both directions over the windows [0, windowEndSteps[w]],
 * window-major (window w, level l at `w·nLevels + l`), as `touchProbabilities` of core returns
 * them, with the context's estimate:
 * - `"discrete"` (the default): the fraction of paths with a point ≤ level ("down") or ≥ level
 *   ("up") in the window, read from the session's running extremes (a path touches from above iff
 *   its minimum is ≤ the level), which every window, level and record of the session share; the
 *   same values as `touchProbabilities` (checked by the tests), NaN for a window with a non-finite
 *   point or a NaN level;
 * - `"bridge"`: `touchBridgeProbabilities` of core with the ensemble's pooled one-step log-return
 *   variance (Brownian-bridge corrected between points).
 * Throws `RangeError` for a window end outside [0, nPoints − 1].
 * @example touchEstimates(session, "discrete", Float64Array.of(66000, 70000), Int32Array.of(72, 288))
 */
export function touchEstimates(
  session: InsightSession,
  estimate: TouchEstimate | undefined,
  levels: Float64Array,
  windowEndSteps: Int32Array,
): TouchEstimates {
  const { values, nPaths, nPoints } = session.ensemble;
  if ((estimate ?? DEFAULT_TOUCH_ESTIMATE) === "bridge") {
    return touchBridgeProbabilities(values, nPaths, nPoints, {
      levels,
      windowEndSteps,
      stepLogVariance: session.stepLogVariance,
    });
  }
  session.prepareExtremes(Array.from(windowEndSteps));
  const nLevels = levels.length;
  const out = createTouchEstimates(nLevels, windowEndSteps.length);
  for (let window = 0; window < windowEndSteps.length; ++window) {
    const { minima, maxima, finite } = session.extremesAt(windowEndSteps[window]);
    for (let level = 0; level < nLevels; ++level) {
      const value = levels[level];
      let down = 0;
      let up = 0;
      // Counted without branches (`+` of a comparison): a branch per path would be taken at
      // random for a level inside the spread of the extremes (measured ~2× slower).
      for (let path = 0; path < nPaths; ++path) {
        down += +(minima[path] <= value);
        up += +(maxima[path] >= value);
      }
      const usable = finite && nPaths > 0 && value === value;
      const at = window * nLevels + level;
      out.down.values[at] = usable ? down / nPaths : NaN;
      out.down.standardErrors[at] = probabilityStandardError(out.down.values[at], nPaths);
      out.up.values[at] = usable ? up / nPaths : NaN;
      out.up.standardErrors[at] = probabilityStandardError(out.up.values[at], nPaths);
    }
  }
  return out;
}
