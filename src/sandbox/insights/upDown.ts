/** Venue A Up/Down comparison records (`/insights/venuea/up-down/{daily,hourly,15min,5min}`). */

import { upDownOutcomeOf, type VenueWindow } from "../../domain/insightConventions.ts";
import type { UpDownComparisonRecord } from "../../domain/records/venue-a.ts";
import type { SandboxInsightInputs } from "./inputs.ts";
import { isoTimeOfUnix } from "./timeText.ts";
import { modelProbabilityUp, openVenueEvent } from "./venueEvent.ts";
import { upDownSlug } from "./venueNames.ts";
import { marketCreationUnix, venueQuote } from "./venueQuote.ts";

/** How long before its start each Up/Down market is created (the captured daily: a day; hourly: two). */
const CREATION_LEAD_SECONDS: Readonly<Record<VenueWindow, number>> = {
  daily: 86400,
  hourly: 2 * 86400,
  "15min": 86400,
  "5min": 86400,
};

/**
 * The Up/Down market of `window` that is open at `inputs.nowUnix` (`venueEventWindow`): the start
 * price is the market price at the event start; the model's probability is `venueProbabilityUp`
 * (reference) P(S(step(event end)) ≥ start price) over the re-based ensemble (4 decimals; the 24h
 * ensemble for daily, the 1h one otherwise, as the server passes them); the venue side comes from
 * `venueQuote`; `current_outcome` is UP when the current price is at or above the start price.
 * @example buildUpDownRecord(inputs, "5min").slug // => "btc-updown-5m-1772205000"
 */
export function buildUpDownRecord(
  inputs: SandboxInsightInputs,
  window: VenueWindow,
): UpDownComparisonRecord {
  const event = openVenueEvent(inputs, window);
  const { forecastStartTime, startUnix, endUnix, startPrice } = event;
  const modelProbability = modelProbabilityUp(event, startPrice);
  const slug = upDownSlug(inputs.asset, window, startUnix, endUnix);
  const creationUnix = marketCreationUnix(
    inputs.seed,
    slug,
    startUnix,
    CREATION_LEAD_SECONDS[window],
  );
  const quote = venueQuote({
    seed: inputs.seed,
    marketKey: slug,
    nowUnix: inputs.nowUnix,
    creationUnix,
    modelProbability,
  });
  const venueOutcome = upDownOutcomeOf(quote.probability);
  return {
    forecast_start_time: forecastStartTime,
    current_price: inputs.currentPrice,
    current_time: isoTimeOfUnix(inputs.nowUnix),
    start_price: startPrice,
    slug,
    event_creation_time: isoTimeOfUnix(creationUnix),
    event_start_time: isoTimeOfUnix(startUnix),
    event_end_time: isoTimeOfUnix(endUnix),
    model_probability_up: modelProbability,
    model_outcome: upDownOutcomeOf(modelProbability),
    venuea_probability_up: quote.probability,
    venuea_outcome: venueOutcome,
    market_probability_up: quote.probability,
    market_outcome: venueOutcome,
    current_outcome: inputs.currentPrice >= startPrice ? "UP" : "DOWN",
    best_bid_price: quote.bestBidPrice,
    best_bid_size: quote.bestBidSize,
    best_ask_price: quote.bestAskPrice,
    best_ask_size: quote.bestAskSize,
    venuea_last_trade_price: quote.lastTradePrice,
    venuea_last_trade_time: isoTimeOfUnix(quote.lastTradeUnix),
    venuea_last_trade_outcome: quote.lastTradeYes ? "UP" : "DOWN",
  };
}
