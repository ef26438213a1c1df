/** The option pricing record of `/insights/option-pricing`, from the re-based ensemble. */

import {
  optionExpiryUnix,
  optionPriceDecimals,
  priceKey,
  roundTo,
  stepOfTime,
  strikeGrid,
} from "../../spec/insightConventions.ts";
import type { OptionPricingRecord } from "../../spec/records/option-pricing.ts";
import { optionPrices } from "../../reference/options.ts";
import type { SandboxInsightInputs } from "./inputs.ts";
import { insightContextOf } from "./insightContext.ts";
import { expiryTimeText } from "./timeText.ts";

/**
 * Undiscounted ensemble call and put prices (`optionPrices`, reference), at the asset's strike grid
 * around the current price (`strikeGrid`), for the asset's expiry (`optionExpiryUnix`: BTC monthly,
 * the others the next 08:00 UTC), rounded as `optionPriceDecimals` says (BTC whole dollars); the terminal price is each path's point at step(expiry), clamped to the
 * last point (so a 1h ensemble prices at its horizon). Keys are the strikes' shortest decimal form.
 * @example buildOptionPricingRecord(inputs).expiry_time // => "2026-02-26 08:00:00Z"
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
  const decimals = optionPriceDecimals(inputs.asset);
  const rounded = (value: number) => (decimals === undefined ? value : roundTo(value, decimals));
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
