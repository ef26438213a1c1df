/**
 * pathlab/crosscheck: service record against recomputed record.
 *
 * The public API of the crosscheck layer (DESIGN.md §1); the root entry `pathlab` re-exports it.
 * @module
 */
export { crossCheck, VERDICTS } from "./crossCheck.ts";
export type {
  Verdict,
  CrossCheckValue,
  CrossCheckRow,
  CrossCheckSummary,
  CrossCheckResult,
  CrossCheckOptions,
} from "./crossCheck.ts";
export { diagnose } from "./diagnose.ts";
export type { Diagnosis, DiagnosisKind } from "./diagnose.ts";
export { auditSnapshot, LP_PERCENTILE_TOLERANCE } from "./audit.ts";
export type { AuditSnapshot, AuditReport } from "./audit.ts";
export {
  checkLiquidation,
  checkLpBounds,
  checkLpProbabilities,
  checkOptions,
  checkPercentiles,
  FindingList,
  PROBABILITY_ROUNDING,
  quoteStep,
  roundingOf,
} from "./auditChecks.ts";
export type { AuditFinding } from "./auditChecks.ts";
