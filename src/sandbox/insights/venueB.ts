/** Venue B comparison records (`/insights/venueb/{daily,hourly,15min}`). */

import {
  PROBABILITY_DECIMALS,
  niceStep,
  roundTo,
  upDownOutcomeOf,
} from "../../domain/insightConventions.ts";
import type { VenueBComparisonRecord } from "../../domain/records/venue-b.ts";
import type { SandboxInsightInputs } from "./inputs.ts";
import { isoTimeOfUnix } from "./timeText.ts";
import { modelProbabilityUp, openVenueEvent } from "./venueEvent.ts";
import { venueBSlug } from "./venueNames.ts";
import { venueQuote } from "./venueQuote.ts";
import type { VenueBWindow } from "../../domain/insightKinds.ts";

/** Strikes of the hourly ladder: the centre and two each side. */
const HOURLY_STRIKE_OFFSETS = [-2, -1, 0, 1, 2];

/**
 * The venue B markets open at `inputs.nowUnix` in `window` (`venueEventWindow`; created at the
 * event start, so hourly ends one hour after creation and 15-minute ones 15 minutes after). Daily
 * and 15-minute: one contract whose strike is the market price at the event start. Hourly: five
 * strikes around it, spaced by the nice number nearest 0.25 % of it. Model side:
 * `venueProbabilityUp` (reference) P(S(step(end)) ≥ strike), 4 decimals; `start_price` is the
 * strike; `event_outcome_prices` are the market prices of Up and Down.
 * @example buildVenueBRecords(inputs, "hourly").length // => 5
 */
export function buildVenueBRecords(
  inputs: SandboxInsightInputs,
  window: VenueBWindow,
): VenueBComparisonRecord[] {
  const event = openVenueEvent(inputs, window);
  const { forecastStartTime, startUnix, endUnix, startPrice } = event;
  return strikesOf(window, startPrice).map((strike) => {
    const slug = venueBSlug(
      inputs.asset,
      window,
      startUnix,
      window === "hourly" ? strike : undefined,
    );
    const modelProbability = modelProbabilityUp(event, strike);
    const quote = venueQuote({
      seed: inputs.seed,
      marketKey: slug,
      nowUnix: inputs.nowUnix,
      creationUnix: startUnix,
      modelProbability,
    });
    return {
      forecast_start_time: forecastStartTime,
      current_time: isoTimeOfUnix(inputs.nowUnix),
      current_price: inputs.currentPrice,
      start_price: strike,
      slug,
      event_creation_time: isoTimeOfUnix(startUnix),
      event_end_time: isoTimeOfUnix(endUnix),
      event_outcome_prices: [
        quote.probability,
        roundTo(1 - quote.probability, PROBABILITY_DECIMALS),
      ],
      model_probability_up: modelProbability,
      model_outcome: upDownOutcomeOf(modelProbability),
      market_probability_up: quote.probability,
      market_outcome: upDownOutcomeOf(quote.probability),
      best_bid_price: quote.bestBidPrice,
      best_ask_price: quote.bestAskPrice,
    };
  });
}

function strikesOf(window: VenueBWindow, startPrice: number): number[] {
  if (window !== "hourly") return [startPrice];
  const step = niceStep(0.0025 * startPrice);
  const center = Math.round(startPrice / step);
  return HOURLY_STRIKE_OFFSETS.map((offset) => roundTo((center + offset) * step, 8));
}
