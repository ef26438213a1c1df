/** The liquidation record of `/insights/liquidation` (spec: "Liquidation record"). */
import {
  arrayOf,
  HOUR_KEYS,
  mapOf,
  objectOf,
  optional,
  percentageCodec,
  positivePriceCodec,
  probabilityCodec,
  timeCodec,
  type Codec,
} from "../decode.ts";

/**
 * One price-change scenario of a {@link LiquidationRecord}.
 * @example const scenario: LiquidationScenario = { price_change: "1.0%", long_liquidation_probability: { "6": 0.41 }, short_liquidation_probability: { "6": 0.48 } };
 */
export interface LiquidationScenario {
  /**
   * Percentage move relative to the current price. The spec's shape is `<sign><number>%`; the live
   * deployment writes it unsigned (`"1.0%"`), so the sign is optional.
   */
  price_change: string;
  /** Keys are hours (`6`, `12`, `18`, `24`); values: probability a long is liquidated within the window. */
  long_liquidation_probability: Record<string, number>;
  /** Same keys, for a short position. */
  short_liquidation_probability: Record<string, number>;
}

/**
 * Liquidation probabilities per price-change scenario and window.
 * @example
 * const record: LiquidationRecord = {
 *   current_price: 67676.6,
 *   data: [{ price_change: "1.0%", long_liquidation_probability: { "24": 0.69 }, short_liquidation_probability: { "24": 0.77 } }],
 * };
 */
export interface LiquidationRecord {
  /** Start of the simulation used. Listed by the spec, omitted by the live deployment. */
  forecast_start_time?: string;
  current_price: number;
  data: LiquidationScenario[];
}

/**
 * Codec of {@link LiquidationRecord}: hour keys are whole numbers, values probabilities.
 * @example
 * liquidationRecordCodec.decode(json, state).data[0].long_liquidation_probability["12"] // => 0.5154
 */
export const liquidationRecordCodec: Codec<LiquidationRecord> = objectOf<LiquidationRecord>({
  forecast_start_time: optional(timeCodec),
  current_price: positivePriceCodec,
  data: arrayOf(
    objectOf<LiquidationScenario>({
      price_change: percentageCodec,
      long_liquidation_probability: mapOf(HOUR_KEYS, probabilityCodec),
      short_liquidation_probability: mapOf(HOUR_KEYS, probabilityCodec),
    }),
  ),
});

/**
 * What identifies a scenario of a liquidation record (its `price_change`), so that two records'
 * scenarios are paired by move rather than by position; undefined without one.
 * @example liquidationScenarioKey({ price_change: "1.0%" }) // => "1.0%"
 */
export function liquidationScenarioKey(scenario: unknown): string | undefined {
  const change = (scenario as { price_change?: unknown } | null)?.price_change;
  return typeof change === "string" ? change : undefined;
}
