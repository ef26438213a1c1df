/** The LP bounds record (`/insights/lp-bounds`) recomputed from an ensemble. */

import {
  DEFAULT_TIME_IN_INTERVAL_UNIT,
  LP_STAY_KEYS,
  LP_WIDTHS,
  PROBABILITY_DECIMALS,
  lpBounds,
  roundTo,
  timeInIntervalIn,
} from "../domain/insightConventions.ts";
import type { LpBoundsEntry, LpBoundsRecord } from "../domain/records/lp.ts";
import type { Ensemble } from "../paths/ensemble.ts";
import type { InsightContext } from "./context.ts";
import { probabilityError } from "./probabilityError.ts";
import { standardErrorKey, type InsightResult } from "./result.ts";
import type { InsightSession } from "./session.ts";
import { sessionAndContext } from "./sessionAndContext.ts";

/**
 * LP statistics for the 16 widths w = 1 … 16 % (`"1.0%"` … `"16.0%"`) around P0 = the current
 * price, bounds P0·(1 ∓ w/2), "inside" meaning strictly between them:
 * - `probability_to_stay_in_interval` (key `"24"` or `"1"`): the fraction of paths inside at every
 *   point (4 decimals);
 * - `expected_time_in_interval`: step minutes × the points 1..N−1 inside, averaged over paths, in
 *   minutes by default (`context.timeInIntervalUnit`: `"hours"` or `"fraction"` of the horizon),
 *   4 decimals;
 * - `expected_impermanent_loss`: the mean over paths of the concentrated-liquidity loss at the last
 *   point, P0 = the current price (the service's insight conventions), unrounded.
 * One pass over the paths for all 16 widths (`nestedRangeStatistics`, the nested case of
 * `rangeStatistics` of core), shared with the running extremes when the session was prepared for
 * both (`InsightSession.prepare`, `prepareRecords`). Standard errors:
 * Agresti–Coull for the probability ({@link probabilityError}), sample std / √n for
 * the means (time in the requested unit).
 * Throws `RangeError` for a context that does not fit the ensemble.
 * @param source - the ensemble, or a session of it.
 * @param context - the asset, horizon, current price and forecast start; the unit of the time in
 *   interval when not minutes.
 * @example lpBoundsInsight(ensemble, context).record.data[9].interval.full_width // => "10.0%"
 */
export function lpBoundsInsight(
  source: Ensemble | InsightSession,
  context: InsightContext,
): InsightResult<LpBoundsRecord> {
  const { session, resolved } = sessionAndContext("lpBoundsInsight", source, context);
  const unit = context.timeInIntervalUnit ?? DEFAULT_TIME_IN_INTERVAL_UNIT;
  const bounds = LP_WIDTHS.map((width) => lpBounds(context.currentPrice, width.fraction));
  const lowers = Float64Array.from(bounds, (bound) => bound.lower);
  const uppers = Float64Array.from(bounds, (bound) => bound.upper);
  const nPaths = session.nPaths;
  const statistics = session.nestedRangeStatistics(lowers, uppers, resolved.stepMinutes);
  const stayKey = LP_STAY_KEYS[context.horizon];
  const inUnit = (minutes: number) => timeInIntervalIn(minutes, unit, resolved.horizonMinutes);
  const standardErrors: Record<string, number> = {};
  const data = LP_WIDTHS.map((width, index): LpBoundsEntry => {
    const stay = statistics.probabilityToStay;
    const time = statistics.expectedTimeInsideMinutes;
    const loss = statistics.expectedImpermanentLoss;
    standardErrors[standardErrorKey(["data", index, "expected_time_in_interval"])] = inUnit(
      time.standardErrors[index],
    );
    standardErrors[standardErrorKey(["data", index, "expected_impermanent_loss"])] =
      loss.standardErrors[index];
    standardErrors[standardErrorKey(["data", index, "probability_to_stay_in_interval", stayKey])] =
      probabilityError(stay.values[index], nPaths);
    return {
      interval: { full_width: width.key, lower_bound: lowers[index], upper_bound: uppers[index] },
      expected_time_in_interval: inUnit(time.values[index]),
      expected_impermanent_loss: loss.values[index],
      probability_to_stay_in_interval: {
        [stayKey]: roundTo(stay.values[index], PROBABILITY_DECIMALS),
      },
    };
  });
  return {
    record: {
      forecast_start_time: context.forecastStartTime,
      current_price: context.currentPrice,
      data,
    },
    standardErrors,
  };
}
