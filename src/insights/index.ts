/**
 * pathlab/insights: the service's insights recomputed from an ensemble of paths, each value with its
 * Monte-Carlo standard error: `recompute` for any insight or venue record, `InsightSession` and
 * `prepareRecords` to share the per-path work of a set, `InsightThreads` for two threads, and the
 * venue comparisons' edge after fee and rounding.
 *
 * The root entry `pathlab` re-exports what a user calls first.
 * @module pathlab/insights
 */
export { InsightSession, insightSessionFor } from "./session.ts";
export type { InsightSessionOptions } from "./session.ts";
export { prepareRecords } from "./prepareRecords.ts";
export { InsightThreads } from "./insightThreads.ts";
export type { InsightContext, RangeMarket, VenueBContract, PreviousForecast } from "./context.ts";
export { standardErrorKey } from "./result.ts";
export type { QuantileEstimates } from "./quantileErrors.ts";
export type { InsightResult } from "./result.ts";
export { probabilityError } from "./probabilityError.ts";
export { liquidationInsight } from "./liquidation.ts";
export { lpBoundsInsight } from "./lpBounds.ts";
export { lpProbabilitiesInsight } from "./lpProbabilities.ts";
export { optionPricingInsight } from "./optionPricing.ts";
export { predictionPercentilesInsight } from "./predictionPercentiles.ts";
export { volatilityInsight, volatilityPercentilesInsight } from "./volatility.ts";
export { upDownModelSide, rangeModelSides, earlierRangeModelSides } from "./venueA.ts";
export type { UpDownModelSide, RangeModelSide, EarlierRangeModelSide } from "./venueA.ts";
export { venueBModelSides } from "./venueB.ts";
export type { VenueBModelSide, VenueBWindow } from "./venueB.ts";
export { recompute, RECOMPUTABLE_PATHS } from "./recompute.ts";
export type { RecomputedRecords, RecomputablePath } from "./recompute.ts";
export { contextFromServiceRecord } from "./contextFromServiceRecord.ts";
export {
  DECIDED_Z,
  PRICE_ROUNDING,
  marketDecided,
  minuteLogVolatility,
  tradableEdge,
  venueFee,
} from "./marketState.ts";
export type { MarketSnapshot } from "./marketState.ts";
