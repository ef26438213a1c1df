/**
 * The insight kinds as one registry keyed by operation path: every insights and venue comparison
 * operation of the spec, and what pathlab knows about each (`InsightKindDefinition`). The
 * operations table's insight and venue sections are derived from it, and every per-kind table
 * (the recomputation, the sandbox's builders) is typed against it, so that the compiler names a
 * kind a table forgets; the lists and lookups derived from it are in `insightKindLists.ts`.
 * Adding a kind: `docs/architecture.md`, "Adding an insight kind".
 *
 * Over 300 lines because it is one table: a kind is one entry, read in one place.
 */

import {
  ABOVE_ASSETS,
  HIT_ASSETS,
  HORIZONS,
  INSIGHT_ASSETS,
  OPTION_PRICING_ASSETS,
  RANGE_ASSETS,
  UP_DOWN_FIFTEEN_MINUTE_ASSETS,
  UP_DOWN_INTRADAY_ASSETS,
  VENUE_B_DAILY_ASSETS,
  VENUE_B_FIFTEEN_MINUTE_ASSETS,
  VENUE_B_HOURLY_ASSETS,
} from "./assets.ts";
import { arrayOf } from "./decode.ts";
import { defineInsightKinds, type RecordFields } from "./insightKind.ts";
import { PERCENTILE_PRICE_DECIMALS, VOLATILITY_DECIMALS } from "./insightConventions.ts";
import { liquidationRecordCodec, liquidationScenarioKey } from "./records/liquidation.ts";
import { lpBoundsEntryKey, lpBoundsRecordCodec, lpProbabilitiesRecordCodec } from "./records/lp.ts";
import { optionPricingRecordCodec } from "./records/option-pricing.ts";
import { predictionPercentilesRecordCodec } from "./records/percentiles.ts";
import {
  earlierRangeRecordCodec,
  rangeComparisonsCodec,
  rangeMarketKey,
  upDownComparisonRecordCodec,
} from "./records/venue-a.ts";
import { venueBComparisonsCodec, venueBContractKey } from "./records/venue-b.ts";
import { volatilityPercentilesRecordCodec, volatilityRecordCodec } from "./records/volatility.ts";

// The record type of each kind, exported with the registry (`pathlab/domain` exports this module):
// a kind's record and its entry are added together, here.
export type { LiquidationRecord, LiquidationScenario } from "./records/liquidation.ts";
export type {
  LpBoundsRecord,
  LpBoundsEntry,
  LpInterval,
  LpProbabilitiesRecord,
  LpProbabilityLevels,
} from "./records/lp.ts";
export type { OptionPricingRecord } from "./records/option-pricing.ts";
export type {
  PercentileKey,
  Percentiles,
  PercentileSeries,
  PredictionPercentilesRecord,
} from "./records/percentiles.ts";
export type {
  UpDownComparisonRecord,
  RangeComparisonRecord,
  EarlierRangeRecord,
} from "./records/venue-a.ts";
export type { VenueBComparisonRecord } from "./records/venue-b.ts";
export type {
  VolatilityRecord,
  VolatilityPercentilesRecord,
  RealizedPrice,
  RealizedVolatility,
  PastVolatility,
  FutureVolatility,
  RealizedPrices,
} from "./records/volatility.ts";

/** The live deployment's insight records leave out their start (the prediction percentiles keep it). */
const WITHOUT_START = ["forecast_start_time"] as const;
/** Live venue A up-down records also leave out the compatibility fields. */
const UP_DOWN_OMITTED = [...WITHOUT_START, "market_probability_up", "market_outcome"] as const;
/** The 15- and 5-minute ones also their event's creation time. */
const INTRADAY_UP_DOWN_OMITTED = [...UP_DOWN_OMITTED, "event_creation_time"] as const;

const VOLATILITY_FIELDS: RecordFields = {
  rounded: { fields: /(?:volatility\[\]|percentiles\[\]\{\})$/, decimals: VOLATILITY_DECIMALS },
};
const RANGE_FAMILY_FIELDS: RecordFields = { elementKeys: { "[]": rangeMarketKey } };
const VENUE_B_FIELDS: RecordFields = { elementKeys: { "[]": venueBContractKey } };

/**
 * Every insight kind, by the spec's path (neutral words), in the order of the operations table.
 * @example INSIGHT_KINDS["/insights/lp-bounds"].lakeCode // => 4
 * @example INSIGHT_KINDS["/insights/venueb/hourly"].syncHorizons // => ["1h"]
 */
export const INSIGHT_KINDS = defineInsightKinds({
  "/insights/liquidation": {
    family: "insights",
    method: "liquidation",
    summary: "Liquidation probabilities of long and short positions per price move and window",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    syncHorizons: HORIZONS,
    codec: liquidationRecordCodec,
    recomputed: true,
    lakeCode: 3,
    inputs: [],
    liveOmittedFields: WITHOUT_START,
    fields: { elementKeys: { "data[]": liquidationScenarioKey } },
    audit: { savedFile: "liquidation/{asset}.json", snapshotKey: "liquidation" },
  },
  "/insights/lp-bounds": {
    family: "insights",
    method: "lpBounds",
    summary: "LP price intervals with time in range, impermanent loss and stay probability",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    syncHorizons: HORIZONS,
    codec: lpBoundsRecordCodec,
    recomputed: true,
    lakeCode: 4,
    inputs: [],
    liveOmittedFields: WITHOUT_START,
    fields: { elementKeys: { "data[]": lpBoundsEntryKey } },
    audit: { savedFile: "lp_bounds/{asset}.json", snapshotKey: "lpBounds" },
  },
  "/insights/lp-probabilities": {
    family: "insights",
    method: "lpProbabilities",
    summary: "Probabilities that the price ends above or below 11 levels each",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    syncHorizons: HORIZONS,
    codec: lpProbabilitiesRecordCodec,
    recomputed: true,
    lakeCode: 6,
    inputs: [],
    liveOmittedFields: WITHOUT_START,
    fields: {},
    audit: { savedFile: "lp_probabilities/{asset}.json", snapshotKey: "lpProbabilities" },
  },
  "/insights/option-pricing": {
    family: "insights",
    method: "optionPricing",
    summary: "Theoretical call and put prices per strike",
    assets: OPTION_PRICING_ASSETS,
    defaultHorizon: "24h",
    syncHorizons: HORIZONS,
    codec: optionPricingRecordCodec,
    recomputed: true,
    lakeCode: 7,
    inputs: [],
    liveOmittedFields: WITHOUT_START,
    fields: {},
    audit: { savedFile: "option_pricing/{asset}.json", snapshotKey: "options" },
  },
  "/insights/volatility": {
    family: "insights",
    method: "volatility",
    summary: "Realized, backtested and forecast volatility (annualized %)",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    syncHorizons: HORIZONS,
    codec: volatilityRecordCodec,
    recomputed: true,
    lakeCode: 1,
    inputs: ["previous-prompt"],
    liveOmittedFields: WITHOUT_START,
    fields: VOLATILITY_FIELDS,
  },
  "/insights/volatility-percentiles": {
    family: "insights",
    method: "volatilityPercentiles",
    summary: "Percentiles of the model volatility per time step, past and future",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    syncHorizons: HORIZONS,
    codec: volatilityPercentilesRecordCodec,
    recomputed: true,
    lakeCode: 2,
    inputs: ["previous-prompt"],
    liveOmittedFields: WITHOUT_START,
    fields: VOLATILITY_FIELDS,
  },
  "/insights/prediction-percentiles": {
    family: "insights",
    method: "predictionPercentiles",
    summary: "Percentiles of the predicted price per step (ensemble of the top 10 miners)",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    syncHorizons: HORIZONS,
    codec: predictionPercentilesRecordCodec,
    recomputed: true,
    lakeCode: 0,
    inputs: [],
    liveOmittedFields: [],
    fields: { rounded: { fields: /percentiles\[\]\{\}$/, decimals: PERCENTILE_PRICE_DECIMALS } },
    audit: {
      savedFile: "prediction_percentiles/{asset}_24h.json",
      snapshotKey: "percentiles",
    },
  },
  /**
   * The older name of `/insights/lp-probabilities` (spec, Versioning 4; its Endpoints row says
   * "listed as price-level probabilities"). Its response is not shown: pathlab decodes it as an LP
   * probabilities record, with the same assets and default horizon.
   */
  "/insights/lp-bounds-chart": {
    family: "insights",
    method: "lpBoundsChart",
    summary: "Older name of lp-probabilities (response not shown; decoded as LP probabilities)",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    syncHorizons: HORIZONS,
    codec: lpProbabilitiesRecordCodec,
    recomputed: true,
    lakeCode: 5,
    inputs: [],
    liveOmittedFields: WITHOUT_START,
    fields: {},
  },
  "/insights/venuea/up-down/daily": {
    family: "venueA",
    method: "upDownDaily",
    summary: "Up/Down comparison for the daily contract resolving at the end of the UTC day",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    syncHorizons: ["24h"],
    codec: upDownComparisonRecordCodec,
    recomputed: true,
    lakeCode: 8,
    inputs: [],
    liveOmittedFields: UP_DOWN_OMITTED,
    fields: {},
  },
  "/insights/venuea/up-down/hourly": {
    family: "venueA",
    method: "upDownHourly",
    summary: "Up/Down comparison for the hourly contract",
    assets: UP_DOWN_INTRADAY_ASSETS,
    defaultHorizon: "1h",
    syncHorizons: ["1h"],
    codec: upDownComparisonRecordCodec,
    recomputed: true,
    lakeCode: 9,
    inputs: [],
    liveOmittedFields: UP_DOWN_OMITTED,
    fields: {},
  },
  "/insights/venuea/up-down/15min": {
    family: "venueA",
    method: "upDownFifteenMinute",
    summary: "Up/Down comparison for the 15-minute contract",
    assets: UP_DOWN_FIFTEEN_MINUTE_ASSETS,
    defaultHorizon: "1h",
    syncHorizons: ["1h"],
    codec: upDownComparisonRecordCodec,
    recomputed: true,
    lakeCode: 10,
    inputs: [],
    liveOmittedFields: INTRADAY_UP_DOWN_OMITTED,
    fields: {},
  },
  "/insights/venuea/up-down/5min": {
    family: "venueA",
    method: "upDownFiveMinute",
    summary: "Up/Down comparison for the 5-minute contract",
    assets: UP_DOWN_INTRADAY_ASSETS,
    defaultHorizon: "1h",
    syncHorizons: ["1h"],
    codec: upDownComparisonRecordCodec,
    recomputed: true,
    lakeCode: 11,
    inputs: [],
    liveOmittedFields: INTRADAY_UP_DOWN_OMITTED,
    fields: {},
  },
  "/insights/venuea/range": {
    family: "venueA",
    method: "range",
    summary: "Earlier form of the range comparison: title, bounds and both probabilities",
    assets: RANGE_ASSETS,
    defaultHorizon: "24h",
    syncHorizons: ["24h"],
    codec: arrayOf(earlierRangeRecordCodec),
    recomputed: true,
    lakeCode: 12,
    inputs: ["range-markets"],
    liveOmittedFields: WITHOUT_START,
    fields: RANGE_FAMILY_FIELDS,
  },
  "/insights/venuea/range/daily": {
    family: "venueA",
    method: "rangeDaily",
    summary: "Range-family comparisons, one per active market of the asset",
    assets: RANGE_ASSETS,
    defaultHorizon: "24h",
    syncHorizons: ["24h"],
    codec: rangeComparisonsCodec(),
    recomputed: true,
    lakeCode: 13,
    inputs: ["range-markets"],
    liveOmittedFields: WITHOUT_START,
    fields: RANGE_FAMILY_FIELDS,
  },
  "/insights/venuea/above/daily": {
    family: "venueA",
    method: "aboveDaily",
    summary: "Above-threshold comparisons (cmp_type always above)",
    assets: ABOVE_ASSETS,
    defaultHorizon: "24h",
    syncHorizons: ["24h"],
    codec: rangeComparisonsCodec("above"),
    recomputed: true,
    lakeCode: 14,
    inputs: ["range-markets"],
    liveOmittedFields: WITHOUT_START,
    fields: RANGE_FAMILY_FIELDS,
  },
  "/insights/venuea/hit/daily": {
    family: "venueA",
    method: "hitDaily",
    summary: "Hit-level comparisons (cmp_type always hit: YES if the level is touched)",
    assets: HIT_ASSETS,
    defaultHorizon: "24h",
    syncHorizons: ["24h"],
    codec: rangeComparisonsCodec("hit"),
    recomputed: true,
    lakeCode: 15,
    inputs: ["range-markets"],
    liveOmittedFields: WITHOUT_START,
    fields: RANGE_FAMILY_FIELDS,
  },
  "/insights/venueb/daily": {
    family: "venueB",
    method: "daily",
    summary: "Venue B comparisons for the daily markets",
    assets: VENUE_B_DAILY_ASSETS,
    defaultHorizon: "24h",
    syncHorizons: ["24h"],
    codec: venueBComparisonsCodec,
    recomputed: true,
    lakeCode: 16,
    inputs: [],
    liveOmittedFields: [],
    fields: VENUE_B_FIELDS,
  },
  "/insights/venueb/hourly": {
    family: "venueB",
    method: "hourly",
    summary: "Venue B comparisons for the hourly contracts at several strikes",
    assets: VENUE_B_HOURLY_ASSETS,
    defaultHorizon: "1h",
    syncHorizons: ["1h"],
    codec: venueBComparisonsCodec,
    recomputed: true,
    lakeCode: 17,
    inputs: [],
    liveOmittedFields: [],
    fields: VENUE_B_FIELDS,
  },
  "/insights/venueb/15min": {
    family: "venueB",
    method: "fifteenMinute",
    summary: "Venue B comparisons for the 15-minute contracts",
    assets: VENUE_B_FIFTEEN_MINUTE_ASSETS,
    defaultHorizon: "1h",
    syncHorizons: ["1h"],
    codec: venueBComparisonsCodec,
    recomputed: true,
    lakeCode: 18,
    inputs: [],
    liveOmittedFields: [],
    fields: VENUE_B_FIELDS,
  },
});

/** The type of {@link INSIGHT_KINDS}. @example type Bounds = InsightKinds["/insights/lp-bounds"]; */
export type InsightKinds = typeof INSIGHT_KINDS;

/**
 * The path of an insight kind (an insights or venue comparison operation).
 * @example const path: InsightPath = "/insights/venueb/15min";
 */
export type InsightPath = keyof InsightKinds;

/**
 * The path of a kind pathlab recomputes (`recomputed: true`).
 * @example const path: RecomputedInsightPath = "/insights/lp-bounds";
 */
export type RecomputedInsightPath = {
  [Path in InsightPath]: InsightKinds[Path]["recomputed"] extends true ? Path : never;
}[InsightPath];

/**
 * The windows of the venue B comparisons, read from the registry's paths
 * (`/insights/venueb/<window>`): a window is added by its entry.
 * @example const window: VenueBWindow = "15min";
 */
export type VenueBWindow = {
  [Path in InsightPath]: Path extends `/insights/venueb/${infer Window}`
    ? Window extends `${string}/${string}`
      ? never
      : Window
    : never;
}[InsightPath];

/**
 * A table with one entry per insight kind: the type a per-kind table satisfies, so that the
 * compiler names a kind it leaves out (and a key that is no kind).
 * @example const codes = { … } satisfies InsightKindTable<number>;
 */
export type InsightKindTable<Value> = { readonly [Path in InsightPath]: Value };

/**
 * A table with one entry per recomputed kind (see {@link InsightKindTable}).
 * @example const recomputers = { … } satisfies RecomputedKindTable<Recomputer>;
 */
export type RecomputedKindTable<Value> = { readonly [Path in RecomputedInsightPath]: Value };
