/**
 * Percentile objects (the nine keys of the spec) and the prediction percentiles record of
 * `/insights/prediction-percentiles`.
 */
import {
  arrayOf,
  nonNegativeNumberCodec,
  objectOf,
  positivePriceCodec,
  type Codec,
  type FieldCodecs,
} from "../decode.ts";

/**
 * The percentile keys of percentile records, exactly as the spec writes them.
 * @example
 * PERCENTILE_KEYS[4] // => "0.5"
 */
export const PERCENTILE_KEYS = [
  "0.005",
  "0.05",
  "0.2",
  "0.35",
  "0.5",
  "0.65",
  "0.8",
  "0.95",
  "0.995",
] as const;

/** One of {@link PERCENTILE_KEYS}. @example const median: PercentileKey = "0.5"; */
export type PercentileKey = (typeof PERCENTILE_KEYS)[number];

/**
 * One time step: a value for each of the nine percentile keys (all nine are required).
 * @example
 * const step: Percentiles = { "0.005": 1, "0.05": 2, "0.2": 3, "0.35": 4, "0.5": 5, "0.65": 6, "0.8": 7, "0.95": 8, "0.995": 9 };
 */
export type Percentiles = Record<PercentileKey, number>;

/** Percentile objects whose nine values each pass `value`. */
function percentilesOf(value: Codec<number>): Codec<Percentiles> {
  return objectOf<Percentiles>(
    Object.fromEntries(PERCENTILE_KEYS.map((key) => [key, value])) as FieldCodecs<Percentiles>,
  );
}

/**
 * Codec of {@link Percentiles} of prices: an object with the nine keys, finite prices > 0.
 * @example
 * percentilesCodec.decode(step, state)["0.5"] // => 5
 */
export const percentilesCodec: Codec<Percentiles> = percentilesOf(positivePriceCodec);

/**
 * A series of percentile objects: `forecast_future` of a {@link PredictionPercentilesRecord}, and
 * `forecast_past`/`forecast_future` of a volatility percentiles record.
 * @example const medians = series.percentiles.map((step) => step["0.5"]);
 */
export interface PercentileSeries {
  /** One object per time step (5-minute steps for 24h, 1-minute for 1h); step 0 is the current price. */
  percentiles: Percentiles[];
}

/**
 * Percentiles of the predicted price at each step, from the ensemble of the top 10 miners.
 * @example
 * const record: PredictionPercentilesRecord = { current_price: 67676.6, forecast_future: { percentiles: [] } };
 */
export interface PredictionPercentilesRecord {
  current_price: number;
  forecast_future: PercentileSeries;
}

/**
 * Codec of {@link PercentileSeries}.
 * @example
 * percentileSeriesCodec.decode({ percentiles: [] }, state) // => { percentiles: [] }
 */
export const percentileSeriesCodec: Codec<PercentileSeries> = objectOf<PercentileSeries>({
  percentiles: arrayOf(percentilesCodec),
});

/**
 * Codec of a {@link PercentileSeries} of volatilities (`forecast_past`/`forecast_future` of a
 * volatility percentiles record): finite numbers ≥ 0.
 * @example
 * volatilityPercentileSeriesCodec.decode({ percentiles: [] }, state) // => { percentiles: [] }
 */
export const volatilityPercentileSeriesCodec: Codec<PercentileSeries> = objectOf<PercentileSeries>({
  percentiles: arrayOf(percentilesOf(nonNegativeNumberCodec)),
});

/**
 * Codec of {@link PredictionPercentilesRecord}.
 * @example
 * predictionPercentilesRecordCodec.decode(json, state).forecast_future.percentiles.length // => 289
 */
export const predictionPercentilesRecordCodec: Codec<PredictionPercentilesRecord> =
  objectOf<PredictionPercentilesRecord>({
    current_price: positivePriceCodec,
    forecast_future: percentileSeriesCodec,
  });
