/**
 * A cross-check's rows as the store keeps them (`crosschecks` table).
 */

import type { CrossCheckResult } from "../../crosscheck/crossCheck.ts";
import type { CrossCheckValue } from "../../crosscheck/verdicts.ts";
import type { CrosscheckEntry } from "../../store/crosschecks.ts";

/**
 * One store row per compared value of `result`: `field` is the generic field
 * (`data[].long_liquidation_probability{}`), `key` the value's JSON path
 * (`data[0].long_liquidation_probability["6"]`, unique within the record), the verdict as
 * `crossCheck` gave it, the `within-mc` bound as the tolerance (null when not finite), and numbers
 * as numbers. Values that are not numbers (times, outcomes, missing) are null in the value columns
 * and written into `detail` with the standard error and z when known.
 * @example
 * const entries = crosscheckEntries("/insights/liquidation", crossCheck(path, service, recomputed, options));
 * entries[0].verdict // => "exact"
 */
export function crosscheckEntries(operation: string, result: CrossCheckResult): CrosscheckEntry[] {
  return result.rows.map((row) => {
    const notes: string[] = [];
    if (typeof row.serviceValue !== "number" || typeof row.recomputedValue !== "number") {
      notes.push(
        `service ${describe(row.serviceValue)}, recomputed ${describe(row.recomputedValue)}`,
      );
    }
    if (Number.isFinite(row.z)) notes.push(`z ${row.z.toPrecision(3)}`);
    if (Number.isFinite(row.standardError)) {
      notes.push(`standard error ${row.standardError.toPrecision(3)}`);
    }
    const entry: CrosscheckEntry = {
      operation,
      field: row.field,
      key: row.path,
      serviceValue: typeof row.serviceValue === "number" ? row.serviceValue : null,
      recomputedValue: typeof row.recomputedValue === "number" ? row.recomputedValue : null,
      tolerance: Number.isFinite(row.tolerance) ? row.tolerance : null,
      verdict: row.verdict,
      ...(notes.length > 0 && { detail: notes.join("; ") }),
    };
    return entry;
  });
}

function describe(value: CrossCheckValue): string {
  return value === undefined ? "absent" : JSON.stringify(value);
}
