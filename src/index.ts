/**
 * pathlab: a local-first analytics engine for probabilistic price forecasts.
 *
 * The root entry holds what a program built on pathlab uses first: the jobs, the client, path
 * sets, the numeric kernels, the insights and their cross-check, scoring as the validator scores,
 * the store, the sandbox, and the interface's rules. Every type of those layers is here too.
 * Each layer is also an entry of its own (`pathlab/core`, `pathlab/store`, …) with everything it
 * offers; `pathlab/plots` (the charts, which load vega) is only there, so that importing the root
 * loads no chart library.
 * @module pathlab
 */
export type * from "./domain/index.ts";
export type * from "./core/index.ts";
export type * from "./insights/index.ts";
export type * from "./crosscheck/index.ts";
export type * from "./store/index.ts";
export type * from "./scoring/index.ts";
export type * from "./service/index.ts";
export type * from "./jobs/index.ts";

export {
  COMPETITIONS,
  CURRENT_COMPETITIONS,
  DEFAULT_ERA_SETTINGS,
  DEFAULT_PATHS,
  DecodeError,
  ERA_DATES,
  HORIZON_LAYOUTS,
  HORIZONS,
  INSIGHT_ASSETS,
  INSIGHT_KINDS,
  INSIGHT_PATHS,
  InvalidParamsError,
  LIVE_PATHS,
  PERCENTILE_KEYS,
  PREDICTION_ASSETS,
  PROMPT_NAMES,
  assetCoefficient,
  canonicalAsset,
  canonicalCompetition,
  competitionsAt,
  decode,
  encode,
  encodeQuery,
  hitDirection,
  insightKind,
  isInsightPath,
  isoSeconds,
  liquidationLevels,
  liveNaming,
  lpBounds,
  neutralNaming,
  operationByPath,
  operations,
  optionExpiryUnix,
  parseIsoTimeMs,
  parsePythonJson,
  priceFormatReason,
  pythonJsonNumber,
  roundPrice,
  roundToSignificantDigits,
  stepOfTime,
  strikeGrid,
  timeInIntervalIn,
  validateResponse,
  validateResponseUnderRule,
  validatorEraAt,
  wireFieldName,
  wirePath,
} from "./domain/index.ts";
export * from "./client/index.ts";
export * from "./paths/index.ts";
export {
  PERCENTILE_PROBABILITIES,
  blockVolatilities,
  crpsEnsemble,
  crpsEnsembleSorted,
  crpsEnsembleWeighted,
  crpsIntervalSum,
  forecastVolatility,
  impermanentLoss,
  logReturn,
  optionPricesSorted,
  probabilityStandardError,
  quantileSorted,
  quantilesSorted,
  rangeStatistics,
  realizedVolatility,
  sortFloat64,
  stepQuantiles,
  terminalPrices,
  terminalProbabilitiesSorted,
  touchBridgeProbabilities,
  touchProbabilities,
  transpose,
} from "./core/index.ts";
export * from "./sandbox/index.ts";
export {
  InsightSession,
  InsightThreads,
  RECOMPUTABLE_PATHS,
  betweenMinerError,
  blackScholesPrice,
  contextFromServiceRecord,
  impliedVolatility,
  insightSessionFor,
  marketDecided,
  prepareRecords,
  probabilityError,
  rangeModelSides,
  recompute,
  robustEdge,
  standardErrorKey,
  tradableEdge,
  upDownModelSide,
  venueBModelSides,
  venueFee,
} from "./insights/index.ts";
export { VERDICTS, auditSnapshot, crossCheck, diagnose } from "./crosscheck/index.ts";
export {
  ExportFolderError,
  StatementRefusedError,
  Store,
  StoreError,
  StoreLockedError,
  StoreNotFoundError,
  compactLake,
  exportParquet,
  latestRows,
  openLake,
  openStore,
  queryRows,
  readPathSet,
  readPathSets,
  runVenueEdges,
  schemaTables,
  streamRows,
  writeUnit,
} from "./store/index.ts";
export {
  CalibrationAccumulator,
  ScoringThreads,
  combinedRewardWeights,
  competitionParameters,
  promptCalibration,
  promptCrpsRules,
  promptScores,
  realizedPricesOf,
  rewardWeights,
  scoreMiners,
  scorePrompt,
  smoothedScoreHistory,
  smoothedScores,
} from "./scoring/index.ts";
export { loadRecording, startRecording, startReplayServer } from "./service/index.ts";
export {
  BASELINE_MODELS,
  CANDIDATE_MINER_UID,
  DEFAULT_DATABASE,
  JobInterruptedError,
  JobStoppedError,
  UsageError,
  candidateFileFromText,
  readCandidateFile,
  readCandidateFolder,
  runAudit,
  runBaseline,
  runLakeReduce,
  runScore,
  runSync,
} from "./jobs/index.ts";
