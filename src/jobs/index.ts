/**
 * pathlab/jobs: sync, score and baseline.
 *
 * The public API of the jobs layer (DESIGN.md §1); the root entry `pathlab` re-exports it.
 * @module
 */
export { runSync } from "./sync.ts";
export type { SyncOptions } from "./syncOptions.ts";
export { SyncUsageError } from "./syncUsageError.ts";
export { JobInterruptedError } from "./jobInterruptedError.ts";
export { DEFAULT_DATABASE, DEFAULT_SYNC_ASSETS, DEFAULT_SYNC_CONCURRENCY } from "./jobDefaults.ts";
export { planSyncUnits, competitionFor, unitOperations } from "./syncPlan.ts";
export type { SyncUnitPlan } from "./syncPlan.ts";
export type {
  SyncSummary,
  UnitSummary,
  SyncFailure,
  SyncFailureStage,
  SyncService,
  LackingFields,
} from "./syncSummary.ts";
export type { SyncEvent } from "./syncEvents.ts";
export { fetchEnsembleMembers } from "./fetchEnsembleMembers.ts";
export type {
  EnsembleRequest,
  EnsembleMembers,
  KnownAnswer,
  RejectedPathSet,
} from "./fetchEnsembleMembers.ts";
export { fetchMinuteCloses } from "./fetchMinuteCloses.ts";
export type { MinuteCloses } from "./fetchMinuteCloses.ts";
export { runScore } from "./score.ts";
export { runAudit, DEFAULT_AUDIT_ASSETS } from "./audit.ts";
export type { AuditOptions, AuditSummary } from "./audit.ts";
export type { ScoreOptions, MinerSelection } from "./score.ts";
export type {
  ScoreSummary,
  CompetitionScores,
  ScoreLeaderboardRow,
  CandidateResult,
  CandidatePlacing,
  ScoreDisagreement,
  RejectedCandidateFile,
  ScoreFailure,
  ScoreEvent,
  Agreement,
} from "./scoreSummary.ts";
export {
  readCandidateFolder,
  loadCandidatePathSet,
  readCandidateFile,
  candidateFileFromText,
  CANDIDATE_MINER_UID,
} from "./scoreCandidate.ts";
export type { CandidateFile, CandidateFolderFile, CandidateReadOptions } from "./scoreCandidate.ts";
export { CANDIDATE_DID_NOT_ANSWER } from "./score/scorePromptPool.ts";
export { runBaseline } from "./baseline.ts";
export { DEFAULT_BASELINE_SEED } from "./baselineOptions.ts";
export type { BaselineOptions } from "./baselineOptions.ts";
export { BASELINE_MODELS } from "./baselineSummary.ts";
export type {
  BaselineModel,
  BaselineSummary,
  BaselineEvent,
  BaselineFileWritten,
  BaselineSkippedPrompt,
  BaselineAssetVolatility,
} from "./baselineSummary.ts";
export { loadRecording, startReplayServer } from "./replay.ts";
export type { LoadedRecording, RecordReplaySummary, ReplayReport, ReplayServer } from "./replay.ts";
export { RECORDING_FILE, RECORDING_VERSION, startRecording } from "./record.ts";
export type {
  RecordedExchange,
  RecordingDescription,
  RecordingInfo,
  RecordingReport,
  Recorder,
} from "./record.ts";
export { runEnqueueScore, runEnqueueSync } from "./queue/enqueue.ts";
export type { EnqueueScoreOptions, EnqueueSummary, EnqueueSyncOptions } from "./queue/enqueue.ts";
export { planQueuedSyncUnits, queuedSyncUnitKey, runQueuedSyncUnit } from "./queue/syncUnits.ts";
export type { QueuedSyncUnit } from "./queue/syncUnits.ts";
export { runLakeReduce } from "./queue/lakeReduce.ts";
export type { LakeReduceOptions, ReducedCompetition } from "./queue/lakeReduce.ts";
export { EARLIEST_SYNC_START, noForecastStarts, planSyncRange, syncRangeOf } from "./syncRange.ts";
export type { SyncRange } from "./syncRange.ts";
export { createUnitRankings } from "./syncRanking.ts";
export type { UnitRanking } from "./syncRanking.ts";
export {
  lakeUnitOf,
  MinerKeysCache,
  planScoreUnits,
  runScoreUnit,
  scoreUnitKey,
} from "./queue/scoreUnits.ts";
export type { ScoreUnit, UnitService } from "./queue/scoreUnits.ts";
export {
  DEFAULT_QUEUE,
  enqueueUnits,
  queueUnitKey,
  redisConnection,
  UNIT_ATTEMPTS,
} from "./queue/enqueueUnits.ts";
export type { QueueUnit } from "./queue/enqueueUnits.ts";
export { runQueueWorker } from "./queue/unitQueue.ts";
export { queueStatus, retryFailed } from "./queue/queueStatus.ts";
export { PLAN_JOB, runPlanTick, startWatch, stopWatches, watchId } from "./queue/watch.ts";
export type { ScoreWatch, SyncWatch } from "./queue/watch.ts";
export type { QueueWorkerOptions } from "./queue/unitQueue.ts";
export type { MinerKeys } from "./score/minerKeys.ts";
export { checkScoreOptions } from "./score/scoreOptions.ts";
export type { CheckedScoreOptions } from "./score/scoreOptions.ts";
