/**
 * pathlab/crosscheck: service record against recomputed record.
 *
 * The public API of the crosscheck layer (DESIGN.md §1); the root entry `pathlab` re-exports it.
 * @module
 */
export { crossCheck } from "./crossCheck.ts";
export type { CrossCheckResult, CrossCheckOptions } from "./crossCheck.ts";
export { VERDICTS } from "./verdicts.ts";
export type { Verdict, CrossCheckValue, CrossCheckRow, CrossCheckSummary } from "./verdicts.ts";
export { diagnose } from "./diagnose.ts";
export type { Diagnosis, DiagnosisKind } from "./diagnose.ts";
export { auditSnapshot, LP_PERCENTILE_TOLERANCE } from "./audit.ts";
export type { AuditSnapshot, AuditReport } from "./audit.ts";
export {
  checkLiquidation,
  checkLpBounds,
  checkLpProbabilities,
  checkPercentiles,
  FindingList,
  PROBABILITY_ROUNDING,
  roundingOf,
} from "./auditChecks.ts";
export { checkOptions, quoteStep } from "./optionChecks.ts";
export type { AuditFinding } from "./auditChecks.ts";
