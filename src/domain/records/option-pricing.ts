/** The option pricing record of `/insights/option-pricing`. */
import {
  mapOf,
  nonNegativeNumberCodec,
  objectOf,
  optional,
  positivePriceCodec,
  PRICE_KEYS,
  timeCodec,
  type Codec,
} from "../decode.ts";

/**
 * Theoretical call and put prices per strike, in the asset's quote currency.
 * @example
 * const record: OptionPricingRecord = {
 *   current_price: 71181,
 *   expiry_time: "2026-03-27 08:00:00Z",
 *   call_options: { "70000": 3573 },
 *   put_options: { "70000": 2349 },
 * };
 */
export interface OptionPricingRecord {
  /** Listed by the spec, omitted by the live deployment. */
  forecast_start_time?: string;
  current_price: number;
  /** Expiry used for pricing (the live deployment writes `2026-03-27 08:00:00Z`). */
  expiry_time: string;
  /** Keyed by decimal strike. */
  call_options: Record<string, number>;
  /** Keyed by decimal strike. */
  put_options: Record<string, number>;
}

/**
 * Codec of {@link OptionPricingRecord}.
 * @example
 * optionPricingRecordCodec.decode(json, state).call_options["70000"] // => 3573
 */
export const optionPricingRecordCodec: Codec<OptionPricingRecord> = objectOf<OptionPricingRecord>({
  forecast_start_time: optional(timeCodec),
  current_price: positivePriceCodec,
  expiry_time: timeCodec,
  call_options: mapOf(PRICE_KEYS, nonNegativeNumberCodec),
  put_options: mapOf(PRICE_KEYS, nonNegativeNumberCodec),
});
