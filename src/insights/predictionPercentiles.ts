/** The prediction percentiles record (`/insights/prediction-percentiles`) recomputed from an ensemble. */

import { PERCENTILE_PRICE_DECIMALS } from "../domain/insightConventions.ts";
import type { PredictionPercentilesRecord } from "../domain/records/percentiles.ts";
import type { Ensemble } from "../paths/ensemble.ts";
import type { InsightContext } from "./context.ts";
import { percentileObjects } from "./percentileObjects.ts";
import type { InsightResult } from "./result.ts";
import type { InsightSession } from "./session.ts";
import { sessionAndContext } from "./sessionAndContext.ts";

/**
 * The nine R-7 percentiles (`0.005` … `0.995`) of the re-based price at every step (289 for 24h,
 * 61 for 1h), 2 decimals; step 0 is the current price (every re-based path starts there).
 * Histogram selection per step on the step-major paths (`stepQuantiles` of core; a transient
 * transposition unless the session keeps a copy, `InsightSession.withStepMajor`); standard errors
 * from the order statistics p ± √(p(1 − p)/n) (`stepQuantilesWithErrors`). The session keeps
 * them (`InsightSession.stepPercentiles`; `InsightThreads` computes them on a worker thread).
 * Throws `RangeError` for a context that does not fit the ensemble.
 * @param source - the ensemble, or a session of it.
 * @param context - the asset, horizon, current price and forecast start.
 * @example predictionPercentilesInsight(ensemble, context).record.forecast_future.percentiles[288]["0.5"]
 */
export function predictionPercentilesInsight(
  source: Ensemble | InsightSession,
  context: InsightContext,
): InsightResult<PredictionPercentilesRecord> {
  const { session } = sessionAndContext("predictionPercentilesInsight", source, context);
  const standardErrors: Record<string, number> = {};
  const percentiles = percentileObjects(
    session.stepPercentiles(),
    "forecast_future",
    PERCENTILE_PRICE_DECIMALS,
    standardErrors,
  );
  return {
    record: { current_price: context.currentPrice, forecast_future: { percentiles } },
    standardErrors,
  };
}
