/**
 * Venue A comparison records: Up/Down (`/insights/venuea/up-down/*`), the range family
 * (`/insights/venuea/{range,above,hit}/daily`) and the earlier range form (`/insights/venuea/range`).
 * Field names are the spec's neutral ones; decoders read the deployment's prefixes (`polymarket_`,
 * `synth_` under `liveNaming`).
 */
import {
  arrayOf,
  failDecode,
  positivePriceArrayCodec,
  nonNegativeNumberCodec,
  nullable,
  objectOf,
  optional,
  positivePriceCodec,
  probabilityCodec,
  refine,
  stringCodec,
  timeCodec,
  type Codec,
} from "../decode.ts";
import {
  REF_PRICE_COUNTS,
  binaryOutcomeCodec,
  comparisonTypeCodec,
  upDownOutcomeCodec,
  type BinaryOutcome,
  type ComparisonType,
  type UpDownOutcome,
} from "./outcomes.ts";

/**
 * The service's Up/Down probability next to venue A's, for one daily, hourly, 15- or 5-minute market.
 * Optional fields are listed by the spec but absent from some or all captured responses.
 * @example
 * const outcome = record.model_outcome; // "UP" | "DOWN"
 */
export interface UpDownComparisonRecord {
  /** Listed by the spec, omitted by the live deployment. */
  forecast_start_time?: string;
  current_price: number;
  current_time: string;
  start_price: number;
  slug: string;
  /** Absent from the captured 15- and 5-minute responses. */
  event_creation_time?: string;
  event_start_time: string;
  event_end_time: string;
  model_probability_up: number;
  model_outcome: UpDownOutcome;
  venuea_probability_up: number;
  venuea_outcome: UpDownOutcome;
  /** Same as `venuea_probability_up` (compatibility); absent from the captured responses. */
  market_probability_up?: number;
  /** Same as `venuea_outcome` (compatibility); absent from the captured responses. */
  market_outcome?: UpDownOutcome;
  current_outcome: UpDownOutcome;
  best_bid_price: number;
  best_bid_size: number;
  best_ask_price: number;
  best_ask_size: number;
  venuea_last_trade_price: number;
  venuea_last_trade_time: string;
  venuea_last_trade_outcome: UpDownOutcome;
}

/**
 * Codec of {@link UpDownComparisonRecord}; outcomes normalized to `UP`/`DOWN`.
 * @example
 * upDownComparisonRecordCodec.decode(json, liveState).venuea_probability_up // => 0.395
 */
export const upDownComparisonRecordCodec: Codec<UpDownComparisonRecord> =
  objectOf<UpDownComparisonRecord>({
    forecast_start_time: optional(timeCodec),
    current_price: positivePriceCodec,
    current_time: timeCodec,
    start_price: positivePriceCodec,
    slug: stringCodec,
    event_creation_time: optional(timeCodec),
    event_start_time: timeCodec,
    event_end_time: timeCodec,
    model_probability_up: probabilityCodec,
    model_outcome: upDownOutcomeCodec,
    venuea_probability_up: probabilityCodec,
    venuea_outcome: upDownOutcomeCodec,
    market_probability_up: optional(probabilityCodec),
    market_outcome: optional(upDownOutcomeCodec),
    current_outcome: upDownOutcomeCodec,
    best_bid_price: probabilityCodec,
    best_bid_size: nonNegativeNumberCodec,
    best_ask_price: probabilityCodec,
    best_ask_size: nonNegativeNumberCodec,
    venuea_last_trade_price: probabilityCodec,
    venuea_last_trade_time: timeCodec,
    venuea_last_trade_outcome: upDownOutcomeCodec,
  });

/**
 * One active range-family market (range, above, hit, or below) with the service's and venue A's YES
 * probabilities.
 * @example
 * const bounds = record.cmp_type === "range" ? record.ref_prices : undefined; // [low, high]
 */
export interface RangeComparisonRecord {
  /** Listed by the spec, omitted by the live deployment. */
  forecast_start_time?: string;
  current_time: string;
  current_price: number;
  slug: string;
  title: string;
  /** Normalized from the live deployment's `between`/`higher`/`lower` (see {@link ComparisonType}). */
  cmp_type: ComparisonType;
  /** Two values for `range`, one for `above`, `hit` and `below` (checked when decoding). */
  ref_prices: number[];
  event_creation_time: string;
  event_start_time: string;
  event_end_time: string;
  model_probability: number;
  model_outcome: BinaryOutcome;
  venuea_probability: number;
  venuea_outcome: BinaryOutcome;
  current_outcome: BinaryOutcome;
  /** Null when there is no active order book. */
  best_bid_price: number | null;
  best_bid_size: number | null;
  best_ask_price: number | null;
  best_ask_size: number | null;
  venuea_last_trade_price: number;
  venuea_last_trade_time: string;
  venuea_last_trade_outcome: BinaryOutcome;
}

const rangeComparisonFields = objectOf<RangeComparisonRecord>({
  forecast_start_time: optional(timeCodec),
  current_time: timeCodec,
  current_price: positivePriceCodec,
  slug: stringCodec,
  title: stringCodec,
  cmp_type: comparisonTypeCodec,
  ref_prices: positivePriceArrayCodec,
  event_creation_time: timeCodec,
  event_start_time: timeCodec,
  event_end_time: timeCodec,
  model_probability: probabilityCodec,
  model_outcome: binaryOutcomeCodec,
  venuea_probability: probabilityCodec,
  venuea_outcome: binaryOutcomeCodec,
  current_outcome: binaryOutcomeCodec,
  best_bid_price: nullable(probabilityCodec),
  best_bid_size: nullable(nonNegativeNumberCodec),
  best_ask_price: nullable(probabilityCodec),
  best_ask_size: nullable(nonNegativeNumberCodec),
  venuea_last_trade_price: probabilityCodec,
  venuea_last_trade_time: timeCodec,
  venuea_last_trade_outcome: binaryOutcomeCodec,
});

/**
 * Codec of an array of {@link RangeComparisonRecord}. With `only`, every record must have that
 * comparison type (the spec: `above/daily` is always `above`, `hit/daily` always `hit`). Each record's
 * `ref_prices` must hold as many values as its type needs.
 * @example
 * rangeComparisonsCodec().decode(json, liveState)[0].cmp_type // => "below"
 */
export function rangeComparisonsCodec(only?: ComparisonType): Codec<RangeComparisonRecord[]> {
  return arrayOf(
    refine(rangeComparisonFields, (record, state) => {
      if (only !== undefined && record.cmp_type !== only) {
        state.path.push("cmp_type");
        failDecode(state, `"${only}" on this operation`, record.cmp_type);
      }
      const count = REF_PRICE_COUNTS[record.cmp_type];
      if (record.ref_prices.length !== count) {
        state.path.push("ref_prices");
        failDecode(state, `${count} value(s) for cmp_type "${record.cmp_type}"`, record.ref_prices);
      }
    }),
  );
}

/**
 * The earlier form of the range operation (`/insights/venuea/range`): only these six fields.
 * @example
 * const record: EarlierRangeRecord = {
 *   title: "[66000, 68000]", ref_prices: [66000, 68000], current_price: 67676.6,
 *   model_probability: 0.3773, venuea_probability: 0.395, event_end_time: "2026-02-26T17:00:00+00:00",
 * };
 */
export interface EarlierRangeRecord {
  title: string;
  ref_prices: number[];
  current_price: number;
  model_probability: number;
  venuea_probability: number;
  event_end_time: string;
}

/**
 * Codec of {@link EarlierRangeRecord}.
 * @example
 * arrayOf(earlierRangeRecordCodec).decode(json, state)[0].title
 */
export const earlierRangeRecordCodec: Codec<EarlierRangeRecord> = objectOf<EarlierRangeRecord>({
  title: stringCodec,
  ref_prices: positivePriceArrayCodec,
  current_price: positivePriceCodec,
  model_probability: probabilityCodec,
  venuea_probability: probabilityCodec,
  event_end_time: timeCodec,
});

/**
 * What identifies a market of a range-family record: its comparison type (when it has one) and
 * reference prices, so that two records' markets are paired by market rather than by position;
 * undefined without reference prices.
 * @example rangeMarketKey({ cmp_type: "above", ref_prices: [2175] }) // => "above 2175"
 */
export function rangeMarketKey(market: unknown): string | undefined {
  const record = market as { cmp_type?: unknown; ref_prices?: unknown } | null;
  if (record === null || typeof record !== "object" || !Array.isArray(record.ref_prices)) {
    return undefined;
  }
  const kind = typeof record.cmp_type === "string" ? `${record.cmp_type} ` : "";
  return `${kind}${record.ref_prices.join(", ")}`;
}
