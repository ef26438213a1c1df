/** The insights operations (`/insights/*` without the venue comparisons). */
import { INSIGHT_ASSETS, OPTION_PRICING_ASSETS, type Horizon } from "../assets.ts";
import type { Codec } from "../decode.ts";
import { defineOperation } from "../define-operation.ts";
import { decodeWith } from "../decode.ts";
import type { Operation, Section } from "../operation.ts";
import { insightParamSpecs, type InsightParams } from "../params.ts";
import { liquidationRecordCodec } from "../records/liquidation.ts";
import { lpBoundsRecordCodec, lpProbabilitiesRecordCodec } from "../records/lp.ts";
import { optionPricingRecordCodec } from "../records/option-pricing.ts";
import { predictionPercentilesRecordCodec } from "../records/percentiles.ts";
import { volatilityPercentilesRecordCodec, volatilityRecordCodec } from "../records/volatility.ts";

/**
 * What differs between two insights operations (venue comparisons included).
 * @example const definition: InsightDefinition<"/insights/volatility", "BTC", VolatilityRecord> = { path: "/insights/volatility", section: "insights", method: "volatility", summary: "…", assets: ["BTC"], defaultHorizon: "24h", codec: volatilityRecordCodec };
 */
export interface InsightDefinition<Path extends string, Asset extends string, R> {
  readonly path: Path;
  readonly section: Extract<Section, "insights" | "venueA" | "venueB">;
  readonly method: string;
  readonly summary: string;
  readonly assets: readonly Asset[];
  readonly defaultHorizon: Horizon;
  readonly codec: Codec<R>;
}

/**
 * An insights operation: common parameters for the given assets and default horizon, API key
 * required, credits consumed, path shown by the spec.
 * @example
 * insightOperation({ path: "/insights/liquidation", section: "insights", method: "liquidation", summary: "…", assets: FULL_ASSETS, defaultHorizon: "24h", codec: liquidationRecordCodec })
 */
export function insightOperation<const Path extends string, const Asset extends string, R>(
  definition: InsightDefinition<Path, Asset, R>,
): Operation<Path, InsightParams<Asset>, R> {
  const { path, section, method, summary, assets, defaultHorizon, codec } = definition;
  return defineOperation<Path, InsightParams<Asset>, R>({
    path,
    section,
    method,
    summary,
    pathShown: true,
    auth: true,
    credits: true,
    params: insightParamSpecs(assets, defaultHorizon),
    ranges: [],
    decode: (json, context) => decodeWith(path, codec, json, context.naming),
    encode: (record, context) => codec.encode(record, context.naming),
  });
}

/**
 * The insights section of the operations table.
 * @example
 * insightOperations.liquidation.path // => "/insights/liquidation"
 */
export const insightOperations = {
  liquidation: insightOperation({
    path: "/insights/liquidation",
    section: "insights",
    method: "liquidation",
    summary: "Liquidation probabilities of long and short positions per price move and window",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    codec: liquidationRecordCodec,
  }),
  lpBounds: insightOperation({
    path: "/insights/lp-bounds",
    section: "insights",
    method: "lpBounds",
    summary: "LP price intervals with time in range, impermanent loss and stay probability",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    codec: lpBoundsRecordCodec,
  }),
  lpProbabilities: insightOperation({
    path: "/insights/lp-probabilities",
    section: "insights",
    method: "lpProbabilities",
    summary: "Probabilities that the price ends above or below 11 levels each",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    codec: lpProbabilitiesRecordCodec,
  }),
  optionPricing: insightOperation({
    path: "/insights/option-pricing",
    section: "insights",
    method: "optionPricing",
    summary: "Theoretical call and put prices per strike",
    assets: OPTION_PRICING_ASSETS,
    defaultHorizon: "24h",
    codec: optionPricingRecordCodec,
  }),
  volatility: insightOperation({
    path: "/insights/volatility",
    section: "insights",
    method: "volatility",
    summary: "Realized, backtested and forecast volatility (annualized %)",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    codec: volatilityRecordCodec,
  }),
  volatilityPercentiles: insightOperation({
    path: "/insights/volatility-percentiles",
    section: "insights",
    method: "volatilityPercentiles",
    summary: "Percentiles of the model volatility per time step, past and future",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    codec: volatilityPercentilesRecordCodec,
  }),
  predictionPercentiles: insightOperation({
    path: "/insights/prediction-percentiles",
    section: "insights",
    method: "predictionPercentiles",
    summary: "Percentiles of the predicted price per step (ensemble of the top 10 miners)",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    codec: predictionPercentilesRecordCodec,
  }),
  /**
   * The older name of `/insights/lp-probabilities` (spec, Versioning 4; its Endpoints row says
   * "listed as price-level probabilities"). Its response is not shown: pathlab decodes it as an LP
   * probabilities record, with the same assets and default horizon.
   */
  lpBoundsChart: insightOperation({
    path: "/insights/lp-bounds-chart",
    section: "insights",
    method: "lpBoundsChart",
    summary: "Older name of lp-probabilities (response not shown; decoded as LP probabilities)",
    assets: INSIGHT_ASSETS,
    defaultHorizon: "24h",
    codec: lpProbabilitiesRecordCodec,
  }),
} as const;
