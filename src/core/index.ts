/**
 * pathlab/core: the numeric kernels on Float64Array, hand-tuned and cross-checked against slow
 * reference implementations and numpy: the ensemble CRPS and the validator's interval sums, step
 * quantiles, touch and terminal probabilities, range statistics, volatilities, option prices.
 *
 * Use it for the numbers alone; it loads no native module. The root entry `pathlab` re-exports the
 * kernels a user calls first.
 * @module pathlab/core
 */
export {
  PERCENTILE_PROBABILITIES,
  quantileSorted,
  quantilesSorted,
  stepQuantiles,
} from "./quantiles.ts";
export { RankSelector } from "./rankSelector.ts";
export { sortFloat64 } from "./sortFloat64.ts";
export { transpose } from "./transpose.ts";
export { crpsEnsemble, crpsEnsembleSorted } from "./crps.ts";
export type { CrpsMethod } from "./crps.ts";
export { crpsParitySorted } from "./crpsParity.ts";
export { CrpsPrepared } from "./crpsPrepared.ts";
export { crpsEnsembleWeighted } from "./crpsWeighted.ts";
export {
  intervalTermCount,
  intervalChanges,
  crpsIntervalTerms,
  crpsIntervalSum,
} from "./crpsIntervals.ts";
export type { IntervalKind, CrpsIntervalOptions } from "./crpsIntervals.ts";
export { createEstimates, probabilityStandardError, meanStandardErrorFromSums } from "./stderr.ts";
export type { Estimates } from "./stderr.ts";
export { createTouchEstimates, touchProbabilities } from "./touchProbabilities.ts";
export type { TouchEstimates } from "./touchProbabilities.ts";
export { touchBridgeProbabilities } from "./touchBridgeProbabilities.ts";
export { terminalPrices } from "./terminalPrices.ts";
export {
  createTerminalEstimates,
  terminalProbabilitiesSorted,
  terminalBetweenSorted,
} from "./terminalProbabilities.ts";
export type { TerminalEstimates } from "./terminalProbabilities.ts";
export { createOptionEstimates, optionPricesSorted } from "./optionPrices.ts";
export type { OptionEstimates } from "./optionPrices.ts";
export { impermanentLoss } from "./impermanentLoss.ts";
export { createRangeEstimates, rangeStatistics } from "./rangeStatistics.ts";
export type { RangeEstimates } from "./rangeStatistics.ts";
export {
  logReturn,
  realizedVolatility,
  realizedEntryVolatilities,
  forecastVolatility,
  pooledLogReturnVariance,
} from "./volatility.ts";
export { blockVolatilities } from "./blockVolatility.ts";
export { pathBlockVolatilities } from "./pathBlockVolatilities.ts";
export { countBelowSorted, countAtMostSorted, allFiniteSorted } from "./sortedCounts.ts";
export { ascendingOrder, ascendingLevels } from "./ascendingOrder.ts";
