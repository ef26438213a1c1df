/**
 * Monte-Carlo standard errors, and the pair of arrays in which the kernels return every estimate
 * beside its standard error.
 */

/**
 * Estimates and their Monte-Carlo standard errors, index by index.
 * @example const { values, standardErrors } = createEstimates(3);
 */
export interface Estimates {
  /** The estimates (probabilities, or means over paths). */
  readonly values: Float64Array;
  /** The Monte-Carlo standard error of each estimate. */
  readonly standardErrors: Float64Array;
}

/**
 * A zero-filled {@link Estimates} buffer of `length` entries, for a kernel's `out` argument.
 * @param length - the number of entries.
 * @example createEstimates(4).values.length // => 4
 */
export function createEstimates(length: number): Estimates {
  return { values: new Float64Array(length), standardErrors: new Float64Array(length) };
}

/**
 * Standard error of a probability estimated as a fraction of `count` independent paths:
 * √(p(1 − p) / count). NaN when `probability` is outside [0, 1] (or NaN) or `count` < 1.
 * @param probability - the estimated probability, in [0, 1].
 * @param count - the number of paths it was estimated from, ≥ 1.
 * @example probabilityStandardError(0.5, 10000) // => 0.005
 */
export function probabilityStandardError(probability: number, count: number): number {
  if (!(count >= 1 && probability >= 0 && probability <= 1)) return NaN;
  return Math.sqrt((probability * (1 - probability)) / count);
}

/**
 * Standard error of a mean over `count` paths from the running sums of the per-path values and of
 * their squares: sample std (ddof 1) / √count, the variance as (Σx² − (Σx)²/count) / (count − 1)
 * (clamped at 0 against rounding). NaN when `count` < 2 or a sum is NaN. The one-pass form
 * loses about log10(1 + mean²/variance) of the 16 significant digits: a few at most for the
 * kernels' values (probabilities, counts of points, losses and payoffs of a spread-out ensemble).
 * @param sum - the sum of the per-path values.
 * @param sumOfSquares - the sum of their squares.
 * @param count - the number of paths, ≥ 2.
 * @example meanStandardErrorFromSums(10, 30, 4) // => 0.6454… (values 1, 2, 3, 4)
 */
export function meanStandardErrorFromSums(
  sum: number,
  sumOfSquares: number,
  count: number,
): number {
  if (!(count >= 2)) return NaN;
  const variance = (sumOfSquares - sum * (sum / count)) / (count - 1);
  return Math.sqrt((variance < 0 ? 0 : variance) / count);
}
