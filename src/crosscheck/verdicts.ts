/**
 * What a cross-check finds: the verdict on each compared value, the row that carries it, and the
 * record-level summary of the rows.
 */

/**
 * The verdict on one compared value:
 * - `exact`: equal within the service's rounding (one unit of the last reported decimal; a relative
 *   1e-9 for unrounded numbers; equality for strings and times);
 * - `within-mc`: within `sigmas` (3) Monte-Carlo standard errors plus the rounding;
 * - `mismatch`: farther apart;
 * - `missing`: in one record only (or null in one and a value in the other).
 * @example const verdict: Verdict = "within-mc";
 */
export type Verdict = "exact" | "within-mc" | "mismatch" | "missing";

/**
 * The verdicts from best to worst: a summary's verdict is the worst of its rows.
 * @example VERDICTS.indexOf("mismatch") // => 3
 */
export const VERDICTS: readonly Verdict[] = Object.freeze([
  "exact",
  "within-mc",
  "missing",
  "mismatch",
]);

/**
 * A compared leaf value: a number, a string, null, or undefined when the record lacks it.
 * @example const value: CrossCheckValue = 0.4079;
 */
export type CrossCheckValue = number | string | boolean | null | undefined;

/**
 * One compared value.
 * @example
 * const row: CrossCheckRow = {
 *   path: 'data[0].long_liquidation_probability["6"]', field: "data[].long_liquidation_probability{}", key: "6",
 *   serviceValue: 0.4079, recomputedValue: 0.4112, absoluteDifference: 0.0033, roundingTolerance: 0.0001,
 *   standardError: 0.0049, tolerance: 0.0148, z: -0.67, verdict: "within-mc",
 * };
 */
export interface CrossCheckRow {
  /** JSON path of the value (in the recomputed record; in the service record when only there). */
  readonly path: string;
  /** The generic field: array indexes as `[]`, map keys as `{}` (rows of one field share it). */
  readonly field: string;
  /** The map key or array index of the value within its container; undefined for object fields. */
  readonly key: string | undefined;
  readonly serviceValue: CrossCheckValue;
  readonly recomputedValue: CrossCheckValue;
  /** |service − recomputed| for two numbers; NaN otherwise. */
  readonly absoluteDifference: number;
  /** The `exact` bound: one unit of the last reported decimal, or 1e-9 relative when unrounded. */
  readonly roundingTolerance: number;
  /** The Monte-Carlo standard error used (NaN when none is known). */
  readonly standardError: number;
  /** The `within-mc` bound: roundingTolerance + sigmas × standardError. */
  readonly tolerance: number;
  /** (service − recomputed) / standardError; NaN when there is no positive standard error. */
  readonly z: number;
  readonly verdict: Verdict;
}

/**
 * The record-level summary of a cross-check.
 * @example summary.counts.mismatch === 0 && summary.verdict !== "missing"
 */
export interface CrossCheckSummary {
  readonly operationPath: string;
  /** Number of rows. */
  readonly rows: number;
  /** Rows per verdict. */
  readonly counts: Readonly<Record<Verdict, number>>;
  /** The worst verdict of any row (`exact` when there are none). */
  readonly verdict: Verdict;
  /** The largest |z| over the rows with a standard error (0 when none). */
  readonly maxAbsoluteZ: number;
  /** `forecast_start_time` of each record (undefined when absent; an array's first element's). */
  readonly serviceForecastStartTime: string | undefined;
  readonly recomputedForecastStartTime: string | undefined;
  /**
   * The fields (generic, as rows name them) that the service record lacks where the recomputed one
   * has them, sorted: `forecast_start_time` when the live deployment omitted it, a grid key the
   * service left out. Empty when the service has everything compared.
   */
  readonly serviceLacks: readonly string[];
  /** The fields the recomputed record lacks where the service's has them, sorted. */
  readonly recomputedLacks: readonly string[];
}
