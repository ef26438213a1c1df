/**
 * Concentrated-liquidity (LP) statistics of a price range [lower, upper] over a path set:
 * impermanent loss (the service's insight conventions), stay-in-range probability, expected time in range, and the
 * probability levels of the LP-probabilities record.
 */

import { requireFinite, requireNonEmpty, requirePathMatrix } from "./validate.ts";

/**
 * Impermanent loss at `price` of a concentrated-liquidity position over [lower, upper] opened at
 * `startPrice`, as a positive fraction: 1 − V_LP(P) / V_HODL(P) (the service's insight conventions). With unit
 * liquidity, x0 = 1/√P0 − 1/√U and y0 = √P0 − √L; V_HODL = x0·P + y0;
 * V_LP = P·(1/√L − 1/√U) if P < L, √U − √L if P > U, else 2√P − P/√U − √L.
 * Returns NaN for a negative or NaN `price` (a numeric domain problem).
 * Throws `RangeError` unless 0 < lower < upper and lower ≤ startPrice ≤ upper.
 * @example impermanentLoss(2000, 1800, 2200, 1500) // => 0.124649928340…
 */
export function impermanentLoss(
  startPrice: number,
  lower: number,
  upper: number,
  price: number,
): number {
  requireRange("impermanentLoss", lower, upper);
  if (!(startPrice >= lower && startPrice <= upper)) {
    throw new RangeError(
      `impermanentLoss requires lower ≤ startPrice ≤ upper, got startPrice ${startPrice} for [${lower}, ${upper}]`,
    );
  }
  if (!(price >= 0)) return NaN;
  const sqrtLower = Math.sqrt(lower);
  const sqrtUpper = Math.sqrt(upper);
  const startAmountX = 1 / Math.sqrt(startPrice) - 1 / sqrtUpper;
  const startAmountY = Math.sqrt(startPrice) - sqrtLower;
  const holdValue = startAmountX * price + startAmountY;
  let positionValue: number;
  if (price < lower) {
    positionValue = price * (1 / sqrtLower - 1 / sqrtUpper);
  } else if (price > upper) {
    positionValue = sqrtUpper - sqrtLower;
  } else {
    positionValue = 2 * Math.sqrt(price) - price / sqrtUpper - sqrtLower;
  }
  return 1 - positionValue / holdValue;
}

/**
 * The LP statistics of one range, as returned by {@link lpRangeStatistics}.
 * @example const { probabilityToStay } = lpRangeStatistics(paths, 1800, 2200, 5);
 */
export interface LpRangeStatistics {
  /** Fraction of paths with every point 0..N−1 strictly inside (lower, upper). */
  readonly probabilityToStay: number;
  /** Mean over paths of stepMinutes × (number of points 1..N−1 strictly inside); at most the horizon. */
  readonly expectedTimeInsideMinutes: number;
  /** Mean over paths of {@link impermanentLoss} at the terminal price (positive fraction). */
  readonly expectedImpermanentLoss: number;
}

/**
 * Stay-in-range probability, expected time in range (minutes) and expected impermanent loss of
 * the range [lower, upper] over `paths` (`paths[p][t]`, point 0 the start, steps of
 * `stepMinutes`). A point is inside when lower < point < upper (strict), so "stays inside" means
 * "never touches either bound". The position is opened at `startPrice`, by default `paths[0][0]`
 * (the ensemble's start price; after re-basing every path starts there).
 * Throws `RangeError` for ragged or empty paths, an invalid range, or a non-positive step.
 * @example lpRangeStatistics([[100, 101, 102], [100, 120, 100]], 90, 110, 5)
 * // => { probabilityToStay: 0.5, expectedTimeInsideMinutes: 7.5, expectedImpermanentLoss: 0.000501… }
 */
export function lpRangeStatistics(
  paths: readonly (readonly number[])[],
  lower: number,
  upper: number,
  stepMinutes: number,
  startPrice: number = paths[0]?.[0],
): LpRangeStatistics {
  const pointCount = requirePathMatrix("lpRangeStatistics", paths);
  requireRange("lpRangeStatistics", lower, upper);
  if (!(stepMinutes > 0 && Number.isFinite(stepMinutes))) {
    throw new RangeError(`lpRangeStatistics requires a positive stepMinutes, got ${stepMinutes}`);
  }
  let stayedCount = 0;
  let minutesInsideSum = 0;
  let impermanentLossSum = 0;
  for (const path of paths) {
    const isInside = (point: number): boolean => point > lower && point < upper;
    if (path.every(isInside)) stayedCount++;
    let pointsInside = 0;
    for (let step = 1; step < pointCount; step++) if (isInside(path[step])) pointsInside++;
    minutesInsideSum += stepMinutes * pointsInside;
    impermanentLossSum += impermanentLoss(startPrice, lower, upper, path[pointCount - 1]);
  }
  return {
    probabilityToStay: stayedCount / paths.length,
    expectedTimeInsideMinutes: minutesInsideSum / paths.length,
    expectedImpermanentLoss: impermanentLossSum / paths.length,
  };
}

/**
 * The 11 price levels of the LP-probabilities record: equally spaced from the lowest to the
 * highest terminal price, as numpy `linspace(min, max, 11)` (level i = min + i·(max − min)/10,
 * the last level set to max exactly). Returns NaN levels when any terminal value is NaN.
 * Throws `RangeError` for an empty `terminal`.
 * @example lpProbabilityLevels([100, 110, 105]) // => [100, 101, 102, …, 109, 110]
 */
export function lpProbabilityLevels(terminal: readonly number[]): number[] {
  requireNonEmpty("lpProbabilityLevels", "terminal", terminal);
  let minimum = Infinity;
  let maximum = -Infinity;
  for (const value of terminal) {
    if (Number.isNaN(value)) return new Array<number>(11).fill(NaN);
    minimum = Math.min(minimum, value);
    maximum = Math.max(maximum, value);
  }
  const step = (maximum - minimum) / 10;
  const levels: number[] = [];
  for (let index = 0; index < 10; index++) levels.push(minimum + index * step);
  levels.push(maximum);
  return levels;
}

function requireRange(operation: string, lower: number, upper: number): void {
  requireFinite(operation, "lower", lower);
  requireFinite(operation, "upper", upper);
  if (!(lower > 0 && lower < upper)) {
    throw new RangeError(
      `${operation} requires 0 < lower < upper, got lower ${lower} and upper ${upper}`,
    );
  }
}
