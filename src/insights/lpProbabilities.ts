/** The LP probabilities record (`/insights/lp-probabilities`) recomputed from an ensemble. */

import { terminalProbabilitiesSorted } from "../core/terminalProbabilities.ts";
import {
  LP_PROBABILITY_KEYS,
  PROBABILITY_DECIMALS,
  lpLevels,
  priceKey,
  roundTo,
} from "../domain/insightConventions.ts";
import type { LpProbabilitiesRecord } from "../domain/records/lp.ts";
import type { Ensemble } from "../paths/ensemble.ts";
import type { InsightContext } from "./context.ts";
import { probabilityError } from "./probabilityError.ts";
import { standardErrorKey, type InsightResult } from "./result.ts";
import type { InsightSession } from "./session.ts";
import { sessionAndContext } from "./sessionAndContext.ts";

/**
 * P(S_T > k) and P(S_T < k) (strict; S_T the last point; 4 decimals) at 11 levels equally spaced
 * from the lowest to the highest terminal price (`lpLevels`, as numpy linspace), keyed by the
 * level's shortest decimal form (`priceKey`); `context.lpLevels` replaces the levels (to compare on
 * a service record's grid). The single `data` key is `"24h"` or `"1h"`. One binary search per level
 * in the sorted terminal prices (`terminalProbabilitiesSorted` of core); standard errors
 * Agresti–Coull ({@link probabilityError}). Throws `RangeError` for a context that does not fit the ensemble.
 * @param source - the ensemble, or a session of it.
 * @param context - the asset, horizon, current price and forecast start; the levels when not the
 *   default grid.
 * @example lpProbabilitiesInsight(ensemble, context).record.data["24h"].probability_above
 */
export function lpProbabilitiesInsight(
  source: Ensemble | InsightSession,
  context: InsightContext,
): InsightResult<LpProbabilitiesRecord> {
  const { session } = sessionAndContext("lpProbabilitiesInsight", source, context);
  const sorted = session.sortedPricesAt(session.nPoints - 1);
  const levels = Float64Array.from(
    context.lpLevels ?? lpLevels(sorted[0], sorted[sorted.length - 1]),
  );
  const { above, below } = terminalProbabilitiesSorted(sorted, levels);
  const dataKey = LP_PROBABILITY_KEYS[context.horizon];
  const probabilityAbove: Record<string, number> = {};
  const probabilityBelow: Record<string, number> = {};
  const standardErrors: Record<string, number> = {};
  levels.forEach((level, index) => {
    const key = priceKey(level);
    probabilityAbove[key] = roundTo(above.values[index], PROBABILITY_DECIMALS);
    probabilityBelow[key] = roundTo(below.values[index], PROBABILITY_DECIMALS);
    standardErrors[standardErrorKey(["data", dataKey, "probability_above", key])] =
      probabilityError(above.values[index], sorted.length);
    standardErrors[standardErrorKey(["data", dataKey, "probability_below", key])] =
      probabilityError(below.values[index], sorted.length);
  });
  return {
    record: {
      forecast_start_time: context.forecastStartTime,
      current_price: context.currentPrice,
      data: {
        [dataKey]: { probability_above: probabilityAbove, probability_below: probabilityBelow },
      },
    },
    standardErrors,
  };
}
