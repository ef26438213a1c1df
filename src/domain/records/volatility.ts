/**
 * The volatility records: `/insights/volatility` and `/insights/volatility-percentiles`.
 * Volatilities are annualized percentages.
 */
import {
  arrayOf,
  nonNegativeNumberArrayCodec,
  finiteNumberCodec,
  nonNegativeNumberCodec,
  nullable,
  nullableNonNegativeNumberArrayCodec,
  objectOf,
  optional,
  positivePriceCodec,
  timeCodec,
  type Codec,
} from "../decode.ts";
import { volatilityPercentileSeriesCodec, type PercentileSeries } from "./percentiles.ts";

/**
 * One realized observation before the forecast time.
 * @example const observation: RealizedPrice = { price: 5142.605, returns: 4.76e-5 };
 */
export interface RealizedPrice {
  /**
   * Price at the observation. The spec says float; the live deployment writes `null` where no price
   * was observed (XAU outside market hours), so null is accepted.
   */
  price: number | null;
  /** Return from the previous observation; null where not computable. */
  returns: number | null;
}

/**
 * The `realized` part of a {@link VolatilityRecord}.
 * @example const latest = record.realized.volatility.at(-1); // may be null
 */
export interface RealizedVolatility {
  prices: RealizedPrice[];
  /** Rolling realized volatility per period; null where not computable. */
  volatility: (number | null)[];
  average_volatility: number;
}

/**
 * The `forecast_past` part of a {@link VolatilityRecord}: backtested model volatility.
 * @example const past: PastVolatility = { volatility: [50.1, 49.8], average_volatility: 49.95 };
 */
export interface PastVolatility {
  volatility: number[];
  average_volatility: number;
}

/**
 * The `forecast_future` part of a {@link VolatilityRecord}.
 * @example const future: FutureVolatility = { volatility: [51.2, null], average_volatility: 51.2 };
 */
export interface FutureVolatility {
  /** Model volatility per upcoming period. The spec says float; the live deployment writes nulls too. */
  volatility: (number | null)[];
  average_volatility: number;
}

/**
 * Realized, backtested and forecast volatility.
 * @example
 * const record: VolatilityRecord = {
 *   current_price: 64088,
 *   realized: { prices: [{ price: 64088, returns: null }], volatility: [null], average_volatility: 53.8 },
 *   forecast_past: { volatility: [50.1], average_volatility: 50.1 },
 *   forecast_future: { volatility: [null], average_volatility: 52 },
 * };
 */
export interface VolatilityRecord {
  /** Listed by the spec, omitted by the live deployment. */
  forecast_start_time?: string;
  current_price: number;
  realized: RealizedVolatility;
  forecast_past: PastVolatility;
  forecast_future: FutureVolatility;
}

/**
 * Codec of {@link RealizedPrice}.
 * @example
 * realizedPriceCodec.decode({ price: 5142.6, returns: null }, state) // => { price: 5142.6, returns: null }
 */
export const realizedPriceCodec: Codec<RealizedPrice> = objectOf<RealizedPrice>({
  price: nullable(positivePriceCodec),
  returns: nullable(finiteNumberCodec),
});

/**
 * Codec of {@link VolatilityRecord}.
 * @example
 * volatilityRecordCodec.decode(json, state).forecast_future.volatility.length // => 97
 */
export const volatilityRecordCodec: Codec<VolatilityRecord> = objectOf<VolatilityRecord>({
  forecast_start_time: optional(timeCodec),
  current_price: positivePriceCodec,
  realized: objectOf<RealizedVolatility>({
    prices: arrayOf(realizedPriceCodec),
    volatility: nullableNonNegativeNumberArrayCodec,
    average_volatility: nonNegativeNumberCodec,
  }),
  forecast_past: objectOf<PastVolatility>({
    volatility: nonNegativeNumberArrayCodec,
    average_volatility: nonNegativeNumberCodec,
  }),
  forecast_future: objectOf<FutureVolatility>({
    volatility: nullableNonNegativeNumberArrayCodec,
    average_volatility: nonNegativeNumberCodec,
  }),
});

/**
 * The `realized` part of a {@link VolatilityPercentilesRecord}.
 * @example const realized: RealizedPrices = { prices: [{ price: 64088, returns: null }] };
 */
export interface RealizedPrices {
  prices: RealizedPrice[];
}

/**
 * Percentiles of the model volatility per time step, past (backtested) and future.
 * @example
 * const record: VolatilityPercentilesRecord = {
 *   current_price: 64088,
 *   realized: { prices: [] },
 *   forecast_past: { percentiles: [] },
 *   forecast_future: { percentiles: [] },
 * };
 */
export interface VolatilityPercentilesRecord {
  /** Listed by the spec; optional like every `forecast_start_time` the live deployment omits. */
  forecast_start_time?: string;
  current_price: number;
  realized: RealizedPrices;
  forecast_past: PercentileSeries;
  forecast_future: PercentileSeries;
}

/**
 * Codec of {@link VolatilityPercentilesRecord}.
 * @example
 * volatilityPercentilesRecordCodec.decode(json, state).forecast_future.percentiles[0]["0.5"]
 */
export const volatilityPercentilesRecordCodec: Codec<VolatilityPercentilesRecord> =
  objectOf<VolatilityPercentilesRecord>({
    forecast_start_time: optional(timeCodec),
    current_price: positivePriceCodec,
    realized: objectOf<RealizedPrices>({ prices: arrayOf(realizedPriceCodec) }),
    forecast_past: volatilityPercentileSeriesCodec,
    forecast_future: volatilityPercentileSeriesCodec,
  });
