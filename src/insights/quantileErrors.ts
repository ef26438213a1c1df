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
  const all = withErrorProbabilities(probabilities, nPaths);
  return splitEstimates(
    stepQuantiles(stepMajor, nPaths, nSteps, { probabilities: all }),
    probabilities.length,
    nSteps,
  );
}

/**
 * {@link stepQuantilesWithErrors} of a step-major matrix that is never whole in memory:
 * `fillColumns(firstStep, count, out)` writes steps firstStep … firstStep + count − 1 into `out`
 * (count × nPaths values, step-major), a few steps at a time (8; the last call may have fewer).
 * For columns derived from a kept matrix (the volatility percentiles' |ln return| × scale), this
 * saves the whole derived copy and its pass (the steps are selected while in cache); the results
 * are those of {@link stepQuantilesWithErrors} on the whole matrix, value for value.
 * @example
 * columnQuantilesWithErrors(10000, 96, PERCENTILE_PROBABILITIES, (first, count, out) => { … })
 */
export function columnQuantilesWithErrors(
  nPaths: number,
  nSteps: number,
  probabilities: readonly number[],
  fillColumns: (firstStep: number, count: number, out: Float64Array) => void,
): QuantileEstimates {
  const all = withErrorProbabilities(probabilities, nPaths);
  const width = all.length;
  const quantiles = new Float64Array(nSteps * width);
  const columns = new Float64Array(Math.min(COLUMNS_PER_FILL, nSteps) * nPaths);
  for (let first = 0; first < nSteps; first += COLUMNS_PER_FILL) {
    const count = Math.min(COLUMNS_PER_FILL, nSteps - first);
    const chunk = columns.subarray(0, count * nPaths);
    fillColumns(first, count, chunk);
    stepQuantiles(chunk, nPaths, count, {
      probabilities: all,
      out: quantiles.subarray(first * width, (first + count) * width),
    });
  }
  return splitEstimates(quantiles, probabilities.length, nSteps);
}

/** Steps per {@link columnQuantilesWithErrors} fill: 8 columns of 10,000 stay in the L2 cache. */
const COLUMNS_PER_FILL = 8;

/** The k probabilities, then p − δ for each, then p + δ for each (δ = √(p(1 − p)/n), clamped). */
function withErrorProbabilities(probabilities: readonly number[], nPaths: number): number[] {
  const all: number[] = [...probabilities];
  for (const probability of probabilities) {
    const delta = Math.sqrt((probability * (1 - probability)) / nPaths);
    all.push(Math.max(0, probability - delta));
  }
  for (const probability of probabilities) {
    const delta = Math.sqrt((probability * (1 - probability)) / nPaths);
    all.push(Math.min(1, probability + delta));
  }
  return all;
}

/** Values and order-statistic standard errors from the 3k quantiles per step. */
function splitEstimates(quantiles: Float64Array, count: number, nSteps: number): QuantileEstimates {
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
