/**
 * Cross-check rows in the store: one row per number compared between the service's record and
 * pathlab's recomputation, with the tolerance and the verdict.
 */

import {
  listValue,
  type DuckDBConnection,
  type DuckDBTimestampValue,
  type DuckDBValue,
} from "@duckdb/node-api";
import { appendRowsInTurns } from "./appendInTurns.ts";
import type { InsightPlace } from "./insights.ts";
import { timestampOfUnix } from "./timestamps.ts";

/**
 * One compared number. `field` and `key` locate it in the record (as in `insight_values`);
 * the verdict is the cross-check's word for the comparison (`match`, `mismatch`, `missing`…).
 * @example
 * const row: CrosscheckEntry = { operation: "/insights/liquidation", field: "data.long_liquidation_probability", key: "5.0%/12", serviceValue: 0.0412, recomputedValue: 0.0398, tolerance: 0.0063, verdict: "match" };
 */
export interface CrosscheckEntry {
  /** The operation's path in the spec. */
  readonly operation: string;
  readonly field: string;
  readonly key: string;
  /** Null when the service's record lacks the number. */
  readonly serviceValue: number | null;
  /** Null when pathlab could not recompute it. */
  readonly recomputedValue: number | null;
  /** The allowed absolute difference, when the verdict used one. */
  readonly tolerance: number | null;
  readonly verdict: string;
  /** One line of explanation, when there is more to say than the verdict. */
  readonly detail?: string;
}

/** Removes the rows of the listed operations at one place (asset, horizon, forecast start). */
export const DELETE_CROSSCHECKS = `
DELETE FROM crosschecks
WHERE operation IN (SELECT unnest($operations)) AND asset = $asset AND horizon = $horizon
  AND forecast_start_time = $forecast_start_time`;

/**
 * Writes `entries` on `connection`, inside the unit's transaction: for each operation among them,
 * the rows stored before for this asset, horizon and forecast start are replaced by the new ones.
 * `difference` is stored as recomputed − service (null when either is missing). Returns the number
 * of rows written.
 * @example await insertCrosschecks(connection, place, rows) // => rows.length
 */
export async function insertCrosschecks(
  connection: DuckDBConnection,
  place: InsightPlace,
  entries: readonly CrosscheckEntry[],
): Promise<number> {
  if (entries.length === 0) return 0;
  const forecastStart = timestampOfUnix(place.forecastStartTimeUnix);
  await connection.run(DELETE_CROSSCHECKS, {
    operations: listValue([...new Set(entries.map((entry) => entry.operation))]),
    asset: place.asset,
    horizon: place.horizon,
    forecast_start_time: forecastStart,
  });
  return appendRowsInTurns(
    connection,
    "crosschecks",
    crosscheckRows(place, forecastStart, entries),
  );
}

/** The `crosschecks` rows of `entries`, in table order, made as they are appended. */
function* crosscheckRows(
  place: InsightPlace,
  forecastStart: DuckDBTimestampValue,
  entries: readonly CrosscheckEntry[],
): Generator<(DuckDBValue | null)[]> {
  const runId = place.runId === null ? null : BigInt(place.runId);
  for (const entry of entries) {
    yield [
      entry.operation,
      place.asset,
      place.horizon,
      forecastStart,
      entry.field,
      entry.key,
      entry.serviceValue,
      entry.recomputedValue,
      entry.serviceValue === null || entry.recomputedValue === null
        ? null
        : entry.recomputedValue - entry.serviceValue,
      entry.tolerance,
      entry.verdict,
      entry.detail ?? null,
      runId,
    ];
  }
}
