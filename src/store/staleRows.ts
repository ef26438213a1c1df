/**
 * The rows an earlier write of a unit derived from its ensemble that the unit written again no
 * longer has, removed inside the unit's transaction (see `writeUnit`).
 */

import type { DuckDBConnection, DuckDBValue } from "@duckdb/node-api";
import type { CrosscheckEntry } from "./crosschecks.ts";
import type { InsightEntry, InsightPlace } from "./insights.ts";
import type { VenueComparisonEntry } from "./venueComparisons.ts";
import { timestampOfUnix } from "./timestamps.ts";

const PLACE = `asset = $asset AND horizon = $horizon AND forecast_start_time = $forecast_start_time`;

/**
 * Removes, at `place`, what a new write of the unit replaces whole:
 * - when `insights` are given, the recomputed records of operations among them no more (with their
 *   numeric leaves): the earlier ensemble's;
 * - when `crosschecks` are given, the cross-check rows of operations among them no more;
 * - when `venueComparisons` are given, the comparisons of the place's operations (those with a
 *   record stored at the place) among them no more. The comparisons table has no horizon: each
 *   venue operation belongs to one horizon, so the place's operations name only its own rows.
 * The service's records stay: they are the service's answer at that forecast start, whichever
 * ensemble pathlab recomputed from, and a new write upserts those it fetched again.
 * @example await removeStaleDerivedRows(connection, place, { insights, crosschecks });
 */
export async function removeStaleDerivedRows(
  connection: DuckDBConnection,
  place: InsightPlace,
  unit: {
    readonly insights?: readonly InsightEntry[];
    readonly crosschecks?: readonly CrosscheckEntry[];
    readonly venueComparisons?: readonly VenueComparisonEntry[];
  },
): Promise<void> {
  const params: Record<string, DuckDBValue> = {
    asset: place.asset,
    horizon: place.horizon,
    forecast_start_time: timestampOfUnix(place.forecastStartTimeUnix),
  };
  if (unit.insights !== undefined) {
    const kept = new Set(
      unit.insights.filter((entry) => entry.source === "recomputed").map((e) => e.operation),
    );
    const stale = (
      await operationsAt(
        connection,
        `SELECT operation FROM insights WHERE ${PLACE} AND source = 'recomputed'`,
        params,
      )
    ).filter((operation) => !kept.has(operation));
    for (const operation of stale) {
      const where = `${PLACE} AND source = 'recomputed' AND operation = $operation`;
      await connection.run(
        `DELETE FROM insight_values WHERE insight_id IN (SELECT id FROM insights WHERE ${where})`,
        { ...params, operation },
      );
      await connection.run(`DELETE FROM insights WHERE ${where}`, { ...params, operation });
    }
  }
  if (unit.venueComparisons !== undefined) {
    const kept = new Set(unit.venueComparisons.map((entry) => entry.operation));
    const stale = (
      await operationsAt(
        connection,
        `SELECT DISTINCT operation FROM insights WHERE ${PLACE}`,
        params,
      )
    ).filter((operation) => !kept.has(operation));
    for (const operation of stale) {
      await connection.run(
        `DELETE FROM venue_comparisons
         WHERE operation = $operation AND asset = $asset AND forecast_start_time = $forecast_start_time`,
        { operation, asset: params.asset, forecast_start_time: params.forecast_start_time },
      );
    }
  }
  if (unit.crosschecks !== undefined) {
    const kept = new Set(unit.crosschecks.map((entry) => entry.operation));
    const stale = (
      await operationsAt(
        connection,
        `SELECT DISTINCT operation FROM crosschecks WHERE ${PLACE}`,
        params,
      )
    ).filter((operation) => !kept.has(operation));
    for (const operation of stale) {
      await connection.run(`DELETE FROM crosschecks WHERE ${PLACE} AND operation = $operation`, {
        ...params,
        operation,
      });
    }
  }
}

async function operationsAt(
  connection: DuckDBConnection,
  sql: string,
  params: Record<string, DuckDBValue>,
): Promise<string[]> {
  const reader = await connection.runAndReadAll(sql, params);
  return reader.getRowsJS().map((row) => String(row[0]));
}
