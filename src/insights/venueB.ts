/** The model side of the venue B comparison records recomputed from an ensemble. */

import { countBelowSorted } from "../core/sortedCounts.ts";
import {
  PROBABILITY_DECIMALS,
  roundTo,
  stepOfTime,
  upDownOutcomeOf,
  venueEventWindow,
} from "../domain/insightConventions.ts";
import type { VenueBComparisonRecord } from "../domain/records/venue-b.ts";
import type { Ensemble } from "../paths/ensemble.ts";
import type { InsightContext, VenueBContract } from "./context.ts";
import { betweenMinerErrorAt } from "./betweenMiners.ts";
import { marketPriceAt } from "./marketPrice.ts";
import { probabilityError } from "./probabilityError.ts";
import { standardErrorKey, type InsightResult } from "./result.ts";
import type { InsightSession } from "./session.ts";
import { sessionAndContext } from "./sessionAndContext.ts";
import { isoTimeText } from "./timeText.ts";
import type { VenueBWindow } from "../domain/insightKinds.ts";

/**
 * The model-side fields of a {@link VenueBComparisonRecord}, plus `slug` when given.
 * @example const side: VenueBModelSide = { forecast_start_time: "…", current_time: "…", current_price: 68000, start_price: 67950, event_end_time: "…", model_probability_up: 0.55, model_outcome: "UP" };
 */
export type VenueBModelSide = Pick<
  VenueBComparisonRecord,
  | "forecast_start_time"
  | "current_time"
  | "current_price"
  | "start_price"
  | "event_end_time"
  | "model_probability_up"
  | "model_outcome"
> & { slug?: string };

export type { VenueBWindow };

/**
 * P(S(step(event end)) ≥ strike) per contract of the venue B window open at `context.now` (daily
 * 17:00 → 17:00 UTC, the UTC hour, the quarter hour; `venueEventWindow`), 4 decimals, `model_outcome`
 * UP at ≥ 0.5. Contracts: `context.venueBContracts`, else one at the market price at the event
 * start (`context.startPrice`, else `context.priceAt`). The service prices daily with the 24h
 * ensemble, hourly and 15min with the 1h one: pass the ensemble of the horizon wanted.
 * Standard errors: Agresti–Coull ({@link probabilityError}), and between the miners
 * ({@link betweenMinerErrorAt}). Throws `RangeError` for no strike or a context that does not fit.
 * @param source - the ensemble of the horizon wanted (24h for daily, 1h for the others), or a
 *   session of it.
 * @param context - the context; `now` picks the window (the forecast start by default),
 *   `venueBContracts` the strikes.
 * @param window - the contracts' window: `"daily"`, `"hourly"` or `"15min"`.
 * @example venueBModelSides(ensemble, { ...context, venueBContracts: [{ startPrice: 68000 }] }, "hourly")
 */
export function venueBModelSides(
  source: Ensemble | InsightSession,
  context: InsightContext,
  window: VenueBWindow,
): InsightResult<VenueBModelSide[]> {
  const operation = "venueBModelSides";
  const { session, resolved } = sessionAndContext(operation, source, context);
  const { startUnix, endUnix } = venueEventWindow(window, resolved.nowUnix);
  const contracts: readonly VenueBContract[] = context.venueBContracts ?? [
    { startPrice: context.startPrice ?? marketPriceAt(operation, context, startUnix) },
  ];
  const endStep = stepOfTime(
    endUnix,
    resolved.forecastStartUnix,
    resolved.timeIncrement,
    resolved.nPoints,
  );
  const sorted = session.sortedPricesAt(endStep);
  const n = sorted.length;
  const standardErrors: Record<string, number> = {};
  const betweenMinerErrors: Record<string, number> = {};
  const records = contracts.map((contract, index): VenueBModelSide => {
    const probability = (n - countBelowSorted(sorted, contract.startPrice)) / n;
    const reported = roundTo(probability, PROBABILITY_DECIMALS);
    const key = standardErrorKey([index, "model_probability_up"]);
    standardErrors[key] = probabilityError(probability, n);
    betweenMinerErrors[key] = betweenMinerErrorAt(
      session.ensemble,
      endStep,
      (price) => price >= contract.startPrice,
    );
    const record: VenueBModelSide = {
      forecast_start_time: context.forecastStartTime,
      current_time: isoTimeText(resolved.nowUnix),
      current_price: context.currentPrice,
      start_price: contract.startPrice,
      event_end_time: isoTimeText(endUnix),
      model_probability_up: reported,
      model_outcome: upDownOutcomeOf(reported),
    };
    if (contract.slug !== undefined) record.slug = contract.slug;
    return record;
  });
  return { record: records, standardErrors, betweenMinerErrors };
}
