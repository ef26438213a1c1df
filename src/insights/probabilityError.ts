/** The Monte-Carlo standard error reported beside every estimated probability. */

/**
 * Standard error of a probability p estimated from n paths, Agresti–Coull form: with
 * p̃ = (n·p + 2)/(n + 4) (two successes and two failures added), √(p̃(1 − p̃)/(n + 4)).
 * Equal to √(p(1 − p)/n) to within a few per cent for 0.05 < p < 0.95 at n = 10,000, but positive
 * at p = 0 and p = 1, where the plug-in form says 0: a probability seen as 0 in 10,000 paths may
 * well be 2·10⁻⁴ (Agresti & Coull, "Approximate is better than exact for interval estimation of
 * binomial proportions", The American Statistician, 1998). For a mean of per-path probabilities
 * in [0, 1] (the bridge-corrected touch) it bounds the sample standard error from above.
 * NaN when p is outside [0, 1] (or NaN) or n < 1.
 * @param probability - the estimated probability p, in [0, 1].
 * @param count - the number of paths n it was estimated from, ≥ 1.
 * @example probabilityError(0, 10000) // => 0.000141…
 */
export function probabilityError(probability: number, count: number): number {
  if (!(count >= 1 && probability >= 0 && probability <= 1)) return NaN;
  const adjusted = (count * probability + 2) / (count + 4);
  return Math.sqrt((adjusted * (1 - adjusted)) / (count + 4));
}
