/**
 * Forecast volatility per block of steps, across the paths of an ensemble: the values of the
 * volatility record and of the volatility percentiles record, with Monte-Carlo standard errors.
 */

import type { Horizon } from "../domain/assets.ts";
import {
  VOLATILITY_LAYOUTS,
  annualizeVolatility,
  volatilityBlockSteps,
} from "../domain/insightConventions.ts";
import type { BlockVolatilities } from "./blockReturnStatistics.ts";
import type { QuantileEstimates } from "./quantileErrors.ts";
import type { InsightSession } from "./session.ts";

/**
 * The forecast volatility of each block of the horizon (96 blocks of 15 minutes for 24h, 30 of
 * 2 minutes for 1h): the sample std (ddof 1) across paths of the block's log return
 * ln(p[end] / p[start]), annualized by √(525600 / block minutes) × 100 (insight conventions,
 * `VOLATILITY_LAYOUTS`). Two passes per block over the session's step-major block returns (mean,
 * then centred second and fourth moments), four blocks side by side.
 * Standard error of a sample std s from n draws, by the delta method with the sample's own
 * kurtosis (no normality assumed): Var(s²) ≈ (m₄ − s⁴·(n − 3)/(n − 1)) / n, SE(s) ≈ √Var(s²) / (2s).
 * Computed once per session and block layout and kept (`InsightSession.blockVolatilities`, of
 * `blockVolatilitiesOf`); do not write into them.
 * Throws `RangeError` when a block is not a whole number of the ensemble's steps.
 * @example blockVolatilities(session, "1h").values.length // => 30
 */
export function blockVolatilities(session: InsightSession, horizon: Horizon): BlockVolatilities {
  return session.blockVolatilities(
    volatilityBlockSteps(horizon, session.ensemble.timeIncrement),
    VOLATILITY_LAYOUTS[horizon].blockMinutes,
  );
}

/**
 * The nine R-7 percentiles (insight conventions' order) across paths of each block's annualized
 * absolute log return |ln(p[end] / p[start])| × √(525600 / block minutes) × 100, block-major
 * (block b, percentile j at `b·9 + j`), with order-statistic standard errors
 * (`absoluteScaledQuantiles` of the session's block returns, kept by the session:
 * `InsightSession.blockPercentiles`).
 * Throws `RangeError` when a block is not a whole number of the ensemble's steps.
 * @example blockVolatilityPercentiles(session, "24h").values.length // => 96 × 9
 */
export function blockVolatilityPercentiles(
  session: InsightSession,
  horizon: Horizon,
): QuantileEstimates {
  const { blockSteps, scale } = blockPercentileLayout(session, horizon);
  return session.blockPercentiles(blockSteps, scale);
}

/**
 * The block size (steps) and the annualization scale of {@link blockVolatilityPercentiles} for
 * `horizon` on the session's ensemble: the arguments of `InsightSession.blockPercentiles` (and of
 * the `InsightThreads` tasks that compute them elsewhere).
 * Throws `RangeError` when a block is not a whole number of the ensemble's steps.
 * @example blockPercentileLayout(session, "24h") // => { blockSteps: 3, scale: 18718.97… } for 5-minute steps
 */
export function blockPercentileLayout(
  session: InsightSession,
  horizon: Horizon,
): { readonly blockSteps: number; readonly scale: number } {
  return {
    blockSteps: volatilityBlockSteps(horizon, session.ensemble.timeIncrement),
    scale: annualizeVolatility(1, VOLATILITY_LAYOUTS[horizon].blockMinutes),
  };
}
