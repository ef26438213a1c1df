/** The venue B comparison record of `/insights/venueb/{daily,hourly,15min}` (no captured response). */
import {
  arrayOf,
  nonNegativeNumberArrayCodec,
  nullable,
  objectOf,
  optional,
  positivePriceCodec,
  probabilityCodec,
  stringCodec,
  timeCodec,
  type Codec,
} from "../decode.ts";
import { upDownOutcomeCodec, type UpDownOutcome } from "./outcomes.ts";

/**
 * One active venue B market next to the service's Up probability. All fields the spec lists are
 * required except `forecast_start_time`, which the live deployment omits from every other record.
 * @example
 * const gap = record.market_probability_up === null ? null : record.model_probability_up - record.market_probability_up;
 */
export interface VenueBComparisonRecord {
  forecast_start_time?: string;
  current_time: string;
  current_price: number;
  /** Price at the start of the event period (strike reference). */
  start_price: number;
  slug: string;
  event_creation_time: string;
  event_end_time: string;
  /** Settlement payout (or, in examples, market) price per outcome; two values for a binary market. */
  event_outcome_prices: number[];
  model_probability_up: number;
  model_outcome: UpDownOutcome;
  /** Null without market data. */
  market_probability_up: number | null;
  market_outcome: UpDownOutcome;
  /** Null without an active order book. */
  best_bid_price: number | null;
  best_ask_price: number | null;
}

/**
 * Codec of an array of {@link VenueBComparisonRecord}.
 * @example
 * venueBComparisonsCodec.decode([], state) // => []
 */
export const venueBComparisonsCodec: Codec<VenueBComparisonRecord[]> = arrayOf(
  objectOf<VenueBComparisonRecord>({
    forecast_start_time: optional(timeCodec),
    current_time: timeCodec,
    current_price: positivePriceCodec,
    start_price: positivePriceCodec,
    slug: stringCodec,
    event_creation_time: timeCodec,
    event_end_time: timeCodec,
    event_outcome_prices: nonNegativeNumberArrayCodec,
    model_probability_up: probabilityCodec,
    model_outcome: upDownOutcomeCodec,
    market_probability_up: nullable(probabilityCodec),
    market_outcome: upDownOutcomeCodec,
    best_bid_price: nullable(probabilityCodec),
    best_ask_price: nullable(probabilityCodec),
  }),
);

/**
 * What identifies a contract of a venue B record: its strike (`start_price`), so that two records'
 * contracts are paired by strike rather than by position; undefined without one.
 * @example venueBContractKey({ start_price: 97000 }) // => "97000"
 */
export function venueBContractKey(contract: unknown): string | undefined {
  const strike = (contract as { start_price?: unknown } | null)?.start_price;
  return typeof strike === "number" ? String(strike) : undefined;
}
