/** The option pricing record of `/insights/option-pricing`, from the re-based ensemble. */

import {
  optionExpiryUnix,
  priceKey,
  roundOptionPrice,
  stepOfTime,
  strikeGrid,
} from "../../domain/insightConventions.ts";
import type { OptionPricingRecord } from "../../domain/records/option-pricing.ts";
import { optionPrices } from "../../reference/options.ts";
import type { SandboxInsightInputs } from "./inputs.ts";
import { insightContextOf } from "./insightContext.ts";
import { expiryTimeText } from "./timeText.ts";

/**
 * Undiscounted ensemble call and put prices (`optionPrices`, reference), at the asset's strike grid
 * around the current price (`strikeGrid`), for the asset's expiry (`optionExpiryUnix`: BTC monthly,
 * the others the next 08:00 UTC), rounded by `roundOptionPrice` (BTC whole dollars); the terminal
 * price is each path's point at step(expiry), clamped to the last point (so a 1h ensemble and
 * BTC's monthly expiry price at the horizon). Keys are the strikes' shortest decimal form.
 * @example buildOptionPricingRecord(inputs).expiry_time // => "2026-03-27 08:00:00Z" (BTC)
 */
export function buildOptionPricingRecord(inputs: SandboxInsightInputs): OptionPricingRecord {
  const { ensemble, forecastStartTime } = insightContextOf(inputs);
  const expiryUnix = optionExpiryUnix(inputs.asset, inputs.forecastStartUnix);
  const step = stepOfTime(
    expiryUnix,
    inputs.forecastStartUnix,
    inputs.timeIncrement,
    ensemble.pointCount,
  );
  const strikes = strikeGrid(inputs.asset, inputs.currentPrice);
  const { calls, puts } = optionPrices(ensemble.column(step), strikes);
  const callOptions: Record<string, number> = {};
  const putOptions: Record<string, number> = {};
  const rounded = (value: number) => roundOptionPrice(inputs.asset, value);
  strikes.forEach((strike, index) => {
    callOptions[priceKey(strike)] = rounded(calls[index]);
    putOptions[priceKey(strike)] = rounded(puts[index]);
  });
  return {
    forecast_start_time: forecastStartTime,
    current_price: inputs.currentPrice,
    expiry_time: expiryTimeText(expiryUnix),
    call_options: callOptions,
    put_options: putOptions,
  };
}
