/**
 * The value comparison of a cross-check: both records walked in step, one row per compared leaf
 * value, with its rounding and Monte-Carlo tolerances and its verdict.
 */

import { jsonPathSegment } from "../domain/decode.ts";
import { parseIsoTimeMs } from "../domain/time.ts";
import { elementIdentity, isVenueOperation, numberRule, type NumberRule } from "./fieldRules.ts";
import type { CrossCheckRow, CrossCheckValue, Verdict } from "./verdicts.ts";

/**
 * The rows of `crossCheck`: the service record against the recomputed one, value by value (see
 * `crossCheck` for the pairing of elements, the tolerances and the verdicts), a differing
 * `model_outcome` settled by its probability. `nPaths` and `sigmas` are taken as valid. A
 * `forecast_start_time` the service record lacks is a `missing` row when
 * `forecastStartTimeExpected`, and no row otherwise (the live deployment omits it).
 * @example compareValues("/insights/liquidation", serviceRecord, record, 10000, 3, standardErrors)
 */
export function compareValues(
  operationPath: string,
  serviceRecord: unknown,
  recomputedRecord: unknown,
  nPaths: number,
  sigmas: number,
  standardErrors: Readonly<Record<string, number>>,
  forecastStartTimeExpected = false,
): CrossCheckRow[] {
  const walker = new Walker(
    operationPath,
    nPaths,
    sigmas,
    standardErrors,
    forecastStartTimeExpected,
  );
  walker.walk(serviceRecord, recomputedRecord, "", "", 0, undefined);
  return walker.settleOutcomes();
}

/**
 * The walk keeps each value's JSON path (`jsonPathSegment`s, as `formatJsonPath` writes it) and
 * generic field as text built on the way down, so that a leaf costs no array copies or joins: a
 * record of the volatility kinds has tens of thousands of leaves.
 */
class Walker {
  readonly rows: CrossCheckRow[] = [];
  private readonly venue: boolean;
  /** `numberRule` per generic field, asked once per field. */
  private readonly rules = new Map<string, NumberRule>();

  constructor(
    private readonly operationPath: string,
    private readonly nPaths: number,
    private readonly sigmas: number,
    private readonly standardErrors: Readonly<Record<string, number>>,
    private readonly forecastStartTimeExpected: boolean,
  ) {
    this.venue = isVenueOperation(operationPath);
  }

  /**
   * Walks both values in step. `path` is the JSON path so far ("" at the top), `field` the generic
   * field, `depth` the number of segments in both, and `key` the map key or array index when the
   * last segment is one.
   */
  walk(
    service: unknown,
    recomputed: unknown,
    path: string,
    field: string,
    depth: number,
    key: string | undefined,
  ): void {
    if (Array.isArray(service) || Array.isArray(recomputed)) {
      this.walkArrays(asArray(service), asArray(recomputed), path, field, depth);
      return;
    }
    if (isObject(service) || isObject(recomputed)) {
      this.walkObjects(asObject(service), asObject(recomputed), path, field, depth);
      return;
    }
    this.compareLeaf(service, recomputed, depth === 0 ? "$" : path, field, key);
  }

  private walkArrays(
    service: unknown[] | undefined,
    recomputed: unknown[] | undefined,
    path: string,
    field: string,
    depth: number,
  ): void {
    const elementField = `${field}[]`;
    const identity = elementIdentity(this.operationPath, elementField);
    const serviceElements = service ?? [];
    const recomputedElements = recomputed ?? [];
    const element = (service: unknown, recomputed: unknown, index: number) =>
      this.walk(
        service,
        recomputed,
        path + jsonPathSegment(index, depth === 0),
        elementField,
        depth + 1,
        String(index),
      );
    if (identity === undefined) {
      const length = Math.max(serviceElements.length, recomputedElements.length);
      for (let index = 0; index < length; ++index) {
        element(serviceElements[index], recomputedElements[index], index);
      }
      return;
    }
    const serviceByKey = new Map<string, number>();
    serviceElements.forEach((serviceElement, index) => {
      serviceByKey.set(identity(serviceElement) ?? `#${index}`, index);
    });
    const paired = new Set<number>();
    recomputedElements.forEach((recomputedElement, index) => {
      const serviceIndex = serviceByKey.get(identity(recomputedElement) ?? `#${index}`);
      if (serviceIndex !== undefined) paired.add(serviceIndex);
      const serviceElement = serviceIndex === undefined ? undefined : serviceElements[serviceIndex];
      element(serviceElement, recomputedElement, index);
    });
    serviceElements.forEach((serviceElement, index) => {
      if (!paired.has(index)) element(serviceElement, undefined, index);
    });
  }

  private walkObjects(
    service: Record<string, unknown> | undefined,
    recomputed: Record<string, unknown> | undefined,
    path: string,
    field: string,
    depth: number,
  ): void {
    const recordLevel = this.venue && (depth === 0 || field === "[]");
    const keys = new Set(Object.keys(recomputed ?? {}));
    if (!(recordLevel && recomputed !== undefined)) {
      for (const key of Object.keys(service ?? {})) keys.add(key);
    }
    for (const key of keys) {
      const serviceValue = service?.[key];
      if (
        key === "forecast_start_time" &&
        depth <= 1 &&
        serviceValue === undefined &&
        !this.forecastStartTimeExpected
      ) {
        continue; // the live deployment omits it
      }
      // an identifier's segment names a field (`.name`); another key is a coordinate (`{}`)
      const segment = jsonPathSegment(key, depth === 0);
      const named = !segment.startsWith("[");
      this.walk(
        serviceValue,
        recomputed?.[key],
        path + segment,
        named ? field + segment : `${field}{}`,
        depth + 1,
        named ? undefined : key,
      );
    }
  }

  private compareLeaf(
    service: unknown,
    recomputed: unknown,
    path: string,
    field: string,
    key: string | undefined,
  ): void {
    const serviceValue = leafValue(service);
    const recomputedValue = leafValue(recomputed);
    if (typeof serviceValue === "number" && typeof recomputedValue === "number") {
      this.pushNumbers(path, field, key, serviceValue, recomputedValue);
      return;
    }
    let verdict: Verdict;
    if (serviceValue === undefined || recomputedValue === undefined) verdict = "missing";
    else if (serviceValue === null || recomputedValue === null) {
      verdict = serviceValue === recomputedValue ? "exact" : "missing";
    } else {
      let equal = serviceValue === recomputedValue;
      if (!equal && field.endsWith("_time") && typeof serviceValue === "string") {
        const serviceMs = parseIsoTimeMs(serviceValue);
        equal = Number.isFinite(serviceMs) && serviceMs === parseIsoTimeMs(String(recomputedValue));
      }
      verdict = equal ? "exact" : "mismatch";
    }
    this.rows.push({
      path,
      field,
      key,
      serviceValue,
      recomputedValue,
      absoluteDifference: NaN,
      roundingTolerance: 0,
      standardError: NaN,
      tolerance: 0,
      z: NaN,
      verdict,
    });
  }

  private pushNumbers(
    path: string,
    field: string,
    key: string | undefined,
    service: number,
    recomputed: number,
  ): void {
    let rule = this.rules.get(field);
    if (rule === undefined) {
      rule = numberRule(this.operationPath, field);
      this.rules.set(field, rule);
    }
    const difference = service - recomputed;
    const absoluteDifference = Math.abs(difference);
    const scale = Math.max(Math.abs(service), Math.abs(recomputed));
    const roundingTolerance =
      rule.decimals === undefined
        ? 1e-9 * scale + 1e-12
        : 10 ** -rule.decimals * (1 + 1e-9) + 1e-12 * scale;
    let standardError = this.standardErrors[path];
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
    this.rows.push({
      path,
      field,
      key,
      serviceValue: service,
      recomputedValue: recomputed,
      absoluteDifference,
      roundingTolerance,
      standardError,
      tolerance,
      z: standardError > 0 ? difference / standardError : NaN,
      verdict,
    });
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

function leafValue(value: unknown): CrossCheckValue {
  if (value === undefined || value === null) return value;
  if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") {
    return value;
  }
  return String(value);
}

/**
 * Whether `value` is a JSON object (not null, not an array).
 * @example isObject({ a: 1 }) // => true
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return isObject(value) ? value : undefined;
}
