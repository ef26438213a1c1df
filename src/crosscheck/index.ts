/**
 * pathlab/crosscheck: a service record against its recomputation, value by value, with a verdict
 * each (agrees, within its Monte-Carlo error, rounding, differs); `diagnose` names systematic
 * differences (a unit, a ratio, a shift, a re-basing, a grid); `auditSnapshot` is what
 * `pathlab audit` checks.
 *
 * The root entry `pathlab` re-exports `crossCheck`, `diagnose`, `auditSnapshot` and the verdicts.
 * @module pathlab/crosscheck
 */
export * from "./crossCheck.ts";
export * from "./verdicts.ts";
export * from "./diagnose.ts";
export * from "./audit.ts";
export {
  checkLiquidation,
  checkLpBounds,
  checkLpProbabilities,
  checkPercentiles,
  FindingList,
  PROBABILITY_ROUNDING,
  roundingOf,
} from "./auditChecks.ts";
export * from "./optionChecks.ts";
export type { AuditFinding } from "./auditChecks.ts";
