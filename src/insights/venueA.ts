/**
 * The model side of the venue A comparison records recomputed from an ensemble: Up/Down (daily,
 * hourly, 15min, 5min), the range family (range, above, below, hit) and the earlier range form.
 */

import { countAtMostSorted, countBelowSorted } from "../core/sortedCounts.ts";
import {
  PROBABILITY_DECIMALS,
  binaryOutcomeOf,
  hitDirection,
  roundTo,
  stepOfTime,
  upDownOutcomeOf,
  venueEventWindow,
  type VenueWindow,
} from "../domain/insightConventions.ts";
import type {
  EarlierRangeRecord,
  RangeComparisonRecord,
  UpDownComparisonRecord,
} from "../domain/records/venue-a.ts";
import type { Ensemble } from "../paths/ensemble.ts";
import type { InsightContext, RangeMarket, ResolvedContext } from "./context.ts";
import { betweenMinerErrorAt, touchBetweenMinerError } from "./betweenMiners.ts";
import { marketPriceAt } from "./marketPrice.ts";
import { probabilityError } from "./probabilityError.ts";
import { standardErrorKey, type InsightResult } from "./result.ts";
import type { InsightSession } from "./session.ts";
import { sessionAndContext } from "./sessionAndContext.ts";
import { isoTimeText } from "./timeText.ts";
import { touchEstimates } from "./touchEstimates.ts";

/**
 * The fields of an {@link UpDownComparisonRecord} that the model determines (the venue's quotes
 * are not recomputed), plus the market's `slug` when the context gives it.
 * @example const side: UpDownModelSide = { forecast_start_time: "…", current_price: 68000, current_time: "…", start_price: 67950, event_start_time: "…", event_end_time: "…", model_probability_up: 0.52, model_outcome: "UP" };
 */
export type UpDownModelSide = Pick<
  UpDownComparisonRecord,
  | "forecast_start_time"
  | "current_price"
  | "current_time"
  | "start_price"
  | "event_start_time"
  | "event_end_time"
  | "model_probability_up"
  | "model_outcome"
> & { slug?: string };

/**
 * The model-side fields of a {@link RangeComparisonRecord}, plus `slug` and `title` when given.
 * @example const side: RangeModelSide = { forecast_start_time: "…", current_time: "…", current_price: 68000, cmp_type: "above", ref_prices: [70000], event_start_time: "…", event_end_time: "…", model_probability: 0.21, model_outcome: 0 };
 */
export type RangeModelSide = Pick<
  RangeComparisonRecord,
  | "forecast_start_time"
  | "current_time"
  | "current_price"
  | "cmp_type"
  | "ref_prices"
  | "event_start_time"
  | "event_end_time"
  | "model_probability"
  | "model_outcome"
> & { slug?: string; title?: string };

/**
 * The model-side fields of an {@link EarlierRangeRecord} (all but `venuea_probability`).
 * @example const side: EarlierRangeModelSide = { title: "[66000, 68000]", ref_prices: [66000, 68000], current_price: 67676.6, model_probability: 0.3773, event_end_time: "…" };
 */
export type EarlierRangeModelSide = Omit<EarlierRangeRecord, "venuea_probability">;

/**
 * P(S(step(event end)) ≥ start price) for the Up/Down contract of `window` open at `context.now`
 * (default: the forecast start): daily = the 17:00 → 17:00 UTC day, hourly = the UTC hour, 15min
 * and 5min = the quarter hour and the 5-minute slot (`venueEventWindow`); the start price is
 * `context.startPrice`, else `context.priceAt(event start)`; a tie resolves Up. 4 decimals;
 * `model_outcome` UP at ≥ 0.5 of the reported probability. The service prices daily with the 24h
 * ensemble and the others with the 1h one: pass the ensemble of the horizon wanted.
 * Standard errors: Agresti–Coull ({@link probabilityError}), and between the miners
 * ({@link betweenMinerErrorAt}). Throws `RangeError` for no start price or a context that does not
 * fit.
 * @param source - the ensemble of the horizon wanted (24h for daily, 1h for the others), or a
 *   session of it.
 * @param context - the context; `now` picks the contract (the forecast start by default),
 *   `startPrice` its start price.
 * @param window - the contract's window: `"daily"`, `"hourly"`, `"15min"` or `"5min"`.
 * @example upDownModelSide(ensemble, { ...context, startPrice: 67950 }, "hourly").record.model_probability_up
 */
export function upDownModelSide(
  source: Ensemble | InsightSession,
  context: InsightContext,
  window: VenueWindow,
): InsightResult<UpDownModelSide> {
  const operation = "upDownModelSide";
  const { session, resolved } = sessionAndContext(operation, source, context);
  const { startUnix, endUnix } = venueEventWindow(window, resolved.nowUnix);
  const startPrice = context.startPrice ?? marketPriceAt(operation, context, startUnix);
  const endStep = endStepOf(resolved, endUnix);
  const sorted = session.sortedPricesAt(endStep);
  const n = sorted.length;
  const probability = (n - countBelowSorted(sorted, startPrice)) / n;
  const reported = roundTo(probability, PROBABILITY_DECIMALS);
  const record: UpDownModelSide = {
    forecast_start_time: context.forecastStartTime,
    current_price: context.currentPrice,
    current_time: isoTimeText(resolved.nowUnix),
    start_price: startPrice,
    event_start_time: isoTimeText(startUnix),
    event_end_time: isoTimeText(endUnix),
    model_probability_up: reported,
    model_outcome: upDownOutcomeOf(reported),
  };
  if (context.slug !== undefined) record.slug = context.slug;
  return {
    record,
    standardErrors: { model_probability_up: probabilityError(probability, n) },
    betweenMinerErrors: {
      model_probability_up: betweenMinerErrorAt(
        session.ensemble,
        endStep,
        (price) => price >= startPrice,
      ),
    },
  };
}

/**
 * The model side of each market of `context.rangeMarkets` (required), resolved at the end of the
 * daily contract open at `context.now` (17:00 UTC; `venueEventWindow("daily")`), at step(end):
 * `range` P(lo ≤ S ≤ hi), `above` P(S > k), `below` P(S < k), `hit` the touch of k over points
 * [0, step(end)] (up when k is above the current price, else down; `context.touchEstimate`,
 * discrete by default). 4 decimals; `model_outcome` 1 at ≥ 0.5. One record per market, in order.
 * Standard errors: Agresti–Coull ({@link probabilityError}), and between the miners
 * ({@link betweenMinerErrorAt}, {@link touchBetweenMinerError}).
 * Throws `RangeError` for no markets, a market with the wrong number of reference prices, or a
 * context that does not fit.
 * @param source - the 24h ensemble, or a session of it.
 * @param context - the context, with the markets in `rangeMarkets`.
 * @example rangeModelSides(ensemble, { ...context, rangeMarkets: [{ cmpType: "above", refPrices: [70000] }] })
 */
export function rangeModelSides(
  source: Ensemble | InsightSession,
  context: InsightContext,
): InsightResult<RangeModelSide[]> {
  const operation = "rangeModelSides";
  const { session, resolved } = sessionAndContext(operation, source, context);
  const { startUnix, endUnix } = venueEventWindow("daily", resolved.nowUnix);
  const endStep = endStepOf(resolved, endUnix);
  const estimates = marketProbabilities(operation, session, context, endStep);
  const standardErrors: Record<string, number> = {};
  const betweenMinerErrors: Record<string, number> = {};
  const records = estimates.map(({ market, probability, standardError, betweenMiners }, index) => {
    const reported = roundTo(probability, PROBABILITY_DECIMALS);
    const key = standardErrorKey([index, "model_probability"]);
    standardErrors[key] = standardError;
    betweenMinerErrors[key] = betweenMiners;
    const record: RangeModelSide = {
      forecast_start_time: context.forecastStartTime,
      current_time: isoTimeText(resolved.nowUnix),
      current_price: context.currentPrice,
      cmp_type: market.cmpType,
      ref_prices: [...market.refPrices],
      event_start_time: isoTimeText(startUnix),
      event_end_time: isoTimeText(endUnix),
      model_probability: reported,
      model_outcome: binaryOutcomeOf(reported),
    };
    if (market.slug !== undefined) record.slug = market.slug;
    if (market.title !== undefined) record.title = market.title;
    return record;
  });
  return { record: records, standardErrors, betweenMinerErrors };
}

/**
 * The model side of the earlier range form (`/insights/venuea/range`): per market of
 * `context.rangeMarkets`, as {@link rangeModelSides}, keeping title, reference prices, current
 * price, model probability and end time. A market without a title gets `[lo, hi]`, `<k`, `>k` or
 * `k` (hit). Throws as {@link rangeModelSides}.
 * @param source - the 24h ensemble, or a session of it.
 * @param context - the context, with the markets in `rangeMarkets`.
 * @example earlierRangeModelSides(ensemble, { ...context, rangeMarkets }).record[0].title
 */
export function earlierRangeModelSides(
  source: Ensemble | InsightSession,
  context: InsightContext,
): InsightResult<EarlierRangeModelSide[]> {
  const { record, standardErrors, betweenMinerErrors } = rangeModelSides(source, context);
  return {
    record: record.map((side) => ({
      title: side.title ?? defaultTitle(side.cmp_type, side.ref_prices),
      ref_prices: side.ref_prices,
      current_price: side.current_price,
      model_probability: side.model_probability,
      event_end_time: side.event_end_time,
    })),
    standardErrors,
    betweenMinerErrors,
  };
}

function defaultTitle(cmpType: RangeMarket["cmpType"], refPrices: readonly number[]): string {
  if (cmpType === "range") return `[${refPrices[0]}, ${refPrices[1]}]`;
  if (cmpType === "below") return `<${refPrices[0]}`;
  if (cmpType === "above") return `>${refPrices[0]}`;
  return String(refPrices[0]);
}

/** The point of the event end: stepOfTime(end), clamped to the ensemble. */
function endStepOf(resolved: ResolvedContext, endUnix: number): number {
  return stepOfTime(endUnix, resolved.forecastStartUnix, resolved.timeIncrement, resolved.nPoints);
}

interface MarketEstimate {
  readonly market: RangeMarket;
  readonly probability: number;
  readonly standardError: number;
  /** The between-miner standard error (`betweenMiners.ts`). */
  readonly betweenMiners: number;
}

function marketProbabilities(
  operation: string,
  session: InsightSession,
  context: InsightContext,
  endStep: number,
): MarketEstimate[] {
  const markets = context.rangeMarkets;
  if (markets === undefined || markets.length === 0) {
    throw new RangeError(
      `${operation} requires context.rangeMarkets (the event's markets: cmpType and refPrices), got ${markets === undefined ? "none" : "an empty list"}`,
    );
  }
  const sorted = session.sortedPricesAt(endStep);
  const n = sorted.length;
  const hitIndexes: number[] = [];
  const estimates: MarketEstimate[] = markets.map((market, index) => {
    const expected = market.cmpType === "range" ? 2 : 1;
    if (market.refPrices?.length !== expected) {
      throw new RangeError(
        `${operation} requires context.rangeMarkets[${index}].refPrices to hold ${expected} price(s) for cmpType "${market.cmpType}", got ${JSON.stringify(market.refPrices)}`,
      );
    }
    const [first, second] = market.refPrices;
    let count: number;
    let holds: (price: number) => boolean;
    if (market.cmpType === "range") {
      count = countAtMostSorted(sorted, second) - countBelowSorted(sorted, first);
      holds = (price) => price >= first && price <= second;
    } else if (market.cmpType === "above") {
      count = n - countAtMostSorted(sorted, first);
      holds = (price) => price > first;
    } else if (market.cmpType === "below") {
      count = countBelowSorted(sorted, first);
      holds = (price) => price < first;
    } else {
      hitIndexes.push(index);
      return { market, probability: NaN, standardError: NaN, betweenMiners: NaN };
    }
    const probability = first <= (second ?? first) ? count / n : NaN;
    return {
      market,
      probability,
      standardError: probabilityError(probability, n),
      betweenMiners: Number.isNaN(probability)
        ? NaN
        : betweenMinerErrorAt(session.ensemble, endStep, holds),
    };
  });
  if (hitIndexes.length > 0) {
    const levels = Float64Array.from(hitIndexes, (index) => markets[index].refPrices[0]);
    const touch = touchEstimates(session, context.touchEstimate, levels, Int32Array.of(endStep));
    hitIndexes.forEach((marketIndex, index) => {
      const side =
        hitDirection(levels[index], context.currentPrice) === "up" ? touch.up : touch.down;
      estimates[marketIndex] = {
        market: markets[marketIndex],
        probability: side.values[index],
        standardError: probabilityError(side.values[index], session.nPaths),
        betweenMiners: touchBetweenMinerError(session, context, endStep, levels[index]),
      };
    });
  }
  return estimates;
}
