/**
 * The rows an earlier write of a unit derived from its ensemble that the unit written again no
 * longer has, removed inside the unit's transaction (see `writeUnit`).
 */

import { listValue, type DuckDBConnection, type DuckDBValue } from "@duckdb/node-api";
import { DELETE_CROSSCHECKS, type CrosscheckEntry } from "./crosschecks.ts";
import type { InsightEntry, InsightPlace } from "./insights.ts";
import { DELETE_VENUE_COMPARISONS, type VenueComparisonEntry } from "./venueComparisons.ts";
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
  const { asset, forecast_start_time } = params;
  /** The operations `sql` finds at the place that `kept` no longer has. */
  const stale = async (sql: string, kept: Iterable<string>): Promise<string[]> => {
    const keep = new Set(kept);
    const reader = await connection.runAndReadAll(sql, params);
    return reader
      .getRowsJS()
      .map((row) => String(row[0]))
      .filter((operation) => !keep.has(operation));
  };
  if (unit.insights !== undefined) {
    const recomputed = unit.insights.filter((entry) => entry.source === "recomputed");
    const operations = await stale(
      `SELECT operation FROM insights WHERE ${PLACE} AND source = 'recomputed'`,
      recomputed.map((entry) => entry.operation),
    );
    if (operations.length > 0) {
      const where = `${PLACE} AND source = 'recomputed' AND operation IN (SELECT unnest($operations))`;
      const listed = { ...params, operations: listValue(operations) };
      await connection.run(
        `DELETE FROM insight_values WHERE insight_id IN (SELECT id FROM insights WHERE ${where})`,
        listed,
      );
      await connection.run(`DELETE FROM insights WHERE ${where}`, listed);
    }
  }
  if (unit.venueComparisons !== undefined) {
    const operations = await stale(
      `SELECT DISTINCT operation FROM insights WHERE ${PLACE}`,
      unit.venueComparisons.map((entry) => entry.operation),
    );
    if (operations.length > 0) {
      await connection.run(DELETE_VENUE_COMPARISONS, {
        operations: listValue(operations),
        asset,
        forecast_start_time,
      });
    }
  }
  if (unit.crosschecks !== undefined) {
    const operations = await stale(
      `SELECT DISTINCT operation FROM crosschecks WHERE ${PLACE}`,
      unit.crosschecks.map((entry) => entry.operation),
    );
    if (operations.length > 0) {
      await connection.run(DELETE_CROSSCHECKS, { ...params, operations: listValue(operations) });
    }
  }
}
