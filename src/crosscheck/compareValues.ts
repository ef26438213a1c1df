/**
 * The value comparison of a cross-check: both records walked in step, one row per compared leaf
 * value, with its rounding and Monte-Carlo tolerances and its verdict.
 */

import { formatJsonPath } from "../domain/decode.ts";
import { parseIsoTimeMs } from "../domain/time.ts";
import { elementIdentity, isVenueOperation, numberRule } from "./fieldRules.ts";
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
  walker.walk(serviceRecord, recomputedRecord, [], []);
  return walker.settleOutcomes();
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
    private readonly forecastStartTimeExpected: boolean,
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
      if (
        key === "forecast_start_time" &&
        generic.length <= 1 &&
        serviceValue === undefined &&
        !this.forecastStartTimeExpected
      ) {
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
