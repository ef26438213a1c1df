/** The prediction percentiles record of `/insights/prediction-percentiles`. */

import { PERCENTILE_PRICE_DECIMALS } from "../../domain/insightConventions.ts";
import type { Percentiles, PredictionPercentilesRecord } from "../../domain/records/percentiles.ts";
import type { SandboxInsightInputs } from "./inputs.ts";
import { insightContextOf } from "./insightContext.ts";
import { percentilesOfSorted } from "./sortedColumnStatistics.ts";

/**
 * The nine R-7 percentiles of the re-based ensemble's price at every step (289 or 61), to 2
 * decimals; step 0 is the current price (every re-based path starts there). Each step's column is
 * sorted once (shared with the other records) instead of once per percentile; the values equal
 * `stepPercentiles` of `src/reference/percentiles.ts` bit for bit (checked by the tests).
 * @example buildPredictionPercentilesRecord(inputs).forecast_future.percentiles[0]["0.5"] // => the current price, 2 decimals
 */
export function buildPredictionPercentilesRecord(
  inputs: SandboxInsightInputs,
): PredictionPercentilesRecord {
  const { ensemble } = insightContextOf(inputs);
  const percentiles: Percentiles[] = [];
  for (let step = 0; step < ensemble.pointCount; step++) {
    percentiles.push(percentilesOfSorted(ensemble.sortedColumn(step), PERCENTILE_PRICE_DECIMALS));
  }
  return { current_price: inputs.currentPrice, forecast_future: { percentiles } };
}
