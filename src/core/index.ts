/**
 * pathlab/core: the numeric kernels on Float64Array, hand-tuned and cross-checked against slow
 * reference implementations and numpy: the ensemble CRPS and the validator's interval sums, step
 * quantiles, touch and terminal probabilities, range statistics, volatilities, option prices.
 *
 * Use it for the numbers alone; it loads no native module. The root entry `pathlab` re-exports the
 * kernels a user calls first.
 * @module pathlab/core
 */
export * from "./intervals.ts";
export * from "./normalDistribution.ts";
export * from "./quantiles.ts";
export * from "./rankSelector.ts";
export * from "./sortFloat64.ts";
export * from "./transpose.ts";
export * from "./crps.ts";
export * from "./crpsParity.ts";
export * from "./crpsPrepared.ts";
export * from "./crpsWeighted.ts";
export * from "./crpsIntervals.ts";
export * from "./stderr.ts";
export { createTouchEstimates, touchProbabilities } from "./touchProbabilities.ts";
export type { TouchEstimates, TouchOptions } from "./touchProbabilities.ts";
export * from "./touchBridgeProbabilities.ts";
export * from "./terminalPrices.ts";
export * from "./terminalProbabilities.ts";
export * from "./optionPrices.ts";
export * from "./impermanentLoss.ts";
export * from "./rangeStatistics.ts";
export * from "./volatility.ts";
export * from "./blockVolatility.ts";
export * from "./pathBlockVolatilities.ts";
export * from "./sortedCounts.ts";
export * from "./ascendingOrder.ts";
