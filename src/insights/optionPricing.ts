/** The option pricing record (`/insights/option-pricing`) recomputed from an ensemble. */

import { optionPricesSorted } from "../core/optionPrices.ts";
import {
  optionExpiryUnix,
  priceKey,
  roundOptionPrice,
  stepOfTime,
  strikeGrid,
} from "../domain/insightConventions.ts";
import type { OptionPricingRecord } from "../domain/records/option-pricing.ts";
import type { Ensemble } from "../paths/ensemble.ts";
import { unixOfContextTime, type InsightContext } from "./context.ts";
import { standardErrorKey, type InsightResult } from "./result.ts";
import type { InsightSession } from "./session.ts";
import { sessionAndContext } from "./sessionAndContext.ts";
import { expiryTimeText } from "./timeText.ts";

/**
 * Undiscounted European call and put prices, E[max(S − K, 0)] and E[max(K − S, 0)] over the paths,
 * where S is each path's point at step(expiry) (clamped to the last point, so a 1h ensemble prices
 * at its horizon), rounded by `roundOptionPrice` (BTC whole dollars, others unrounded).
 * Defaults: expiry = `optionExpiryUnix` (BTC the monthly expiry, the others the next 08:00 UTC
 * strictly after the forecast start; `context.expiryTime` replaces it), strikes = the asset's grid
 * around the current price (`strikeGrid`; `context.strikes` replaces it). Keys are the strikes' shortest decimal form;
 * `expiry_time` is written `YYYY-MM-DD HH:MM:SSZ` as the live service. One sweep per side over the
 * sorted prices (`optionPricesSorted` of core); standard errors sample std of the payoffs / √n.
 * Throws `RangeError` for a context that does not fit the ensemble.
 * @param source - the ensemble, or a session of it.
 * @param context - the asset, horizon, current price and forecast start; the expiry and strikes
 *   when not the defaults.
 * @example optionPricingInsight(ensemble, context).record.call_options["70000"]
 */
export function optionPricingInsight(
  source: Ensemble | InsightSession,
  context: InsightContext,
): InsightResult<OptionPricingRecord> {
  const { session, resolved } = sessionAndContext("optionPricingInsight", source, context);
  const expiryUnix =
    context.expiryTime === undefined
      ? optionExpiryUnix(context.asset, resolved.forecastStartUnix)
      : unixOfContextTime("optionPricingInsight", "expiryTime", context.expiryTime);
  const step = stepOfTime(
    expiryUnix,
    resolved.forecastStartUnix,
    resolved.timeIncrement,
    session.nPoints,
  );
  const strikes = Float64Array.from(
    context.strikes ?? strikeGrid(context.asset, context.currentPrice),
  );
  const { calls, puts } = optionPricesSorted(session.sortedPricesAt(step), strikes);
  const callOptions: Record<string, number> = {};
  const putOptions: Record<string, number> = {};
  const standardErrors: Record<string, number> = {};
  const rounded = (value: number) => roundOptionPrice(context.asset, value);
  strikes.forEach((strike, index) => {
    const key = priceKey(strike);
    callOptions[key] = rounded(calls.values[index]);
    putOptions[key] = rounded(puts.values[index]);
    standardErrors[standardErrorKey(["call_options", key])] = calls.standardErrors[index];
    standardErrors[standardErrorKey(["put_options", key])] = puts.standardErrors[index];
  });
  return {
    record: {
      forecast_start_time: context.forecastStartTime,
      current_price: context.currentPrice,
      expiry_time: expiryTimeText(expiryUnix),
      call_options: callOptions,
      put_options: putOptions,
    },
    standardErrors,
  };
}
