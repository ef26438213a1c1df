/**
 * Forecast volatility per block of steps, across the paths of an ensemble: the values of the
 * volatility record and of the volatility percentiles record, with Monte-Carlo standard errors.
 */

import type { Horizon } from "../spec/assets.ts";
import {
  PERCENTILE_PROBABILITIES,
  VOLATILITY_LAYOUTS,
  annualizeVolatility,
  volatilityBlockSteps,
} from "../spec/insightConventions.ts";
import { stepQuantilesWithErrors, type QuantileEstimates } from "./quantileErrors.ts";
import type { InsightSession } from "./session.ts";

/**
 * Per block: the annualized volatility and its standard error.
 * @example const { values, standardErrors } = blockVolatilities(session, "24h");
 */
export interface BlockVolatilities {
  /** Annualized percent; NaN where a path's block return is not finite. */
  readonly values: Float64Array;
  readonly standardErrors: Float64Array;
}

/**
 * The forecast volatility of each block of the horizon (96 blocks of 15 minutes for 24h, 30 of
 * 2 minutes for 1h): the sample std (ddof 1) across paths of the block's log return
 * ln(p[end] / p[start]), annualized by √(525600 / block minutes) × 100 (insight conventions,
 * `VOLATILITY_LAYOUTS`). Two passes per block over the session's step-major block returns (mean,
 * then centred second and fourth moments).
 * Standard error of a sample std s from n draws, by the delta method with the sample's own
 * kurtosis (no normality assumed): Var(s²) ≈ (m₄ − s⁴·(n − 3)/(n − 1)) / n, SE(s) ≈ √Var(s²) / (2s).
 * Throws `RangeError` when a block is not a whole number of the ensemble's steps.
 * @example blockVolatilities(session, "1h").values.length // => 30
 */
export function blockVolatilities(session: InsightSession, horizon: Horizon): BlockVolatilities {
  const { blockMinutes } = VOLATILITY_LAYOUTS[horizon];
  const returns = session.blockLogReturns(
    volatilityBlockSteps(horizon, session.ensemble.timeIncrement),
  );
  const nPaths = session.nPaths;
  const nBlocks = returns.length / nPaths;
  const values = new Float64Array(nBlocks);
  const standardErrors = new Float64Array(nBlocks);
  for (let block = 0; block < nBlocks; ++block) {
    const start = block * nPaths;
    let sum = 0;
    for (let path = 0; path < nPaths; ++path) sum += returns[start + path];
    const mean = sum / nPaths;
    let secondMoment = 0;
    let fourthMoment = 0;
    for (let path = 0; path < nPaths; ++path) {
      const deviation = returns[start + path] - mean;
      const squared = deviation * deviation;
      secondMoment += squared;
      fourthMoment += squared * squared;
    }
    const variance = secondMoment / (nPaths - 1);
    const deviation = Math.sqrt(variance);
    const varianceOfVariance =
      (fourthMoment / nPaths - (variance * variance * (nPaths - 3)) / (nPaths - 1)) / nPaths;
    const finite = sum - sum === 0 && nPaths > 1;
    values[block] = finite ? annualizeVolatility(deviation, blockMinutes) : NaN;
    standardErrors[block] = finite
      ? annualizeVolatility(
          deviation > 0 ? Math.sqrt(Math.max(varianceOfVariance, 0)) / (2 * deviation) : 0,
          blockMinutes,
        )
      : NaN;
  }
  return { values, standardErrors };
}

/**
 * The nine R-7 percentiles (insight conventions' order) across paths of each block's annualized
 * absolute log return |ln(p[end] / p[start])| × √(525600 / block minutes) × 100, block-major
 * (block b, percentile j at `b·9 + j`), with order-statistic standard errors
 * (`stepQuantilesWithErrors`).
 * Throws `RangeError` when a block is not a whole number of the ensemble's steps.
 * @example blockVolatilityPercentiles(session, "24h").values.length // => 96 × 9
 */
export function blockVolatilityPercentiles(
  session: InsightSession,
  horizon: Horizon,
): QuantileEstimates {
  const { blockMinutes } = VOLATILITY_LAYOUTS[horizon];
  const returns = session.blockLogReturns(
    volatilityBlockSteps(horizon, session.ensemble.timeIncrement),
  );
  const scale = annualizeVolatility(1, blockMinutes);
  const annualized = new Float64Array(returns.length);
  for (let index = 0; index < returns.length; ++index) {
    annualized[index] = Math.abs(returns[index]) * scale;
  }
  return stepQuantilesWithErrors(
    annualized,
    session.nPaths,
    returns.length / session.nPaths,
    PERCENTILE_PROBABILITIES,
  );
}
