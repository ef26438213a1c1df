/**
 * Probabilities of the terminal price S_T (the last point of each path) relative to levels.
 * Each is a plain count over the terminal values divided by their number; NaN values count as
 * "not in the event" but stay in the denominator.
 */

import { requireNonEmpty } from "./validate.ts";

/**
 * P(S_T > level), strict: the fraction of `terminal` values strictly above `level`.
 * Throws `RangeError` for an empty `terminal`.
 * @example probabilityAbove([90, 100, 110, 120], 100) // => 0.5
 */
export function probabilityAbove(terminal: readonly number[], level: number): number {
  requireNonEmpty("probabilityAbove", "terminal", terminal);
  let count = 0;
  for (const value of terminal) if (value > level) count++;
  return count / terminal.length;
}

/**
 * P(S_T < level), strict: the fraction of `terminal` values strictly below `level`.
 * Throws `RangeError` for an empty `terminal`.
 * @example probabilityBelow([90, 100, 110, 120], 100) // => 0.25
 */
export function probabilityBelow(terminal: readonly number[], level: number): number {
  requireNonEmpty("probabilityBelow", "terminal", terminal);
  let count = 0;
  for (const value of terminal) if (value < level) count++;
  return count / terminal.length;
}

/**
 * P(lower ≤ S_T ≤ upper), inclusive at both ends.
 * Throws `RangeError` for an empty `terminal` or `lower > upper`.
 * @example probabilityBetween([90, 100, 110, 120], 100, 110) // => 0.5
 */
export function probabilityBetween(
  terminal: readonly number[],
  lower: number,
  upper: number,
): number {
  requireNonEmpty("probabilityBetween", "terminal", terminal);
  if (!(lower <= upper)) {
    throw new RangeError(
      `probabilityBetween requires lower ≤ upper, got lower ${lower} and upper ${upper}`,
    );
  }
  let count = 0;
  for (const value of terminal) if (value >= lower && value <= upper) count++;
  return count / terminal.length;
}
