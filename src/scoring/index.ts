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
export * from "./scoringTarget.ts";
export * from "./promptPlan.ts";
export * from "./promptCrpsOfValues.ts";
export * from "./volatilityCrpsOfValues.ts";
export { realizedPricesOf } from "./realizedPrices.ts";
export {
  promptScores,
  promptScoreRuleAt,
  CURRENT_PROMPT_SCORE_RULE_START_UNIX,
} from "./promptScores.ts";
export type { PromptScoreRule, PromptScores } from "./promptScores.ts";
export * from "./smoothedScores.ts";
export * from "./smoothedHistory.ts";
export * from "./rewardWeights.ts";
export {
  promptCalibration,
  calibrationOfValues,
  COVERAGE_LEVELS,
  PIT_BINS,
} from "./promptCalibration.ts";
export type {
  PitTies,
  CalibrationOptions,
  CalibrationOfValuesOptions,
  PromptCalibration,
} from "./promptCalibration.ts";
export * from "./calibrationAccumulator.ts";
export { scoreMiners } from "./scoreMiners.ts";
export type { MinerPromptScore, ScoreMinersOptions } from "./scoreMiners.ts";
export * from "./scoringThreads.ts";
