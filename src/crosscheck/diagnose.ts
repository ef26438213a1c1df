/**
 * The diagnosis pass of the cross-check: systematic differences between a service record and the
 * recomputed one, recognized from the rows and named.
 */

import type { CrossCheckRow, CrossCheckSummary } from "./verdicts.ts";

/**
 * The kinds of systematic difference recognized:
 * - `unit`: one field differs by a constant ratio of 60, 1440 or 24 (or their inverses);
 * - `ratio`: one field differs by another constant ratio;
 * - `shift`: one field differs by a constant amount (a different re-base price, or none);
 * - `rebase`: one field differs by an affine map a·x + b, a ≠ 1 (a multiplicative re-base against an
 *   additive one);
 * - `grid`: a map's keys differ on both sides (a different level or strike grid);
 * - `ensemble`: a different `forecast_start_time`, or differences within Monte-Carlo error only (a
 *   different ensemble);
 * - `current-price`: the records use different current prices.
 * @example const kind: DiagnosisKind = "unit";
 */
export type DiagnosisKind =
  "unit" | "ratio" | "shift" | "rebase" | "grid" | "ensemble" | "current-price";

/**
 * One recognized systematic difference.
 * @example
 * const diagnosis: Diagnosis = {
 *   kind: "unit", field: "data[].expected_time_in_interval", rows: 16, value: 1 / 60,
 *   message: "data[].expected_time_in_interval: service = recomputed × 1/60 on all 16 values: a unit difference (hours where pathlab reports minutes, or a fraction of a 1h horizon)",
 * };
 */
export interface Diagnosis {
  readonly kind: DiagnosisKind;
  /** The generic field concerned (undefined for record-wide diagnoses). */
  readonly field: string | undefined;
  /** Rows the diagnosis covers. */
  readonly rows: number;
  /** The ratio (unit, ratio), the shift (shift), the slope a (rebase); undefined otherwise. */
  readonly value?: number;
  /** One sentence: what differs and what it looks like. */
  readonly message: string;
}

/** Known unit ratios (service ÷ recomputed) and what each looks like. */
const UNIT_RATIOS: readonly {
  readonly ratio: number;
  readonly label: string;
  readonly meaning: string;
}[] = [
  {
    ratio: 1 / 60,
    label: "1/60",
    meaning: "hours where pathlab reports minutes, or a fraction of a 1h horizon",
  },
  { ratio: 60, label: "60", meaning: "minutes where pathlab reports hours" },
  {
    ratio: 1 / 1440,
    label: "1/1440",
    meaning: "a fraction of a 24h horizon where pathlab reports minutes",
  },
  {
    ratio: 1440,
    label: "1440",
    meaning: "minutes where pathlab reports a fraction of a 24h horizon",
  },
  {
    ratio: 1 / 24,
    label: "1/24",
    meaning: "a fraction of a 24h horizon where pathlab reports hours",
  },
  { ratio: 24, label: "24", meaning: "hours where pathlab reports a fraction of a 24h horizon" },
];

/**
 * Recognizes systematic differences in the rows of a cross-check. Per field with at least two
 * compared numbers and at least one not `exact`: a constant ratio (every service value equals the
 * median ratio × the recomputed one within the row's tolerance + 0.1 %; a ratio near 60, 1440 or 24
 * or their inverses, within 0.5 %, is named as a unit), else a constant shift (within the rounding),
 * else, over at least 5 values, an affine relation (the differences linear in the recomputed value,
 * R² ≥ 0.99). Per map field, keys present on one side only, on both sides: a different grid. Record
 * wide: different current prices; a different `forecast_start_time` (a different ensemble), or,
 * with the same start, differences that are all within Monte-Carlo error.
 * @param operationPath - the record's operation, as a spec path.
 * @param rows - the rows of a {@link crossCheck} of that operation.
 * @param summary - the same cross-check's summary.
 * @example diagnose("/insights/lp-bounds", check.rows, check.summary)[0].kind // => "unit"
 */
export function diagnose(
  operationPath: string,
  rows: readonly CrossCheckRow[],
  summary: CrossCheckSummary,
): Diagnosis[] {
  const diagnoses: Diagnosis[] = [];
  const byField = new Map<string, CrossCheckRow[]>();
  for (const row of rows) {
    const group = byField.get(row.field);
    if (group === undefined) byField.set(row.field, [row]);
    else group.push(row);
  }
  for (const [field, group] of byField) {
    const numeric = group.filter(
      (row) => typeof row.serviceValue === "number" && typeof row.recomputedValue === "number",
    );
    if (numeric.length >= 2 && numeric.some((row) => row.verdict !== "exact")) {
      const found =
        ratioDiagnosis(field, numeric) ??
        shiftDiagnosis(field, numeric) ??
        affineDiagnosis(field, numeric);
      if (found !== undefined) diagnoses.push(found);
    }
    const grid = gridDiagnosis(operationPath, field, group);
    if (grid !== undefined) diagnoses.push(grid);
  }
  const currentPrice = rows.find(
    (row) => /^(?:\[\]\.)?current_price$/.test(row.field) && row.verdict !== "exact",
  );
  if (currentPrice !== undefined) {
    diagnoses.push({
      kind: "current-price",
      field: currentPrice.field,
      rows: 1,
      message: `current_price differs (service ${String(currentPrice.serviceValue)}, recomputed ${String(currentPrice.recomputedValue)}): the records are for different spot prices, and price levels move with it`,
    });
  }
  const ensemble = ensembleDiagnosis(rows, summary);
  if (ensemble !== undefined) diagnoses.push(ensemble);
  return diagnoses;
}

function values(row: CrossCheckRow): { service: number; recomputed: number } {
  return { service: row.serviceValue as number, recomputed: row.recomputedValue as number };
}

function median(numbers: number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function ratioDiagnosis(field: string, rows: CrossCheckRow[]): Diagnosis | undefined {
  const ratios = rows
    .map(values)
    .filter(({ service, recomputed }) => recomputed !== 0 && service !== 0)
    .map(({ service, recomputed }) => service / recomputed);
  if (ratios.length < 2) return undefined;
  const ratio = median(ratios);
  if (!(Math.abs(ratio - 1) > 0.01) || !Number.isFinite(ratio)) return undefined;
  const consistent = rows.every((row) => {
    const { service, recomputed } = values(row);
    // Rounding on both sides, the recomputed value's Monte-Carlo band scaled to the service's unit.
    const allowed =
      row.roundingTolerance * (1 + Math.abs(ratio)) +
      (row.tolerance - row.roundingTolerance) * Math.abs(ratio) +
      1e-3 * Math.abs(service);
    return Math.abs(service - ratio * recomputed) <= allowed;
  });
  if (!consistent) return undefined;
  const unit = UNIT_RATIOS.find((candidate) => Math.abs(ratio / candidate.ratio - 1) <= 0.005);
  if (unit !== undefined) {
    return {
      kind: "unit",
      field,
      rows: rows.length,
      value: unit.ratio,
      message: `${field}: service = recomputed × ${unit.label} on all ${rows.length} values: a unit difference (${unit.meaning})`,
    };
  }
  return {
    kind: "ratio",
    field,
    rows: rows.length,
    value: ratio,
    message: `${field}: service = recomputed × ${ratio.toPrecision(6)} on all ${rows.length} values: a constant ratio (a different unit or scale)`,
  };
}

function shiftDiagnosis(field: string, rows: CrossCheckRow[]): Diagnosis | undefined {
  const differences = rows.map((row) => values(row).service - values(row).recomputed);
  const shift = median(differences);
  const largestRounding = Math.max(...rows.map((row) => row.roundingTolerance));
  if (!(Math.abs(shift) > largestRounding)) return undefined;
  const consistent = rows.every(
    (row, index) =>
      Math.abs(differences[index] - shift) <= 2 * row.roundingTolerance + 1e-9 * Math.abs(shift),
  );
  if (!consistent) return undefined;
  return {
    kind: "shift",
    field,
    rows: rows.length,
    value: shift,
    message: `${field}: service = recomputed ${shift >= 0 ? "+" : "−"} ${Math.abs(shift).toPrecision(6)} on all ${rows.length} values: a constant shift (paths re-based additively to a different price, or not re-based)`,
  };
}

function affineDiagnosis(field: string, rows: CrossCheckRow[]): Diagnosis | undefined {
  if (rows.length < 5) return undefined;
  const points = rows.map(values);
  const n = points.length;
  let meanX = 0;
  let meanY = 0;
  for (const { service, recomputed } of points) {
    meanX += recomputed / n;
    meanY += (service - recomputed) / n;
  }
  let covariance = 0;
  let varianceX = 0;
  let varianceY = 0;
  for (const { service, recomputed } of points) {
    const dx = recomputed - meanX;
    const dy = service - recomputed - meanY;
    covariance += dx * dy;
    varianceX += dx * dx;
    varianceY += dy * dy;
  }
  if (!(varianceX > 0 && varianceY > 0)) return undefined;
  const slope = covariance / varianceX;
  const determination = (covariance * covariance) / (varianceX * varianceY);
  if (!(determination >= 0.99)) return undefined;
  const scale = 1 + slope;
  const intercept = meanY - slope * meanX;
  return {
    kind: "rebase",
    field,
    rows: rows.length,
    value: scale,
    message: `${field}: service ≈ ${scale.toPrecision(8)} × recomputed ${intercept >= 0 ? "+" : "−"} ${Math.abs(intercept).toPrecision(6)} on all ${rows.length} values (R² ${determination.toFixed(4)}): a re-base that scales prices (multiplicative p·c/p₀ against additive p − p₀ + c, or the reverse)`,
  };
}

function gridDiagnosis(
  operationPath: string,
  field: string,
  group: CrossCheckRow[],
): Diagnosis | undefined {
  if (!field.endsWith("{}")) return undefined;
  const serviceOnly = group.filter(
    (row) => row.verdict === "missing" && row.recomputedValue === undefined,
  );
  const recomputedOnly = group.filter(
    (row) => row.verdict === "missing" && row.serviceValue === undefined,
  );
  if (serviceOnly.length === 0 || recomputedOnly.length === 0) return undefined;
  const what = operationPath === "/insights/option-pricing" ? "strike grid" : "level grid";
  const sample = (rows: CrossCheckRow[]) =>
    rows
      .slice(0, 3)
      .map((row) => row.key)
      .join(", ");
  return {
    kind: "grid",
    field,
    rows: serviceOnly.length + recomputedOnly.length,
    message: `${field}: keys differ: ${serviceOnly.length} only in the service record (${sample(serviceOnly)}…), ${recomputedOnly.length} only in the recomputed one (${sample(recomputedOnly)}…): a different ${what}`,
  };
}

function ensembleDiagnosis(
  rows: readonly CrossCheckRow[],
  summary: CrossCheckSummary,
): Diagnosis | undefined {
  const differing = summary.counts["within-mc"] + summary.counts.mismatch;
  const start = rows.find((row) => /^(?:\[\]\.)?forecast_start_time$/.test(row.field));
  if (start !== undefined && start.verdict === "mismatch") {
    return {
      kind: "ensemble",
      field: start.field,
      rows: differing,
      message: `forecast_start_time differs (service ${String(start.serviceValue)}, recomputed ${String(start.recomputedValue)}): a different ensemble (another prompt's paths); ${summary.counts["within-mc"]} values within Monte-Carlo error, ${summary.counts.mismatch} mismatched`,
    };
  }
  if (summary.counts["within-mc"] > 0 && summary.counts.mismatch === 0) {
    return {
      kind: "ensemble",
      field: undefined,
      rows: summary.counts["within-mc"],
      message: `${summary.counts["within-mc"]} values differ within Monte-Carlo error and none beyond it: the same computation on a different ensemble (other miners or paths)`,
    };
  }
  return undefined;
}
