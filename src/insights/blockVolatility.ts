/**
 * Forecast volatility per block of steps, across the paths of an ensemble: the values of the
 * volatility record and of the volatility percentiles record, with Monte-Carlo standard errors.
 */

import type { Horizon } from "../domain/assets.ts";
import {
  VOLATILITY_LAYOUTS,
  annualizeVolatility,
  volatilityBlockSteps,
  volatilityPointBounds,
} from "../domain/insightConventions.ts";
import { blockVolatilitiesOf, type BlockVolatilities } from "./blockReturnStatistics.ts";
import type { Ensemble } from "../paths/ensemble.ts";
import type { QuantileEstimates } from "./quantileErrors.ts";
import { logReturnsBetweenInto } from "./sessionKernels.ts";
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
 * The forecast volatility of each point of the volatility record's series (97 for 24h, 31 for 1h),
 * with standard errors: per point the sample std (ddof 1) across paths of the log return between
 * the point's bounds (`volatilityPointBounds` of the insight conventions: UTC clock blocks),
 * annualized by the point's own steps; NaN for an empty point. When point 0 is empty (a start on
 * a block's end, or too late in a block for a step) the rest are whole blocks from the start:
 * NaN, then {@link blockVolatilities} (the session's kept blocks). Otherwise the points are of
 * unequal length and computed here in a pass over the paths, kept per session and horizon (do not
 * write into them).
 * @example volatilityPoints(session, "24h").values.length // => 97
 */
export function volatilityPoints(session: InsightSession, horizon: Horizon): BlockVolatilities {
  if (pointsAreWholeBlocks(session.ensemble, horizon)) {
    const blocks = blockVolatilities(session, horizon);
    return {
      values: Float64Array.of(NaN, ...blocks.values),
      standardErrors: Float64Array.of(NaN, ...blocks.standardErrors),
    };
  }
  let kept = keptPoints.get(session);
  if (kept === undefined) keptPoints.set(session, (kept = new Map()));
  let points = kept.get(horizon);
  if (points === undefined) kept.set(horizon, (points = unequalPoints(session, horizon)));
  return points;
}

/**
 * Whether the volatility points of an ensemble are NaN, then its whole blocks from the start
 * ({@link blockVolatilities}): point 0 is empty, the start being on a clock block's end or too
 * late in its block for a step (`volatilityPointBounds` of the insight conventions).
 * @example pointsAreWholeBlocks(session.ensemble, "24h") // => true for a start on a quarter hour
 */
export function pointsAreWholeBlocks(
  ensemble: Pick<Ensemble, "startTime" | "timeIncrement">,
  horizon: Horizon,
): boolean {
  return volatilityPointBounds(horizon, ensemble.startTime, ensemble.timeIncrement)[1] === 0;
}

/** The unequal points of {@link volatilityPoints}, per session and horizon. */
const keptPoints = new WeakMap<InsightSession, Map<Horizon, BlockVolatilities>>();

/** Per point, the volatility across paths of the log return between its bounds (`volatilityPointBounds`). */
function unequalPoints(session: InsightSession, horizon: Horizon): BlockVolatilities {
  const { values, nPaths, nPoints, startTime, timeIncrement } = session.ensemble;
  const bounds = volatilityPointBounds(horizon, startTime, timeIncrement);
  const pointCount = bounds.length - 1;
  const returns = logReturnsBetweenInto(values, nPaths, nPoints, bounds);
  const points = {
    values: new Float64Array(pointCount),
    standardErrors: new Float64Array(pointCount),
  };
  // Runs of points of one length share one call (the whole blocks between the two partial ones).
  for (let first = 0; first < pointCount;) {
    const steps = bounds[first + 1] - bounds[first];
    let end = first + 1;
    while (end < pointCount && bounds[end + 1] - bounds[end] === steps) ++end;
    const run = blockVolatilitiesOf(
      returns.subarray(first * nPaths, end * nPaths),
      nPaths,
      (steps * timeIncrement) / 60,
    );
    points.values.set(run.values, first);
    points.standardErrors.set(run.standardErrors, first);
    first = end;
  }
  return points;
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
