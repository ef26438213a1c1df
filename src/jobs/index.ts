/**
 * pathlab/jobs: what the command does, as functions: `runSync` (the service's forecasts, checked
 * and recomputed, into DuckDB), `runScore` (miners, and a candidate model among them, scored as the
 * validator scores them), `runBaseline`, `runAudit`, and the scale-out on a Redis queue
 * (`runEnqueueSync`, `runEnqueueScore`, `runQueueWorker`, `runLakeReduce`, watches).
 *
 * The root entry `pathlab` re-exports the four jobs and their options and summaries.
 * @module pathlab/jobs
 */
export { runSync } from "./sync/sync.ts";
export type { SyncOptions } from "./sync/options.ts";
export * from "../service/usageError.ts";
export * from "./harness/interruptedError.ts";
export {
  BREAKER_UNITS,
  DEFAULT_AUDIT_ASSETS,
  DEFAULT_DATABASE,
  DEFAULT_JOB_DEADLINE_MS,
  DEFAULT_SYNC_ASSETS,
  DEFAULT_SYNC_CONCURRENCY,
} from "./harness/defaults.ts";
export type {
  SyncSummary,
  UnitSummary,
  SyncFailure,
  SyncFailureStage,
  LackingFields,
} from "./sync/summary.ts";
export * from "../service/serviceInfo.ts";
export * from "./sync/events.ts";
export * from "./sync/fetchEnsembleMembers.ts";
export { fetchMinuteCloses } from "./sync/fetchMinuteCloses.ts";
export type { MinuteCloses } from "./sync/fetchMinuteCloses.ts";
export * from "./score/score.ts";
export * from "./audit/audit.ts";
export * from "./score/summary.ts";
export * from "./score/candidate.ts";
export { CANDIDATE_DID_NOT_ANSWER } from "./score/scorePromptPool.ts";
export * from "./baseline/baseline.ts";
export { DEFAULT_BASELINE_SEED } from "./baseline/options.ts";
export type { BaselineOptions } from "./baseline/options.ts";
export { BASELINE_MODELS } from "./baseline/summary.ts";
export type {
  BaselineModel,
  BaselineSummary,
  BaselineEvent,
  BaselineFileWritten,
  BaselineSkippedPrompt,
  BaselineAssetVolatility,
} from "./baseline/summary.ts";
export { runEnqueueScore, runEnqueueSync } from "./queue/enqueue.ts";
export type { EnqueueScoreOptions, EnqueueSummary, EnqueueSyncOptions } from "./queue/enqueue.ts";
export { runLakeReduce } from "./score/lakeReduce.ts";
export type { LakeReduceOptions, ReducedCompetition } from "./score/lakeReduce.ts";
export * from "./sync/range.ts";
export { DEFAULT_QUEUE, UNIT_ATTEMPTS } from "./queue/enqueueUnits.ts";
export type { UnitService } from "./score/queueUnit.ts";
export type { SyncUnitPlan } from "./sync/plan.ts";
export * from "./queue/unitQueue.ts";
export * from "./queue/queueStatus.ts";
export { startWatch, stopWatches, watchId } from "./queue/watch.ts";
export type { ScoreWatch, SyncWatch } from "./queue/watch.ts";
