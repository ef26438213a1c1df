/** The venue event open at the request time, and the model's side of it: shared by venue A and B. */

import {
  PROBABILITY_DECIMALS,
  roundTo,
  stepOfTime,
  venueEventWindow,
  type VenueWindow,
} from "../../domain/insightConventions.ts";
import { venueProbabilityUp } from "../../reference/venue.ts";
import type { SandboxInsightInputs } from "./inputs.ts";
import { insightContextOf } from "./insightContext.ts";
import { marketPriceAt } from "./marketPrice.ts";
import type { PreparedEnsemble } from "./preparedEnsemble.ts";

/**
 * The event of one window open at `inputs.nowUnix`, with the re-based ensemble it is priced on.
 * @example const { startUnix, endUnix, startPrice } = openVenueEvent(inputs, "hourly");
 */
export interface VenueEvent {
  /** `inputs.paths` re-based to the current price (`insightContextOf`). */
  readonly ensemble: PreparedEnsemble;
  /** `forecast_start_time` as written in the records. */
  readonly forecastStartTime: string;
  readonly startUnix: number;
  readonly endUnix: number;
  /** The market price at the event start. */
  readonly startPrice: number;
  /** The ensemble step of the event end (`stepOfTime`). */
  readonly endStep: number;
}

/**
 * The event of `window` open at `inputs.nowUnix` (`venueEventWindow`), its start price (the market
 * price at the event start) and the ensemble step of its end. Throws `RangeError` as
 * `insightContextOf` and `marketPriceAt` do.
 * @example openVenueEvent(inputs, "5min").endUnix - openVenueEvent(inputs, "5min").startUnix // => 300
 */
export function openVenueEvent(inputs: SandboxInsightInputs, window: VenueWindow): VenueEvent {
  const { ensemble, forecastStartTime } = insightContextOf(inputs);
  const { startUnix, endUnix } = venueEventWindow(window, inputs.nowUnix);
  const startPrice = marketPriceAt(inputs, startUnix, "start_price");
  const endStep = stepOfTime(
    endUnix,
    inputs.forecastStartUnix,
    inputs.timeIncrement,
    ensemble.pointCount,
  );
  return { ensemble, forecastStartTime, startUnix, endUnix, startPrice, endStep };
}

/**
 * The model's probability that the price ends the event at or above `strike`:
 * `venueProbabilityUp` (reference) over the ensemble at the end step, to 4 decimals.
 * @example modelProbabilityUp(event, event.startPrice) // => 0.5123
 */
export function modelProbabilityUp(event: VenueEvent, strike: number): number {
  return roundTo(
    venueProbabilityUp(event.ensemble.paths, event.endStep, strike),
    PROBABILITY_DECIMALS,
  );
}
