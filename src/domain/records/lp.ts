/**
 * The liquidity-provider records: LP bounds (`/insights/lp-bounds`) and LP probabilities
 * (`/insights/lp-probabilities`, and its older name `/insights/lp-bounds-chart`).
 */
import {
  arrayOf,
  finiteNumberCodec,
  HORIZON_KEYS,
  HOUR_KEYS,
  mapOf,
  nonNegativeNumberCodec,
  objectOf,
  optional,
  percentageCodec,
  positivePriceCodec,
  PRICE_KEYS,
  probabilityCodec,
  timeCodec,
  type Codec,
} from "../decode.ts";

/**
 * The price interval of an {@link LpBoundsEntry}.
 * @example const interval: LpInterval = { full_width: "10.0%", lower_bound: 1900, upper_bound: 2100 };
 */
export interface LpInterval {
  /** Total width as a percentage (`"10.0%"` is 5% each side of the current price). */
  full_width: string;
  lower_bound: number;
  upper_bound: number;
}

/**
 * One interval of an {@link LpBoundsRecord}.
 * @example const minutesInRange = entry.expected_time_in_interval; // live deployment: minutes
 */
export interface LpBoundsEntry {
  interval: LpInterval;
  /**
   * Expected time inside the interval. The unit is ambiguous in the spec (fraction of the horizon in
   * one description); the live deployment reports minutes (up to 1440). Any non-negative number.
   */
  expected_time_in_interval: number;
  /** Expected impermanent loss as a fraction. */
  expected_impermanent_loss: number;
  /** Key `24` (hours): probability the price never leaves the interval over the horizon. */
  probability_to_stay_in_interval: Record<string, number>;
}

/**
 * LP ranges around the current price with time-in-range, impermanent loss and stay probability.
 * @example
 * const record: LpBoundsRecord = { current_price: 2000, data: [] };
 */
export interface LpBoundsRecord {
  /** Listed by the spec, omitted by the live deployment. */
  forecast_start_time?: string;
  current_price: number;
  data: LpBoundsEntry[];
}

/**
 * Codec of {@link LpBoundsRecord}.
 * @example
 * lpBoundsRecordCodec.decode(json, state).data[0].interval.full_width // => "1.0%"
 */
export const lpBoundsRecordCodec: Codec<LpBoundsRecord> = objectOf<LpBoundsRecord>({
  forecast_start_time: optional(timeCodec),
  current_price: positivePriceCodec,
  data: arrayOf(
    objectOf<LpBoundsEntry>({
      interval: objectOf<LpInterval>({
        full_width: percentageCodec,
        lower_bound: positivePriceCodec,
        upper_bound: positivePriceCodec,
      }),
      expected_time_in_interval: nonNegativeNumberCodec,
      expected_impermanent_loss: finiteNumberCodec,
      probability_to_stay_in_interval: mapOf(HOUR_KEYS, probabilityCodec),
    }),
  ),
});

/**
 * The probabilities of one horizon of an {@link LpProbabilitiesRecord}, keyed by decimal price.
 * @example const levels: LpProbabilityLevels = { probability_above: { "2100": 0.2 }, probability_below: { "1900": 0.15 } };
 */
export interface LpProbabilityLevels {
  /** P(price at horizon end > level), 11 upside levels. */
  probability_above: Record<string, number>;
  /** P(price at horizon end < level), 11 downside levels. */
  probability_below: Record<string, number>;
}

/**
 * Price-level probabilities at the horizon end.
 * @example
 * const record: LpProbabilitiesRecord = {
 *   current_price: 67676.6,
 *   data: { "24h": { probability_above: { "67927.0": 0.5 }, probability_below: { "67927.0": 0.5 } } },
 * };
 */
export interface LpProbabilitiesRecord {
  /** Listed by the spec, omitted by the live deployment. */
  forecast_start_time?: string;
  current_price: number;
  /** The spec shows the single key `24h`; keys are horizon labels (`24h`, `1h`). */
  data: Record<string, LpProbabilityLevels>;
}

/**
 * Codec of {@link LpProbabilitiesRecord}.
 * @example
 * lpProbabilitiesRecordCodec.decode(json, state).data["24h"].probability_above["67927.01858575"] // => 0.5008
 */
export const lpProbabilitiesRecordCodec: Codec<LpProbabilitiesRecord> =
  objectOf<LpProbabilitiesRecord>({
    forecast_start_time: optional(timeCodec),
    current_price: positivePriceCodec,
    data: mapOf(
      HORIZON_KEYS,
      objectOf<LpProbabilityLevels>({
        probability_above: mapOf(PRICE_KEYS, probabilityCodec),
        probability_below: mapOf(PRICE_KEYS, probabilityCodec),
      }),
    ),
  });

/**
 * What identifies an entry of an LP bounds record (its interval's `full_width`), so that two
 * records' entries are paired by width rather than by position; undefined without one.
 * @example lpBoundsEntryKey({ interval: { full_width: "10.0%" } }) // => "10.0%"
 */
export function lpBoundsEntryKey(entry: unknown): string | undefined {
  const interval = (entry as { interval?: { full_width?: unknown } | null } | null)?.interval;
  const width = interval?.full_width;
  return typeof width === "string" ? width : undefined;
}
