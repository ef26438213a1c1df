/**
 * pathlab/insights: the service's insights recomputed from an ensemble of paths, each value with its
 * Monte-Carlo standard error: `recompute` for any insight or venue record, `InsightSession` and
 * `prepareRecords` to share the per-path work of a set, `InsightThreads` for two threads, and the
 * venue comparisons' edge after fee and rounding.
 *
 * The root entry `pathlab` re-exports what a user calls first.
 * @module pathlab/insights
 */
export * from "./session.ts";
export * from "./prepareRecords.ts";
export * from "./insightThreads.ts";
export type { InsightContext, RangeMarket, VenueBContract, PreviousForecast } from "./context.ts";
export { standardErrorKey } from "./result.ts";
export type { QuantileEstimates } from "./quantileErrors.ts";
export type { InsightResult } from "./result.ts";
export * from "./probabilityError.ts";
export * from "./liquidation.ts";
export * from "./lpBounds.ts";
export * from "./lpProbabilities.ts";
export * from "./optionPricing.ts";
export * from "./predictionPercentiles.ts";
export * from "./volatility.ts";
export * from "./venueA.ts";
export * from "./venueB.ts";
export * from "./recompute.ts";
export * from "./contextFromServiceRecord.ts";
export * from "./marketState.ts";
export * from "./betweenMiners.ts";
export * from "./impliedVolatility.ts";
