/**
 * The service's probabilities for venue contracts (the service's insight conventions), from a path set whose point 0 is
 * the forecast start: Up/Down, range, above and hit, each resolved at the point `endStep` that
 * corresponds to the event's end time.
 */

import { probabilityAbove, probabilityBetween } from "./terminal.ts";
import { touchProbability } from "./touch.ts";
import { requireIntegerInRange, requirePathMatrix } from "./validate.ts";

/**
 * Up/Down: P(S_end ≥ startPrice), the fraction of paths whose point `endStep` is at or above the
 * event's start price (a tie resolves Up).
 * Throws `RangeError` for ragged or empty paths or an `endStep` outside the paths.
 * @example venueProbabilityUp([[100, 101], [100, 99], [100, 100]], 1, 100) // => 0.6666…
 */
export function venueProbabilityUp(
  paths: readonly ArrayLike<number>[],
  endStep: number,
  startPrice: number,
): number {
  const endPrices = pricesAt("venueProbabilityUp", paths, endStep);
  let upCount = 0;
  for (const price of endPrices) if (price >= startPrice) upCount++;
  return upCount / endPrices.length;
}

/**
 * Range: P(lower ≤ S_end ≤ upper), inclusive at both ends, at point `endStep`.
 * Throws `RangeError` for ragged or empty paths, an `endStep` outside the paths, or lower > upper.
 * @example venueProbabilityRange([[100, 101], [100, 99], [100, 105]], 1, 99, 101) // => 0.6666…
 */
export function venueProbabilityRange(
  paths: readonly ArrayLike<number>[],
  endStep: number,
  lower: number,
  upper: number,
): number {
  return probabilityBetween(pricesAt("venueProbabilityRange", paths, endStep), lower, upper);
}

/**
 * Above: P(S_end > level), strict, at point `endStep`.
 * Throws `RangeError` for ragged or empty paths or an `endStep` outside the paths.
 * @example venueProbabilityAbove([[100, 101], [100, 99], [100, 100]], 1, 100) // => 0.3333…
 */
export function venueProbabilityAbove(
  paths: readonly ArrayLike<number>[],
  endStep: number,
  level: number,
): number {
  return probabilityAbove(pricesAt("venueProbabilityAbove", paths, endStep), level);
}

/**
 * Hit: the probability that a path touches `level` at any point from 0 to `endStep` (inclusive).
 * The direction follows the level against the current price: a level at or above `currentPrice`
 * is hit from below (some point ≥ level), a level below it from above (some point ≤ level).
 * Choice: a level equal to the current price counts as "up", which paths starting at the current
 * price touch at point 0 (probability 1), as a contract whose level is the spot is already hit.
 * Throws `RangeError` for ragged or empty paths or an `endStep` outside the paths.
 * @example venueProbabilityHit([[100, 104, 101], [100, 99, 98]], 2, 103, 100) // => 0.5
 */
export function venueProbabilityHit(
  paths: readonly ArrayLike<number>[],
  endStep: number,
  level: number,
  currentPrice: number,
): number {
  const pointCount = requirePathMatrix("venueProbabilityHit", paths);
  requireIntegerInRange("venueProbabilityHit", "endStep", endStep, 0, pointCount - 1);
  const direction = level >= currentPrice ? "up" : "down";
  return touchProbability(paths, level, direction, 0, endStep);
}

function pricesAt(
  operation: string,
  paths: readonly ArrayLike<number>[],
  endStep: number,
): number[] {
  const pointCount = requirePathMatrix(operation, paths);
  requireIntegerInRange(operation, "endStep", endStep, 0, pointCount - 1);
  return paths.map((path) => path[endStep]);
}
