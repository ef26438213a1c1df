/**
 * pathlab/crosscheck: a service record against its recomputation, value by value, with a verdict
 * each (agrees, within its Monte-Carlo error, rounding, differs); `diagnose` names systematic
 * differences (a unit, a ratio, a shift, a re-basing, a grid); `auditSnapshot` is what
 * `pathlab audit` checks.
 *
 * The root entry `pathlab` re-exports `crossCheck`, `diagnose`, `auditSnapshot` and the verdicts.
 * @module pathlab/crosscheck
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
