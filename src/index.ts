/**
 * pathlab: a local-first analytics engine for probabilistic price forecasts.
 *
 * The public API, grouped by layer (DESIGN.md §1). Explicit named exports only.
 * @packageDocumentation
 */

// ── spec: the interface as code ─────────────────────────────────────────────────────────────
export type {
  Section,
  ParamType,
  ParamSpec,
  RangeRule,
  Naming,
  CodecContext,
  Operation,
  ParamsOf,
  ResultOf,
} from "./spec/operation.ts";
export { DecodeError, InvalidParamsError } from "./spec/errors.ts";
export {
  FULL_ASSETS,
  OPT_ASSETS,
  ASSET_REMAP,
  CROSS_LISTED_ASSETS,
  canonicalAsset,
  INSIGHT_ASSETS,
  OPTION_PRICING_ASSETS,
  UP_DOWN_INTRADAY_ASSETS,
  UP_DOWN_FIFTEEN_MINUTE_ASSETS,
  RANGE_ASSETS,
  ABOVE_ASSETS,
  HIT_ASSETS,
  VENUE_B_DAILY_ASSETS,
  VENUE_B_HOURLY_ASSETS,
  VENUE_B_FIFTEEN_MINUTE_ASSETS,
  PREDICTION_ASSETS,
  VALIDATION_ASSETS,
  HORIZONS,
  COMPETITIONS,
  LEGACY_PROMPT_NAMES,
  PROMPT_NAMES,
  canonicalCompetition,
  COMPETITION_ASSETS,
  COMPETITION_HORIZONS,
} from "./spec/assets.ts";
export type {
  FullAsset,
  OptAsset,
  RemappedAsset,
  CrossListedAsset,
  InsightAsset,
  OptionPricingAsset,
  UpDownIntradayAsset,
  UpDownFifteenMinuteAsset,
  RangeAsset,
  AboveAsset,
  HitAsset,
  VenueBDailyAsset,
  VenueBHourlyAsset,
  VenueBFifteenMinuteAsset,
  PredictionAsset,
  ValidationAsset,
  Horizon,
  Competition,
  LegacyPromptName,
  PromptName,
} from "./spec/assets.ts";
export { SCORING_INTERVALS_24H, SCORING_INTERVALS_1H } from "./spec/intervals.ts";
export { ASSET_COEFFICIENTS, assetCoefficient } from "./spec/assetCoefficients.ts";
export {
  competitionsAt,
  CURRENT_COMPETITIONS,
  TWO_COMPETITIONS,
  THREE_COMPETITIONS_START_UNIX,
} from "./spec/competitions.ts";
export type { CompetitionName, CompetitionParameters } from "./spec/competitions.ts";
export {
  neutralNaming,
  liveNaming,
  wirePath,
  wireFieldName,
  neutralFieldName,
} from "./spec/naming.ts";
export { parseIsoTimeMs, ISO_TIME_EXPECTED } from "./spec/time.ts";
export type { LiquidationRecord, LiquidationScenario } from "./spec/records/liquidation.ts";
export type {
  LpBoundsRecord,
  LpBoundsEntry,
  LpInterval,
  LpProbabilitiesRecord,
  LpProbabilityLevels,
} from "./spec/records/lp.ts";
export type { OptionPricingRecord } from "./spec/records/option-pricing.ts";
export type {
  VolatilityRecord,
  VolatilityPercentilesRecord,
  RealizedPrice,
  RealizedVolatility,
  PastVolatility,
  FutureVolatility,
  RealizedPrices,
} from "./spec/records/volatility.ts";
export { PERCENTILE_KEYS } from "./spec/records/percentiles.ts";
export type {
  PercentileKey,
  Percentiles,
  PercentileSeries,
  PredictionPercentilesRecord,
} from "./spec/records/percentiles.ts";
export { REF_PRICE_COUNTS } from "./spec/records/outcomes.ts";
export type { UpDownOutcome, BinaryOutcome, ComparisonType } from "./spec/records/outcomes.ts";
export type {
  UpDownComparisonRecord,
  RangeComparisonRecord,
  EarlierRangeRecord,
} from "./spec/records/venue-a.ts";
export type { VenueBComparisonRecord } from "./spec/records/venue-b.ts";
export type { PredictionSet } from "./spec/records/prediction-set.ts";
export type { LeaderboardV1Row, LeaderboardV2Row } from "./spec/records/leaderboard.ts";
export type {
  MinerValidation,
  ScoreRow,
  UidHolderRow,
  SmoothedScoreRow,
  PromptList,
  RealizedPath,
  MultiAssetMinuteRow,
} from "./spec/records/validation.ts";
export type {
  TimeParam,
  TimeIncrement,
  TimeLength,
  NoParams,
  InsightParams,
  PredictionParams,
  PredictionLatestParams,
  PredictionHistoricalParams,
  MetamodelHistoricalParams,
  TimeWindowParams,
  LeaderboardParams,
  LeaderboardHistoricalParams,
  MetaLeaderboardParams,
  MetaLeaderboardHistoricalParams,
  MinerValidationParams,
  ScoresLatestParams,
  ScoresHistoricalParams,
  UidHoldersParams,
  SmoothedScoresParams,
  PromptsParams,
  RealizedPathParams,
  MultiAssetMinutesParams,
} from "./spec/params.ts";
export { DEFAULT_PATHS } from "./spec/default-paths.ts";
export { operationTable, operations, operationByPath } from "./spec/operations.ts";
export type {
  OperationTable,
  AnyOperation,
  OperationPath,
  OperationsByPath,
} from "./spec/operations.ts";
export { encodeQuery } from "./spec/query.ts";
export type { QueryParamsOf, QueryTarget } from "./spec/query.ts";
export { decode, encode } from "./spec/codec.ts";
export type { CodecOptions, DecodedResponse } from "./spec/codec.ts";

export {
  ENSEMBLE_SIZE,
  ENSEMBLE_DAYS,
  DEFAULT_REBASE,
  rebasePrice,
  HORIZON_LAYOUTS,
  stepOfTime,
  roundTo,
  PROBABILITY_DECIMALS,
  PERCENTILE_PRICE_DECIMALS,
  VOLATILITY_DECIMALS,
  TIME_IN_INTERVAL_DECIMALS,
  priceKey,
  LIQUIDATION_SCENARIOS,
  liquidationLevels,
  LIQUIDATION_WINDOWS,
  liquidationWindowSteps,
  DEFAULT_TOUCH_ESTIMATE,
  LP_WIDTHS,
  lpBounds,
  LP_STAY_KEYS,
  DEFAULT_TIME_IN_INTERVAL_UNIT,
  timeInIntervalIn,
  LP_LEVEL_COUNT,
  lpLevels,
  LP_PROBABILITY_KEYS,
  OPTION_EXPIRY_HOUR_UTC,
  nextExpiryUnix,
  STRIKE_GRID_RULES,
  niceStep,
  strikeGridRule,
  strikeGrid,
  MINUTES_PER_YEAR,
  annualizeVolatility,
  VOLATILITY_LAYOUTS,
  volatilityBlockSteps,
  realizedWindowMinutes,
  realizedVolatilityMinutes,
  VENUE_WINDOW_SECONDS,
  DAILY_EVENT_HOUR_UTC,
  VENUE_WINDOW_HORIZONS,
  venueEventWindow,
  MODEL_OUTCOME_THRESHOLD,
  upDownOutcomeOf,
  binaryOutcomeOf,
  hitDirection,
} from "./spec/insightConventions.ts";
export type {
  RebaseOption,
  HorizonLayout,
  PercentStep,
  LiquidationWindow,
  TouchEstimate,
  TimeInIntervalUnit,
  StrikeGridRule,
  VolatilityLayout,
  VenueWindow,
} from "./spec/insightConventions.ts";

// ── client: the typed HTTP client ───────────────────────────────────────────────────────────
export { createClient } from "./client/create-client.ts";
export type { ClientOptions } from "./client/options.ts";
export type {
  PathlabClient,
  ClientSections,
  SectionMethods,
  OperationMethod,
  ParamsArguments,
} from "./client/pathlab-client.ts";
export type {
  ClientEvent,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
  FailureEvent,
} from "./client/events.ts";
export {
  PathlabHttpError,
  BadRequestError,
  AuthenticationError,
  MissingApiKeyError,
  PaymentRequiredError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ConnectionError,
  ResponseDecodeError,
} from "./client/errors.ts";
export type { PathlabHttpErrorDetails, TimeoutPhase, DecodeFailureKind } from "./client/errors.ts";
export { shouldRetry, retryDelayMs, parseRetryAfterMs } from "./client/retry.ts";
export type { RetryDelayOptions } from "./client/retry.ts";
export { readRateLimit, readCredits } from "./client/quota-headers.ts";
export type { RateLimitState, CreditState, ResponseHeaders } from "./client/quota-headers.ts";
export { redact, redactSecrets, redactError, redactedMark } from "./client/redact.ts";

// ── paths: path sets and ensembles as Float64Array-backed Arrow tables ──────────────────────
export type { PathSet, PathSetAllocation } from "./paths/pathSet.ts";
export { allocateValues } from "./paths/pathSet.ts";
export { PathSetError } from "./paths/pathSetError.ts";
export type { PathSetProblem } from "./paths/pathSetError.ts";
export { pathSetFromPrediction } from "./paths/fromPrediction.ts";
export type { PredictionPrompt } from "./paths/fromPrediction.ts";
export { toArrowTable, pathSetFromArrow, float64ValuesOf } from "./paths/arrow.ts";
export type { ArrowPathSetMeta } from "./paths/arrow.ts";
export { Ensemble, ensembleOf } from "./paths/ensemble.ts";
export type { EnsembleMember, EnsembleOptions, RebaseMode } from "./paths/ensemble.ts";

// ── core: hand-tuned kernels on Float64Array ────────────────────────────────────────────────
export {
  PERCENTILE_PROBABILITIES,
  quantileSorted,
  quantilesSorted,
  stepQuantiles,
} from "./core/quantiles.ts";
export { RankSelector } from "./core/rankSelector.ts";
export { sortFloat64 } from "./core/sortFloat64.ts";
export { transpose } from "./core/transpose.ts";
export { crpsEnsemble, crpsEnsembleSorted } from "./core/crps.ts";
export type { CrpsMethod } from "./core/crps.ts";
export { crpsParitySorted } from "./core/crpsParity.ts";
export { CrpsPrepared } from "./core/crpsPrepared.ts";
export { crpsEnsembleWeighted } from "./core/crpsWeighted.ts";
export {
  intervalTermCount,
  intervalChanges,
  crpsIntervalTerms,
  crpsIntervalSum,
} from "./core/crpsIntervals.ts";
export type { IntervalKind, CrpsIntervalOptions } from "./core/crpsIntervals.ts";
export {
  createEstimates,
  probabilityStandardError,
  meanStandardErrorFromSums,
} from "./core/stderr.ts";
export type { Estimates } from "./core/stderr.ts";
export { createTouchEstimates, touchProbabilities } from "./core/touchProbabilities.ts";
export type { TouchEstimates } from "./core/touchProbabilities.ts";
export { touchBridgeProbabilities } from "./core/touchBridgeProbabilities.ts";
export { terminalPrices } from "./core/terminalPrices.ts";
export {
  createTerminalEstimates,
  terminalProbabilitiesSorted,
  terminalBetweenSorted,
} from "./core/terminalProbabilities.ts";
export type { TerminalEstimates } from "./core/terminalProbabilities.ts";
export { createOptionEstimates, optionPricesSorted } from "./core/optionPrices.ts";
export type { OptionEstimates } from "./core/optionPrices.ts";
export { impermanentLoss } from "./core/impermanentLoss.ts";
export { createRangeEstimates, rangeStatistics } from "./core/rangeStatistics.ts";
export type { RangeEstimates } from "./core/rangeStatistics.ts";
export {
  logReturn,
  realizedVolatility,
  forecastVolatility,
  pooledLogReturnVariance,
} from "./core/volatility.ts";
export { countBelowSorted, countAtMostSorted, allFiniteSorted } from "./core/sortedCounts.ts";
export { ascendingOrder, ascendingLevels } from "./core/ascendingOrder.ts";

// ── sandbox: an offline, deterministic implementation of the whole interface ────────────────
export { startSandbox } from "./sandbox/startSandbox.ts";
export type { StartSandboxOptions, RunningSandbox } from "./sandbox/startSandbox.ts";
export { DEFAULT_SANDBOX_SEED, defaultSandboxApiKey } from "./sandbox/sandboxDefaults.ts";
export { parseFaults, FAULTS_FORMAT } from "./sandbox/server/parseFaults.ts";
export type {
  SandboxFaults,
  FaultRule,
  FaultTrigger,
  RateLimitBurst,
} from "./sandbox/server/faults.ts";
export { DEFAULT_CREDITS, DEFAULT_RATE_LIMIT } from "./sandbox/server/accessControl.ts";
export type { AccessOptions, RateLimit } from "./sandbox/server/accessControl.ts";
export type { SandboxCacheOptions } from "./sandbox/server/createSandboxServer.ts";
export { METAMODEL_UID } from "./sandbox/server/handlers/predictionHandler.ts";
export type { SandboxInsightOptions } from "./sandbox/insights/inputs.ts";
export { createWorld } from "./sandbox/world/world.ts";
export type {
  World,
  WorldOptions,
  WorldEnsemble,
  Submission,
  PromptHorizon,
  PromptCadence,
  ScoreRowsQuery,
  SmoothedScoreRowsQuery,
  MinerDescription,
} from "./sandbox/world/world.ts";

// ── insights: the service's insights recomputed from an ensemble ────────────────────────────
export { InsightSession, insightSessionFor } from "./insights/session.ts";
export type {
  InsightSessionOptions,
  PathExtremes,
  PathPassRequest,
  SessionPart,
} from "./insights/session.ts";
export { prepareRecords } from "./insights/prepareRecords.ts";
export { InsightPool } from "./insights/insightPool.ts";
export type { InsightPoolOptions } from "./insights/insightPool.ts";
export type {
  InsightContext,
  RangeMarket,
  VenueBContract,
  PreviousForecast,
} from "./insights/context.ts";
export { standardErrorKey } from "./insights/result.ts";
export type { InsightResult } from "./insights/result.ts";
export { probabilityError } from "./insights/probabilityError.ts";
export { liquidationInsight } from "./insights/liquidation.ts";
export { lpBoundsInsight } from "./insights/lpBounds.ts";
export { lpProbabilitiesInsight } from "./insights/lpProbabilities.ts";
export { optionPricingInsight } from "./insights/optionPricing.ts";
export { predictionPercentilesInsight } from "./insights/predictionPercentiles.ts";
export { volatilityInsight, volatilityPercentilesInsight } from "./insights/volatility.ts";
export { upDownModelSide, rangeModelSides, earlierRangeModelSides } from "./insights/venueA.ts";
export type { UpDownModelSide, RangeModelSide, EarlierRangeModelSide } from "./insights/venueA.ts";
export { venueBModelSides } from "./insights/venueB.ts";
export type { VenueBModelSide, VenueBWindow } from "./insights/venueB.ts";
export { recompute, RECOMPUTABLE_PATHS } from "./insights/recompute.ts";
export type { RecomputedRecords, RecomputablePath } from "./insights/recompute.ts";
export { contextFromServiceRecord } from "./insights/contextFromServiceRecord.ts";

// ── crosscheck: service record against recomputed record ────────────────────────────────────
export { crossCheck, VERDICTS } from "./crosscheck/crossCheck.ts";
export type {
  Verdict,
  CrossCheckValue,
  CrossCheckRow,
  CrossCheckSummary,
  CrossCheckResult,
  CrossCheckOptions,
} from "./crosscheck/crossCheck.ts";
export { diagnose } from "./crosscheck/diagnose.ts";
export type { Diagnosis, DiagnosisKind } from "./crosscheck/diagnose.ts";

// ── store: DuckDB storage ───────────────────────────────────────────────────────────────────
export { openStore, Store } from "./store/openStore.ts";
export type { OpenStoreOptions } from "./store/openStore.ts";
export { StoreError, StoreLockedError } from "./store/storeError.ts";
export { MIGRATIONS, migrate, appliedMigrations } from "./store/migrations.ts";
export type { Migration } from "./store/migrations.ts";
export { writeUnit } from "./store/writeUnit.ts";
export type { StoreUnit, UnitWriteSummary } from "./store/writeUnit.ts";
export { readPathSets, readPathSet } from "./store/readPathSets.ts";
export type { PathSetQuery } from "./store/readPathSets.ts";
export type { PathSetEntry } from "./store/pathSets.ts";
export type { InsightEntry } from "./store/insights.ts";
export { insightLeaves } from "./store/insightLeaves.ts";
export type { InsightLeaf } from "./store/insightLeaves.ts";
export type { CrosscheckEntry } from "./store/crosschecks.ts";
export type { VenueComparisonEntry } from "./store/venueComparisons.ts";
export type { LeaderboardEntry } from "./store/leaderboardRows.ts";
export { startRun, finishRun } from "./store/runs.ts";
export type { Run, RunStart, RunEnd, RunStatus } from "./store/runs.ts";
export { withoutSecrets } from "./store/withoutSecrets.ts";
export { exportParquet, EXPORTED_TABLES } from "./store/exportParquet.ts";
export type { ExportedTable, ExportedTableName } from "./store/exportParquet.ts";
export { queryRows } from "./store/queryRows.ts";
export type { QueryResult } from "./store/queryRows.ts";

// ── scoring: validator-exact scoring and calibration ────────────────────────────────────────
export { scorePrompt } from "./scoring/scorePrompt.ts";
export type { PromptCrps, ScorePromptOptions } from "./scoring/scorePrompt.ts";
export { scoringIntervalsOf, competitionParameters } from "./scoring/scoringTarget.ts";
export type { ScoringTarget } from "./scoring/scoringTarget.ts";
export { planPrompt, intervalKindOf } from "./scoring/promptPlan.ts";
export type { PromptPlan, PlannedInterval, PromptShape } from "./scoring/promptPlan.ts";
export { promptCrpsOfValues } from "./scoring/promptCrpsOfValues.ts";
export type { PromptCrpsValue } from "./scoring/promptCrpsOfValues.ts";
export { realizedPricesOf } from "./scoring/realizedPrices.ts";
export {
  promptScores,
  promptScoreRuleAt,
  CURRENT_PROMPT_SCORE_RULE_START_UNIX,
} from "./scoring/promptScores.ts";
export type { PromptScoreRule, PromptScores } from "./scoring/promptScores.ts";
export { smoothedScores } from "./scoring/smoothedScores.ts";
export type { ScoredPrompt, SmoothedScoreOptions } from "./scoring/smoothedScores.ts";
export { rewardWeights, combinedRewardWeights } from "./scoring/rewardWeights.ts";
export type { RewardWeightOptions, CombinedRewardWeights } from "./scoring/rewardWeights.ts";
export {
  promptCalibration,
  calibrationOfValues,
  COVERAGE_LEVELS,
  PIT_BINS,
} from "./scoring/promptCalibration.ts";
export type {
  PitTies,
  CalibrationOptions,
  PromptCalibration,
} from "./scoring/promptCalibration.ts";
export {
  CalibrationAccumulator,
  CalibrationAccumulators,
} from "./scoring/calibrationAccumulator.ts";
export type {
  CalibrationKey,
  CalibrationSummary,
  CoverageSummary,
} from "./scoring/calibrationAccumulator.ts";
export { ScoringPool, createScoringPool } from "./scoring/scoringPool.ts";
export type { ScoringPoolOptions } from "./scoring/scoringPool.ts";
export type { MinerPromptScore, ScoreMinersOptions } from "./scoring/scoringCall.ts";

// ── jobs: sync and score ────────────────────────────────────────────────────────────────────
export { runSync } from "./jobs/sync.ts";
export type { SyncOptions } from "./jobs/sync.ts";
export { SyncUsageError } from "./jobs/syncUsageError.ts";
export {
  DEFAULT_DATABASE,
  DEFAULT_SYNC_ASSETS,
  DEFAULT_SYNC_CONCURRENCY,
} from "./jobs/jobDefaults.ts";
export { planSyncUnits, competitionFor, unitOperations } from "./jobs/syncPlan.ts";
export type { SyncUnitPlan } from "./jobs/syncPlan.ts";
export type {
  SyncSummary,
  UnitSummary,
  SyncFailure,
  SyncFailureStage,
  SyncService,
} from "./jobs/syncSummary.ts";
export type { SyncEvent } from "./jobs/syncEvents.ts";
export { fetchEnsembleMembers } from "./jobs/fetchEnsembleMembers.ts";
export type {
  EnsembleRequest,
  EnsembleMembers,
  RejectedPathSet,
} from "./jobs/fetchEnsembleMembers.ts";
export { fetchMinuteCloses } from "./jobs/fetchMinuteCloses.ts";
export type { MinuteCloses } from "./jobs/fetchMinuteCloses.ts";
export { checkRecords } from "./jobs/checkRecords.ts";
export type { CheckedRecords, RecordFailure } from "./jobs/checkRecords.ts";
export { crosscheckEntries } from "./jobs/crosscheckEntries.ts";
export { venueComparisonEntries } from "./jobs/venueComparisonEntries.ts";
export { startEmbeddedSandbox } from "./jobs/embeddedSandbox.ts";
export type { EmbeddedSandbox, EmbeddedSandboxOptions } from "./jobs/embeddedSandbox.ts";
export { runScore } from "./jobs/score.ts";
export type { ScoreOptions, MinerSelection } from "./jobs/score.ts";
export type {
  ScoreSummary,
  CompetitionScores,
  ScoreLeaderboardRow,
  CandidateResult,
  CandidatePlacing,
  ScoreDisagreement,
  RejectedCandidateFile,
  ScoreEvent,
  Agreement,
} from "./jobs/scoreSummary.ts";
export { readCandidateFolder, CANDIDATE_MINER_UID } from "./jobs/scoreCandidate.ts";
export type { CandidateFile } from "./jobs/scoreCandidate.ts";
export { writeScoredPrompt } from "./store/scoredPrompts.ts";
export type { ScoredPromptEntry, MinerScoreEntry, CalibrationRow } from "./store/scoredPrompts.ts";
export { writeSmoothedScores } from "./store/smoothedScoreRows.ts";
export type { SmoothedScoreEntry } from "./store/smoothedScoreRows.ts";
