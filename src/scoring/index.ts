/**
 * pathlab/scoring: the network's validator's scoring, to the bit: a miner's prompt CRPS under the
 * rules of a date, many miners of a prompt (`scoreMiners`, `ScoringThreads`), prompt scores,
 * smoothed scores and reward weights, and calibration (PIT, coverage, CRPS by step).
 *
 * The root entry `pathlab` re-exports what a user calls first.
 * @module pathlab/scoring
 */
export { scorePrompt } from "./scorePrompt.ts";
export type { PromptCrps, ScorePromptOptions } from "./scorePrompt.ts";
export { scoringIntervalsOf, competitionParameters, promptCrpsRules } from "./scoringTarget.ts";
export type { ScoringTarget, PromptCrpsRules, PromptCrpsRuleOptions } from "./scoringTarget.ts";
export { planPrompt, intervalKindOf } from "./promptPlan.ts";
export type {
  PromptPlan,
  PlannedInterval,
  PlannedVolatilityBlock,
  PromptShape,
} from "./promptPlan.ts";
export { promptCrpsOfValues } from "./promptCrpsOfValues.ts";
export type { PromptCrpsValue } from "./promptCrpsOfValues.ts";
export { volatilityCrpsOfValues, volatilityCrpsOfReturns } from "./volatilityCrpsOfValues.ts";
export { realizedPricesOf } from "./realizedPrices.ts";
export {
  promptScores,
  promptScoreRuleAt,
  CURRENT_PROMPT_SCORE_RULE_START_UNIX,
} from "./promptScores.ts";
export type { PromptScoreRule, PromptScores } from "./promptScores.ts";
export { smoothedScores } from "./smoothedScores.ts";
export { smoothedScoreHistory } from "./smoothedHistory.ts";
export type { SmoothedUpdate } from "./smoothedHistory.ts";
export type { ScoredPrompt, SmoothedScoreOptions } from "./smoothedScores.ts";
export { rewardWeights, combinedRewardWeights } from "./rewardWeights.ts";
export type { RewardWeightOptions, CombinedRewardWeights } from "./rewardWeights.ts";
export {
  promptCalibration,
  calibrationOfValues,
  COVERAGE_LEVELS,
  PIT_BINS,
} from "./promptCalibration.ts";
export type { PitTies, CalibrationOptions, PromptCalibration } from "./promptCalibration.ts";
export { CalibrationAccumulator, CalibrationAccumulators } from "./calibrationAccumulator.ts";
export type {
  CalibrationKey,
  CalibrationSummary,
  CoverageSummary,
} from "./calibrationAccumulator.ts";
export { scoreMiners } from "./scoreMiners.ts";
export type { MinerPromptScore, ScoreMinersOptions } from "./scoreMiners.ts";
export { ScoringThreads } from "./scoringThreads.ts";
