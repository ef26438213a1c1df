/**
 * Venue A range-family comparisons of the daily contract: `/insights/venuea/range/daily` (a
 * "price on <date>" event of 11 buckets), `/insights/venuea/above/daily` (11 thresholds),
 * `/insights/venuea/hit/daily` (10 levels), and the earlier form `/insights/venuea/range`.
 */

import {
  PROBABILITY_DECIMALS,
  binaryOutcomeOf,
  hitDirection,
  niceStep,
  roundTo,
  stepOfTime,
  venueEventWindow,
} from "../../domain/insightConventions.ts";
import type { BinaryOutcome, ComparisonType } from "../../domain/records/outcomes.ts";
import type { EarlierRangeRecord, RangeComparisonRecord } from "../../domain/records/venue-a.ts";
import { probabilityBelow } from "../../reference/terminal.ts";
import { touchProbability } from "../../reference/touch.ts";
import { venueProbabilityAbove, venueProbabilityRange } from "../../reference/venue.ts";
import type { SandboxInsightInputs } from "./inputs.ts";
import { insightContextOf } from "./insightContext.ts";
import { marketPriceAt } from "./marketPrice.ts";
import type { PreparedEnsemble } from "./preparedEnsemble.ts";
import { isoTimeOfUnix } from "./timeText.ts";
import { rangeFamilySlug } from "./venueNames.ts";
import { hashText, marketCreationUnix, venueQuote } from "./venueQuote.ts";

/**
 * The three daily range-family events.
 * @example const family: RangeFamily = "hit";
 */
export type RangeFamily = "range" | "above" | "hit";

/** Days before its start that a daily range-family event is listed (the captured: six). */
const LISTING_LEAD_SECONDS = 6 * 86400;
/** Ladder spacing as a fraction of the price when the event was listed, rounded to a nice number. */
const LADDER_SPACING: Readonly<Record<RangeFamily, number>> = {
  range: 0.03,
  above: 0.015,
  hit: 0.02,
};
/** Share of range-family markets without an active order book (null book fields). */
const NO_BOOK_SHARE = 0.08;

/** One market of a range-family event. */
interface RangeFamilyMarket {
  readonly title: string;
  readonly cmpType: ComparisonType;
  readonly refPrices: number[];
  /** For hit levels: the side the level was on when listed (up = above the listing price). */
  readonly hitSide?: "up" | "down";
}

/**
 * The records of one daily range-family event open at `inputs.nowUnix`, one per market. The ladder
 * is fixed when the event is listed (six days before its 17:00 UTC start), around the price then
 * (the price at the start when the market's history begins later),
 * with a nice spacing (3 % buckets, 1.5 % thresholds, 2 % hit levels):
 * - `range`: `<b0` (below), nine `[bᵢ, bᵢ₊₁]` buckets (range) and `>b9` (above), as captured;
 * - `above`: eleven thresholds `>k`; `hit`: five levels each side, `↑ k` / `↓ k`.
 * Model side (4 decimals, resolved at step(event end) of the re-based ensemble): below P(S < k),
 * range P(lo ≤ S ≤ hi), above P(S > k) (reference terminal and venue functions), hit the touch of k
 * over points [0, step(end)] (`touchProbability`, up when k is above the current price). The
 * current outcome uses the current price, and for hit levels the closes since the event start.
 * @example buildRangeFamilyRecords(inputs, "range").map((record) => record.title)[0] // => "<58000"
 */
export function buildRangeFamilyRecords(
  inputs: SandboxInsightInputs,
  family: RangeFamily,
): RangeComparisonRecord[] {
  const { ensemble, forecastStartTime } = insightContextOf(inputs);
  const { startUnix, endUnix } = venueEventWindow("daily", inputs.nowUnix);
  const slug = rangeFamilySlug(inputs.asset, family, endUnix);
  const endStep = stepOfTime(
    endUnix,
    inputs.forecastStartUnix,
    inputs.timeIncrement,
    ensemble.pointCount,
  );
  const anchor = listingPrice(inputs, startUnix);
  return ladderOf(family, anchor).map((market) => {
    const marketKey = `${slug}|${market.title}`;
    const modelProbability = roundTo(
      modelProbabilityOf(market, ensemble, endStep, inputs.currentPrice),
      PROBABILITY_DECIMALS,
    );
    const currentOutcome = currentOutcomeOf(market, inputs, startUnix);
    const creationUnix = marketCreationUnix(
      inputs.seed,
      marketKey,
      startUnix,
      LISTING_LEAD_SECONDS,
    );
    const quote = venueQuote({
      seed: inputs.seed,
      marketKey,
      nowUnix: inputs.nowUnix,
      creationUnix,
      modelProbability,
      resolvedYes: market.cmpType === "hit" && currentOutcome === 1,
    });
    const hasBook = hashText(`${inputs.seed}|${marketKey}|book`) / 2 ** 32 >= NO_BOOK_SHARE;
    const yesTradePrice = quote.lastTradeYes
      ? quote.lastTradePrice
      : roundTo(1 - quote.lastTradePrice, 3);
    const venueProbability = hasBook ? quote.probability : yesTradePrice;
    return {
      forecast_start_time: forecastStartTime,
      current_time: isoTimeOfUnix(inputs.nowUnix),
      current_price: inputs.currentPrice,
      slug,
      title: market.title,
      cmp_type: market.cmpType,
      ref_prices: market.refPrices,
      event_creation_time: isoTimeOfUnix(creationUnix),
      event_start_time: isoTimeOfUnix(startUnix),
      event_end_time: isoTimeOfUnix(endUnix),
      model_probability: modelProbability,
      model_outcome: binaryOutcomeOf(modelProbability),
      venuea_probability: venueProbability,
      venuea_outcome: binaryOutcomeOf(venueProbability),
      current_outcome: currentOutcome,
      best_bid_price: hasBook ? quote.bestBidPrice : null,
      best_bid_size: hasBook ? quote.bestBidSize : null,
      best_ask_price: hasBook ? quote.bestAskPrice : null,
      best_ask_size: hasBook ? quote.bestAskSize : null,
      venuea_last_trade_price: quote.lastTradePrice,
      venuea_last_trade_time: isoTimeOfUnix(quote.lastTradeUnix),
      venuea_last_trade_outcome: quote.lastTradeYes ? 1 : 0,
    };
  });
}

/**
 * The earlier form of the range operation (`/insights/venuea/range`): the buckets of the daily
 * "price on <date>" event with only title, reference prices, current price, both probabilities and
 * the end time.
 * @example buildEarlierRangeRecords(inputs)[5].title // => "[66000, 68000]"
 */
export function buildEarlierRangeRecords(inputs: SandboxInsightInputs): EarlierRangeRecord[] {
  return buildRangeFamilyRecords(inputs, "range").map((record) => ({
    title: record.title,
    ref_prices: record.ref_prices,
    current_price: record.current_price,
    model_probability: record.model_probability,
    venuea_probability: record.venuea_probability,
    event_end_time: record.event_end_time,
  }));
}

/**
 * The market price when the event was listed (six days before its start), or, when that is before
 * the market's history, at the event start.
 */
function listingPrice(inputs: SandboxInsightInputs, startUnix: number): number {
  const listed = inputs.priceAt(startUnix - LISTING_LEAD_SECONDS);
  return listed > 0 && Number.isFinite(listed)
    ? listed
    : marketPriceAt(inputs, startUnix, "the range-family ladder's listing price");
}

/** The markets of an event listed at `anchor`. Ladder prices are index × step to 8 decimals. */
function ladderOf(family: RangeFamily, anchor: number): RangeFamilyMarket[] {
  const step = niceStep(LADDER_SPACING[family] * anchor);
  const center = Math.round(anchor / step);
  const price = (offset: number): number => roundTo((center + offset) * step, 8);
  if (family === "range") {
    const bounds = Array.from({ length: 10 }, (_, index) => price(index - 5));
    const buckets = bounds.slice(0, 9).map((lower, index) => ({
      title: `[${lower}, ${bounds[index + 1]}]`,
      cmpType: "range" as const,
      refPrices: [lower, bounds[index + 1]],
    }));
    return [
      { title: `<${bounds[0]}`, cmpType: "below", refPrices: [bounds[0]] },
      ...buckets,
      { title: `>${bounds[9]}`, cmpType: "above", refPrices: [bounds[9]] },
    ];
  }
  if (family === "above") {
    return Array.from({ length: 11 }, (_, index) => {
      const level = price(index - 5);
      return { title: `>${level}`, cmpType: "above", refPrices: [level] };
    });
  }
  return [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5].map((offset) => {
    const level = price(offset);
    const hitSide = offset > 0 ? "up" : "down";
    return {
      title: `${hitSide === "up" ? "↑" : "↓"} ${level}`,
      cmpType: "hit",
      refPrices: [level],
      hitSide,
    };
  });
}

function modelProbabilityOf(
  market: RangeFamilyMarket,
  ensemble: PreparedEnsemble,
  endStep: number,
  currentPrice: number,
): number {
  const [first, second] = market.refPrices;
  switch (market.cmpType) {
    case "below":
      return probabilityBelow(ensemble.column(endStep), first);
    case "range":
      return venueProbabilityRange(ensemble.paths, endStep, first, second);
    case "above":
      return venueProbabilityAbove(ensemble.paths, endStep, first);
    case "hit":
      return touchProbability(ensemble.paths, first, hitDirection(first, currentPrice), 0, endStep);
  }
}

/** YES if resolved now: the current price against the bounds; hit levels: touched since the start. */
function currentOutcomeOf(
  market: RangeFamilyMarket,
  inputs: SandboxInsightInputs,
  startUnix: number,
): BinaryOutcome {
  const price = inputs.currentPrice;
  const [first, second] = market.refPrices;
  switch (market.cmpType) {
    case "below":
      return price < first ? 1 : 0;
    case "range":
      return price >= first && price <= second ? 1 : 0;
    case "above":
      return price > first ? 1 : 0;
    case "hit":
      return touchedSince(inputs, startUnix, first, market.hitSide ?? "up") ? 1 : 0;
  }
}

/** Whether a 1-minute close from the event start to now (or the current price) reached the level. */
function touchedSince(
  inputs: SandboxInsightInputs,
  startUnix: number,
  level: number,
  side: "up" | "down",
): boolean {
  const reaches = (price: number): boolean => (side === "up" ? price >= level : price <= level);
  if (reaches(inputs.currentPrice)) return true;
  for (let minute = startUnix; minute <= inputs.nowUnix; minute += 60) {
    if (reaches(inputs.minuteClose(minute))) return true;
  }
  return false;
}
