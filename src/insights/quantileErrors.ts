/**
 * Percentiles at every step with Monte-Carlo standard errors from the order statistics around them.
 */

import { stepQuantiles } from "../core/quantiles.ts";

/**
 * Percentiles per step and their standard errors, step-major: entry `t·k + j` is probability j of
 * step t (k probabilities).
 * @example const { values, standardErrors } = stepQuantilesWithErrors(stepMajor, 10000, 289, [0.5]);
 */
export interface QuantileEstimates {
  readonly values: Float64Array;
  readonly standardErrors: Float64Array;
}

/**
 * R-7 percentiles (numpy linear, `stepQuantiles` of core) of every step of a step-major matrix,
 * each with a distribution-free standard error: the rank of the p-quantile among n draws has
 * standard deviation √(n·p(1 − p)), so SE ≈ (q(p + δ) − q(p − δ)) / 2 with δ = √(p(1 − p)/n)
 * (the binomial order-statistic interval, e.g. Conover, "Practical Nonparametric Statistics", §3.2),
 * p ± δ clamped to [0, 1]. One `stepQuantiles` pass computes the 3k probabilities.
 * @example
 * stepQuantilesWithErrors(session.stepMajor, session.nPaths, session.nPoints, PERCENTILE_PROBABILITIES)
 */
export function stepQuantilesWithErrors(
  stepMajor: Float64Array,
  nPaths: number,
  nSteps: number,
  probabilities: readonly number[],
): QuantileEstimates {
  const count = probabilities.length;
  const all: number[] = [...probabilities];
  for (const probability of probabilities) {
    const delta = Math.sqrt((probability * (1 - probability)) / nPaths);
    all.push(Math.max(0, probability - delta));
  }
  for (const probability of probabilities) {
    const delta = Math.sqrt((probability * (1 - probability)) / nPaths);
    all.push(Math.min(1, probability + delta));
  }
  const quantiles = stepQuantiles(stepMajor, nPaths, nSteps, all);
  const width = 3 * count;
  const values = new Float64Array(nSteps * count);
  const standardErrors = new Float64Array(nSteps * count);
  for (let step = 0; step < nSteps; ++step) {
    const row = step * width;
    for (let index = 0; index < count; ++index) {
      values[step * count + index] = quantiles[row + index];
      standardErrors[step * count + index] =
        (quantiles[row + 2 * count + index] - quantiles[row + count + index]) / 2;
    }
  }
  return { values, standardErrors };
}
