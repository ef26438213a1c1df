/**
 * pathlab/domain: the service's interface and the network's rules as code: operations, parameters,
 * records and their decoders, assets, competitions, the validator's eras and answer format, the
 * insight kinds and their conventions.
 *
 * The bottom layer: it imports nothing. The root entry `pathlab` re-exports what a user reads first.
 * @module pathlab/domain
 */
export * from "./operation.ts";
export * from "./errors.ts";
export * from "./assets.ts";
export * from "./intervals.ts";
export * from "./assetCoefficients.ts";
export * from "./competitions.ts";
export * from "./naming.ts";
export * from "./time.ts";
export { PERCENTILE_KEYS } from "./records/percentiles.ts";
export { REF_PRICE_COUNTS } from "./records/outcomes.ts";
export type { UpDownOutcome, BinaryOutcome, ComparisonType } from "./records/outcomes.ts";
export type { PredictionSet } from "./records/prediction-set.ts";
export type { LeaderboardV1Row, LeaderboardV2Row } from "./records/leaderboard.ts";
export type {
  MinerValidation,
  ScoreRow,
  UidHolderRow,
  SmoothedScoreRow,
  PromptList,
  RealizedPath,
  MultiAssetMinuteRow,
} from "./records/validation.ts";
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
} from "./params.ts";
export * from "./default-paths.ts";
export * from "./operations.ts";
// the registry, and the record types of its kinds (each kind's record is exported beside its entry)
export * from "./insightKinds.ts";
export { INSIGHT_PATHS, isInsightPath, insightKind } from "./insightKindLists.ts";
export type { FamilyOperations, AnyInsightKind } from "./insightKindLists.ts";
export type {
  InsightFamily,
  InsightInput,
  ElementKey,
  RecordFields,
  AuditedRecord,
  InsightKindDefinition,
  InsightKind,
  AnyRecordCodec,
} from "./insightKind.ts";
export type { Codec, CodecValue, DecodeState } from "./decode.ts";
export * from "./query.ts";
export * from "./codec.ts";

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
  MONTHLY_EXPIRY_MIN_DAYS,
  monthlyExpiryUnix,
  optionExpiryUnix,
  optionPriceDecimals,
  roundOptionPrice,
  STRIKE_GRID_RULES,
  niceStep,
  strikeGridRule,
  strikeGrid,
  MINUTES_PER_YEAR,
  annualizeVolatility,
  VOLATILITY_LAYOUTS,
  volatilityBlockSteps,
  volatilityPointBounds,
  realizedWindowMinutes,
  numpySum,
  nanMean,
  VENUE_WINDOW_SECONDS,
  DAILY_EVENT_HOUR_UTC,
  VENUE_WINDOW_HORIZONS,
  venueEventWindow,
  MODEL_OUTCOME_THRESHOLD,
  upDownOutcomeOf,
  binaryOutcomeOf,
  hitDirection,
} from "./insightConventions.ts";
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
} from "./insightConventions.ts";
export * from "./eras.ts";
export * from "./priceFormat.ts";
export * from "./pythonJson.ts";
export * from "./responseValidation.ts";
