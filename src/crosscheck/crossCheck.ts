/**
 * The cross-check: a service record against the record recomputed from the same ensemble, field by
 * field and key by key, with rounding and Monte-Carlo tolerances, a record-level summary and a
 * diagnosis of systematic differences.
 */

import { compareValues, isObject } from "./compareValues.ts";
import { diagnose, type Diagnosis } from "./diagnose.ts";
import { VERDICTS, type CrossCheckRow, type CrossCheckSummary, type Verdict } from "./verdicts.ts";

/**
 * What {@link crossCheck} returns.
 * @example const { rows, summary, diagnoses } = crossCheck(path, service, recomputed, { nPaths: 10000 });
 */
export interface CrossCheckResult {
  readonly rows: readonly CrossCheckRow[];
  readonly summary: CrossCheckSummary;
  readonly diagnoses: readonly Diagnosis[];
}

/**
 * Options of {@link crossCheck}.
 * @example const options: CrossCheckOptions = { nPaths: 10000, standardErrors: result.standardErrors };
 */
export interface CrossCheckOptions {
  /** Paths of the recomputed ensemble (for the default standard error of a probability). */
  readonly nPaths: number;
  /**
   * Standard errors of the recomputed record by JSON path (`InsightResult.standardErrors` of
   * `src/insights/`). Without an entry, a probability's is √(p̄(1 − p̄)/nPaths) with p̄ the mean of
   * the two values, and any other number has none (so it is `exact` or `mismatch`).
   */
  readonly standardErrors?: Readonly<Record<string, number>>;
  /** How many standard errors `within-mc` allows; 3 by default. */
  readonly sigmas?: number;
  /**
   * Whether the service writes `forecast_start_time` (its other records of the same forecast
   * carry it): a record that lacks it then lost that comparison, a `missing` row. Default `false`:
   * an absent one is no row, as the live deployment omits it from every record.
   */
  readonly forecastStartTimeExpected?: boolean;
}

/**
 * Compares a service record with the recomputed one, field by field and key by key, one row per
 * compared value (numbers, and also strings and times), then summarizes and diagnoses.
 * Arrays pair their elements by identity where the record has one (liquidation `price_change`, LP
 * `full_width`, market reference prices, venue B strikes) and by index otherwise; maps pair by key.
 * Venue operations compare only the fields the recomputed (model-side) record has. A
 * `forecast_start_time` absent from the service record (the live deployment omits it) is not a
 * row, unless `options.forecastStartTimeExpected` (then it is a `missing` row).
 * Times (fields ending in `_time`) compare as instants. A `model_outcome` that differs while its
 * probabilities straddle 0.5 within Monte-Carlo error is `within-mc`.
 * Standard errors: `options.standardErrors` by path, else √(p̄(1 − p̄)/n) for probabilities; a
 * probability's is at least that of one path in n, √((1/n)(1 − 1/n)/n), so that 0 against 1/n is
 * not a mismatch.
 * Throws `RangeError` unless nPaths is a positive integer and sigmas is positive.
 * @param operationPath - the record's operation, as a spec path, e.g. `/insights/liquidation`.
 * @param serviceRecord - the service's record, decoded.
 * @param recomputedRecord - the same record recomputed from the ensemble (`recompute` of
 *   pathlab/insights).
 * @param options - the ensemble's number of paths, the recomputed record's standard errors, and how
 *   many of them `within-mc` allows (3 by default).
 * @example
 * const { record, standardErrors } = recompute("/insights/liquidation", ensemble, context);
 * const check = crossCheck("/insights/liquidation", serviceRecord, record, { nPaths: ensemble.nPaths, standardErrors });
 * check.summary.verdict // => "exact"
 */
export function crossCheck(
  operationPath: string,
  serviceRecord: unknown,
  recomputedRecord: unknown,
  options: CrossCheckOptions,
): CrossCheckResult {
  const { nPaths } = options;
  const sigmas = options.sigmas ?? 3;
  if (!Number.isInteger(nPaths) || nPaths < 1) {
    throw new RangeError(
      `crossCheck requires options.nPaths to be a positive integer, got ${nPaths}`,
    );
  }
  if (!(sigmas > 0 && sigmas < Infinity)) {
    throw new RangeError(
      `crossCheck requires options.sigmas to be a positive number, got ${sigmas}`,
    );
  }
  const rows = compareValues(
    operationPath,
    serviceRecord,
    recomputedRecord,
    nPaths,
    sigmas,
    options.standardErrors ?? {},
    options.forecastStartTimeExpected === true,
  );
  const summary = summarize(operationPath, rows, serviceRecord, recomputedRecord);
  return { rows, summary, diagnoses: diagnose(operationPath, rows, summary) };
}

function summarize(
  operationPath: string,
  rows: readonly CrossCheckRow[],
  serviceRecord: unknown,
  recomputedRecord: unknown,
): CrossCheckSummary {
  const counts: Record<Verdict, number> = { exact: 0, "within-mc": 0, missing: 0, mismatch: 0 };
  let worst = 0;
  let maxAbsoluteZ = 0;
  for (const row of rows) {
    counts[row.verdict] += 1;
    worst = Math.max(worst, VERDICTS.indexOf(row.verdict));
    if (Math.abs(row.z) > maxAbsoluteZ) maxAbsoluteZ = Math.abs(row.z);
  }
  const serviceForecastStartTime = forecastStartTimeOf(serviceRecord);
  const recomputedForecastStartTime = forecastStartTimeOf(recomputedRecord);
  const serviceLacks = new Set<string>();
  const recomputedLacks = new Set<string>();
  for (const row of rows) {
    if (row.serviceValue === undefined && row.recomputedValue !== undefined)
      serviceLacks.add(row.field);
    if (row.recomputedValue === undefined && row.serviceValue !== undefined) {
      recomputedLacks.add(row.field);
    }
  }
  if (serviceForecastStartTime === undefined && recomputedForecastStartTime !== undefined) {
    serviceLacks.add(
      Array.isArray(recomputedRecord) ? "[].forecast_start_time" : "forecast_start_time",
    );
  }
  return {
    operationPath,
    rows: rows.length,
    counts,
    verdict: VERDICTS[worst],
    maxAbsoluteZ,
    serviceForecastStartTime,
    recomputedForecastStartTime,
    serviceLacks: [...serviceLacks].sort(),
    recomputedLacks: [...recomputedLacks].sort(),
  };
}

function forecastStartTimeOf(record: unknown): string | undefined {
  const first = Array.isArray(record) ? record[0] : record;
  const value = isObject(first) ? first.forecast_start_time : undefined;
  return typeof value === "string" ? value : undefined;
}
