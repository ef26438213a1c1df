/**
 * pathlab/domain: the service's interface and the network's rules as code: operations, parameters,
 * records and their decoders, assets, competitions, the validator's eras and answer format, the
 * insight kinds and their conventions.
 *
 * The bottom layer: it imports nothing. The root entry `pathlab` re-exports what a user reads first.
 * @module pathlab/domain
 */
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
} from "./operation.ts";
export { DecodeError, InvalidParamsError } from "./errors.ts";
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
} from "./assets.ts";
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
} from "./assets.ts";
export {
  SCORING_INTERVALS_24H,
  SCORING_INTERVALS_1H,
  VOLATILITY_CRPS_LAMBDA,
  VOLATILITY_BLOCKS_1H,
} from "./intervals.ts";
export type { VolatilityBlock } from "./intervals.ts";
export { ASSET_COEFFICIENTS, assetCoefficient } from "./assetCoefficients.ts";
export {
  competitionsAt,
  CURRENT_COMPETITIONS,
  TWO_COMPETITIONS,
  THREE_COMPETITIONS_START_UNIX,
} from "./competitions.ts";
export type { CompetitionName, CompetitionParameters } from "./competitions.ts";
export { neutralNaming, liveNaming, wirePath, wireFieldName, neutralFieldName } from "./naming.ts";
export { parseIsoTimeMs, ISO_TIME_EXPECTED, isoSeconds } from "./time.ts";
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
  VolatilityRecord,
  VolatilityPercentilesRecord,
  RealizedPrice,
  RealizedVolatility,
  PastVolatility,
  FutureVolatility,
  RealizedPrices,
} from "./records/volatility.ts";
export { PERCENTILE_KEYS } from "./records/percentiles.ts";
export type {
  PercentileKey,
  Percentiles,
  PercentileSeries,
  PredictionPercentilesRecord,
} from "./records/percentiles.ts";
export { REF_PRICE_COUNTS } from "./records/outcomes.ts";
export type { UpDownOutcome, BinaryOutcome, ComparisonType } from "./records/outcomes.ts";
export type {
  UpDownComparisonRecord,
  RangeComparisonRecord,
  EarlierRangeRecord,
} from "./records/venue-a.ts";
export type { VenueBComparisonRecord } from "./records/venue-b.ts";
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
export { DEFAULT_PATHS, LIVE_PATHS } from "./default-paths.ts";
export { operationTable, operations, operationByPath } from "./operations.ts";
export type {
  OperationTable,
  AnyOperation,
  OperationPath,
  OperationsByPath,
} from "./operations.ts";
export { INSIGHT_KINDS } from "./insightKinds.ts";
export type {
  InsightKinds,
  InsightPath,
  RecomputedInsightPath,
  InsightKindTable,
  RecomputedKindTable,
} from "./insightKinds.ts";
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
export { encodeQuery } from "./query.ts";
export type { QueryParamsOf, QueryTarget } from "./query.ts";
export { decode, encode } from "./codec.ts";
export type { CodecOptions, DecodedResponse } from "./codec.ts";

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
export {
  validatorEraAt,
  ERA_DATES,
  DEFAULT_ERA_SETTINGS,
  UPDATE_DELAY_SECONDS,
  UPDATE_GATE_SECONDS,
} from "./eras.ts";
export type { ValidatorEra, EraSettings, PromptScoreRule, ResponseFormatRule } from "./eras.ts";
export {
  PRICE_SIGNIFICANT_DIGITS,
  pythonNumberText,
  exceedsDigitLimit,
  roundPrice,
  roundRangeToSignificantDigits,
  roundToSignificantDigits,
  hasAtMostEightSignificantDigits,
} from "./priceFormat.ts";
export {
  PythonFloat,
  pythonJsonNumber,
  parsePythonJson,
  pythonTypeName,
  isPythonInt,
  pythonStr,
} from "./pythonJson.ts";
export {
  JsonNumberPrices,
  CORRECT_REASON,
  NO_RESPONSE_REASON,
  VALIDATION_ERROR_REASON,
  validateResponse,
  validateResponseUnderRule,
  priceFormatReason,
} from "./responseValidation.ts";
export type { ValidationPrompt, ValidationOptions } from "./responseValidation.ts";
