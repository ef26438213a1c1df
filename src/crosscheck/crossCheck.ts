/**
 * The cross-check: a service record against the record recomputed from the same ensemble, field by
 * field and key by key, with rounding and Monte-Carlo tolerances, a record-level summary and a
 * diagnosis of systematic differences.
 */

import { formatJsonPath } from "../domain/decode.ts";
import { parseIsoTimeMs } from "../domain/time.ts";
import { diagnose, type Diagnosis } from "./diagnose.ts";
import { elementIdentity, isVenueOperation, numberRule } from "./fieldRules.ts";

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
}

/**
 * Compares a service record with the recomputed one, field by field and key by key, one row per
 * compared value (numbers, and also strings and times), then summarizes and diagnoses.
 * Arrays pair their elements by identity where the record has one (liquidation `price_change`, LP
 * `full_width`, market reference prices, venue B strikes) and by index otherwise; maps pair by key.
 * Venue operations compare only the fields the recomputed (model-side) record has. A
 * `forecast_start_time` absent from the service record (the live deployment omits it) is not a row.
 * Times (fields ending in `_time`) compare as instants. A `model_outcome` that differs while its
 * probabilities straddle 0.5 within Monte-Carlo error is `within-mc`.
 * Standard errors: `options.standardErrors` by path, else √(p̄(1 − p̄)/n) for probabilities; a
 * probability's is at least that of one path in n, √((1/n)(1 − 1/n)/n), so that 0 against 1/n is
 * not a mismatch.
 * Throws `RangeError` unless nPaths is a positive integer and sigmas is positive.
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
  const walker = new Walker(operationPath, nPaths, sigmas, options.standardErrors ?? {});
  walker.walk(serviceRecord, recomputedRecord, [], []);
  const rows = walker.settleOutcomes();
  const summary = summarize(operationPath, rows, serviceRecord, recomputedRecord);
  return { rows, summary, diagnoses: diagnose(operationPath, rows, summary) };
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

class Walker {
  readonly rows: CrossCheckRow[] = [];
  private readonly venue: boolean;

  constructor(
    private readonly operationPath: string,
    private readonly nPaths: number,
    private readonly sigmas: number,
    private readonly standardErrors: Readonly<Record<string, number>>,
  ) {
    this.venue = isVenueOperation(operationPath);
  }

  /** Walks both values in step; `path` is the JSON path, `generic` the generic field segments. */
  walk(service: unknown, recomputed: unknown, path: (string | number)[], generic: string[]): void {
    if (Array.isArray(service) || Array.isArray(recomputed)) {
      this.walkArrays(asArray(service), asArray(recomputed), path, generic);
      return;
    }
    if (isObject(service) || isObject(recomputed)) {
      this.walkObjects(asObject(service), asObject(recomputed), path, generic);
      return;
    }
    this.compareLeaf(service, recomputed, path, generic);
  }

  private walkArrays(
    service: unknown[] | undefined,
    recomputed: unknown[] | undefined,
    path: (string | number)[],
    generic: string[],
  ): void {
    const field = `${generic.join("")}[]`;
    const identity = elementIdentity(this.operationPath, field);
    const elementGeneric = [...generic, "[]"];
    const serviceElements = service ?? [];
    const recomputedElements = recomputed ?? [];
    if (identity === undefined) {
      const length = Math.max(serviceElements.length, recomputedElements.length);
      for (let index = 0; index < length; ++index) {
        this.walk(
          serviceElements[index],
          recomputedElements[index],
          [...path, index],
          elementGeneric,
        );
      }
      return;
    }
    const serviceByKey = new Map<string, number>();
    serviceElements.forEach((element, index) => {
      serviceByKey.set(identity(element) ?? `#${index}`, index);
    });
    const paired = new Set<number>();
    recomputedElements.forEach((element, index) => {
      const serviceIndex = serviceByKey.get(identity(element) ?? `#${index}`);
      if (serviceIndex !== undefined) paired.add(serviceIndex);
      const serviceElement = serviceIndex === undefined ? undefined : serviceElements[serviceIndex];
      this.walk(serviceElement, element, [...path, index], elementGeneric);
    });
    serviceElements.forEach((element, index) => {
      if (!paired.has(index)) this.walk(element, undefined, [...path, index], elementGeneric);
    });
  }

  private walkObjects(
    service: Record<string, unknown> | undefined,
    recomputed: Record<string, unknown> | undefined,
    path: (string | number)[],
    generic: string[],
  ): void {
    const recordLevel = this.venue && (generic.length === 0 || generic.join("") === "[]");
    const keys = new Set(Object.keys(recomputed ?? {}));
    if (!(recordLevel && recomputed !== undefined)) {
      for (const key of Object.keys(service ?? {})) keys.add(key);
    }
    for (const key of keys) {
      const serviceValue = service?.[key];
      if (key === "forecast_start_time" && generic.length <= 1 && serviceValue === undefined) {
        continue; // the live deployment omits it
      }
      const segment = IDENTIFIER.test(key) ? `${generic.length > 0 ? "." : ""}${key}` : "{}";
      this.walk(serviceValue, recomputed?.[key], [...path, key], [...generic, segment]);
    }
  }

  private compareLeaf(
    service: unknown,
    recomputed: unknown,
    path: (string | number)[],
    generic: string[],
  ): void {
    const field = generic.join("");
    const last = path.length > 0 ? path[path.length - 1] : undefined;
    const lastGeneric = generic.length > 0 ? generic[generic.length - 1] : "";
    const key = lastGeneric === "[]" || lastGeneric === "{}" ? String(last) : undefined;
    const jsonPath = formatJsonPath(path);
    const serviceValue = leafValue(service);
    const recomputedValue = leafValue(recomputed);
    const base = { path: jsonPath, field, key, serviceValue, recomputedValue };
    if (serviceValue === undefined || recomputedValue === undefined) {
      this.push({ ...base, ...NO_NUMBERS, verdict: "missing" });
      return;
    }
    if (serviceValue === null || recomputedValue === null) {
      const verdict = serviceValue === recomputedValue ? "exact" : "missing";
      this.push({ ...base, ...NO_NUMBERS, verdict });
      return;
    }
    if (typeof serviceValue === "number" && typeof recomputedValue === "number") {
      this.push({
        ...base,
        ...this.compareNumbers(field, jsonPath, serviceValue, recomputedValue),
      });
      return;
    }
    let equal = serviceValue === recomputedValue;
    if (!equal && field.endsWith("_time") && typeof serviceValue === "string") {
      const serviceMs = parseIsoTimeMs(serviceValue);
      equal = Number.isFinite(serviceMs) && serviceMs === parseIsoTimeMs(String(recomputedValue));
    }
    this.push({ ...base, ...NO_NUMBERS, verdict: equal ? "exact" : "mismatch" });
  }

  private compareNumbers(
    field: string,
    jsonPath: string,
    service: number,
    recomputed: number,
  ): Omit<CrossCheckRow, "path" | "field" | "key" | "serviceValue" | "recomputedValue"> {
    const rule = numberRule(this.operationPath, field);
    const difference = service - recomputed;
    const absoluteDifference = Math.abs(difference);
    const scale = Math.max(Math.abs(service), Math.abs(recomputed));
    const roundingTolerance =
      rule.decimals === undefined
        ? 1e-9 * scale + 1e-12
        : 10 ** -rule.decimals * (1 + 1e-9) + 1e-12 * scale;
    let standardError = this.standardErrors[jsonPath];
    if (rule.probability) {
      const floor = Math.sqrt(((1 / this.nPaths) * (1 - 1 / this.nPaths)) / this.nPaths);
      if (!(standardError >= 0)) {
        const mean = Math.min(1, Math.max(0, (service + recomputed) / 2));
        standardError = Math.sqrt((mean * (1 - mean)) / this.nPaths);
      }
      standardError = Math.max(standardError, floor);
    }
    if (!(standardError >= 0 && standardError < Infinity)) standardError = NaN;
    const tolerance =
      standardError >= 0 ? roundingTolerance + this.sigmas * standardError : roundingTolerance;
    const verdict: Verdict =
      absoluteDifference <= roundingTolerance
        ? "exact"
        : absoluteDifference <= tolerance
          ? "within-mc"
          : "mismatch";
    return {
      absoluteDifference,
      roundingTolerance,
      standardError,
      tolerance,
      z: standardError > 0 ? difference / standardError : NaN,
      verdict,
    };
  }

  private push(row: CrossCheckRow): void {
    this.rows.push(row);
  }

  /** A differing `model_outcome` whose probabilities straddle 0.5 within MC error is within-mc. */
  settleOutcomes(): CrossCheckRow[] {
    const byPath = new Map(this.rows.map((row) => [row.path, row]));
    return this.rows.map((row) => {
      if (row.verdict !== "mismatch" || !row.field.endsWith("model_outcome")) return row;
      const parent = row.path.slice(0, -"model_outcome".length);
      const probability =
        byPath.get(`${parent}model_probability_up`) ?? byPath.get(`${parent}model_probability`);
      if (
        probability !== undefined &&
        (probability.verdict === "exact" || probability.verdict === "within-mc") &&
        typeof probability.serviceValue === "number" &&
        typeof probability.recomputedValue === "number" &&
        probability.serviceValue >= 0.5 !== probability.recomputedValue >= 0.5
      ) {
        return { ...row, verdict: "within-mc" };
      }
      return row;
    });
  }
}

const NO_NUMBERS = {
  absoluteDifference: NaN,
  roundingTolerance: 0,
  standardError: NaN,
  tolerance: 0,
  z: NaN,
} as const;

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

function leafValue(value: unknown): CrossCheckValue {
  if (value === undefined || value === null) return value;
  if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") {
    return value;
  }
  return String(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return isObject(value) ? value : undefined;
}
