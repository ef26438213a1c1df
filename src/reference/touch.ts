/**
 * Touch (barrier-hit) probability of a path set over a window of points, by direct scan.
 */

import { requireFinite, requireIntegerInRange, requirePathMatrix } from "./validate.ts";

/**
 * Which side of a level counts as a touch: `up` = a point ≥ level, `down` = a point ≤ level.
 * @example const direction: TouchDirection = "down"; // a long position's liquidation
 */
export type TouchDirection = "up" | "down";

/**
 * Fraction of paths that touch `level` at any point of the window `[fromStep, toStep]` (both
 * inclusive; point 0 is the start). Direction `up`: some point ≥ level; `down`: some point ≤ level.
 * A NaN point never touches. Liquidation of a long position with threshold x within h hours on a
 * 24h, 5-minute path is `touchProbability(paths, P0 * (1 - x), "down", 0, h * 12)`.
 * Throws `RangeError` for ragged or empty paths, a non-finite level, or a window outside the paths.
 * @example touchProbability([[100, 96, 99], [100, 101, 102]], 97, "down", 0, 2) // => 0.5
 */
export function touchProbability(
  paths: readonly ArrayLike<number>[],
  level: number,
  direction: TouchDirection,
  fromStep: number,
  toStep: number,
): number {
  const pointCount = requirePathMatrix("touchProbability", paths);
  requireFinite("touchProbability", "level", level);
  if (direction !== "up" && direction !== "down") {
    throw new RangeError(`touchProbability requires direction "up" or "down", got ${direction}`);
  }
  requireIntegerInRange("touchProbability", "fromStep", fromStep, 0, pointCount - 1);
  requireIntegerInRange("touchProbability", "toStep", toStep, fromStep, pointCount - 1);
  let touchedCount = 0;
  for (const path of paths) {
    let touched = false;
    for (let step = fromStep; step <= toStep; step++) {
      if (direction === "up" ? path[step] >= level : path[step] <= level) {
        touched = true;
        break;
      }
    }
    if (touched) touchedCount++;
  }
  return touchedCount / paths.length;
}
