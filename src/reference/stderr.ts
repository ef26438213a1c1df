/**
 * Monte-Carlo standard errors of the two kinds of estimate the insights report: a probability
 * (a fraction of paths) and a mean over paths.
 */

import { sampleStandardDeviation } from "simple-statistics";

/**
 * Standard error of a probability `p` estimated as a fraction of `n` independent paths:
 * √(p(1 − p) / n). Returns NaN for `p` outside [0, 1].
 * Throws `RangeError` unless `n` is a positive integer.
 * @example probabilityStandardError(0.5, 10000) // => 0.005
 */
export function probabilityStandardError(p: number, n: number): number {
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`probabilityStandardError requires n to be a positive integer, got ${n}`);
  }
  if (!(p >= 0 && p <= 1)) return NaN;
  return Math.sqrt((p * (1 - p)) / n);
}

/**
 * Standard error of the mean of `values`: sample std (ddof 1) / √n. NaN when n < 2.
 * @example meanStandardError([1, 2, 3, 4]) // => 0.6454… (√(5/3) / 2)
 */
export function meanStandardError(values: readonly number[]): number {
  if (values.length < 2) return NaN;
  return sampleStandardDeviation([...values]) / Math.sqrt(values.length);
}
