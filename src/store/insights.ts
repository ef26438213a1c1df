/**
 * Insight records in the store: one `insights` row per (operation, asset, horizon, forecast start,
 * source) holding the record as JSON, and its numeric leaves in `insight_values` for SQL.
 */

import { DuckDBDataChunkWriter, type DuckDBConnection } from "@duckdb/node-api";
import type { Horizon } from "../domain/assets.ts";
import { insightLeaves } from "./insightLeaves.ts";
import { timestampOfUnix } from "./timestamps.ts";

/**
 * An insight record to store: the service's (`"service"`) or pathlab's recomputation
 * (`"recomputed"`) of the operation at the unit's forecast start.
 * @example const entry: InsightEntry = { operation: "/insights/liquidation", source: "service", record };
 */
export interface InsightEntry {
  /** The operation's path in the spec (`/insights/liquidation`). */
  readonly operation: string;
  readonly source: "service" | "recomputed";
  /** The record, as decoded (neutral field names); stored as its JSON. */
  readonly record: unknown;
}

/**
 * Where the rows of a unit belong: its asset, horizon, forecast start and run.
 * @example const place: InsightPlace = { asset: "BTC", horizon: "24h", forecastStartTimeUnix: 1772063100, runId: null };
 */
export interface InsightPlace {
  readonly asset: string;
  readonly horizon: Horizon;
  /** Unix seconds. */
  readonly forecastStartTimeUnix: number;
  readonly runId: number | null;
}

const UPSERT_INSIGHT = `
INSERT INTO insights (operation, asset, horizon, forecast_start_time, source, record, run_id)
VALUES ($operation, $asset, $horizon, $forecast_start_time, $source, $record, $run_id)
ON CONFLICT (operation, asset, horizon, forecast_start_time, source) DO UPDATE SET
  record = excluded.record, run_id = excluded.run_id
RETURNING id`;

const DELETE_INSIGHT_VALUES = `DELETE FROM insight_values WHERE insight_id = $insight_id`;

/**
 * Writes `entries` on `connection`, which must be inside a transaction (see `writeUnit`): each
 * record is upserted on its natural key and its numeric leaves (see {@link insightLeaves}) replace
 * those stored before. Returns the insight ids, in order. Throws a TypeError naming the operation
 * when a record cannot be written as JSON.
 * @example
 * const ids = await insertInsights(connection, place, [{ operation: "/insights/liquidation", source: "recomputed", record }]);
 */
export async function insertInsights(
  connection: DuckDBConnection,
  place: InsightPlace,
  entries: readonly InsightEntry[],
): Promise<number[]> {
  if (entries.length === 0) return [];
  const ids: number[] = [];
  const forecastStart = timestampOfUnix(place.forecastStartTimeUnix);
  for (const entry of entries) {
    let json: string | undefined;
    try {
      json = JSON.stringify(entry.record);
    } catch (error) {
      throw new TypeError(
        `insertInsights: ${entry.operation} (${entry.source}): expected a record that JSON can hold, got one that JSON.stringify refuses: ${(error as Error).message}`,
        { cause: error },
      );
    }
    if (json === undefined) {
      throw new TypeError(
        `insertInsights: ${entry.operation} (${entry.source}): expected a record, got ${String(entry.record)}`,
      );
    }
    const reader = await connection.runAndReadAll(UPSERT_INSIGHT, {
      operation: entry.operation,
      asset: place.asset,
      horizon: place.horizon,
      forecast_start_time: forecastStart,
      source: entry.source,
      record: json,
      run_id: place.runId,
    });
    const id = Number(reader.getRowsJS()[0][0]);
    await connection.run(DELETE_INSIGHT_VALUES, { insight_id: id });
    ids.push(id);
  }
  const appender = await connection.createAppender("insight_values");
  try {
    const writer = DuckDBDataChunkWriter.forAppender(appender);
    entries.forEach((entry, index) => {
      const id = BigInt(ids[index]);
      for (const leaf of insightLeaves(entry.record)) {
        writer.appendRow([id, leaf.field, leaf.key, leaf.value]);
      }
    });
    writer.flush();
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  return ids;
}
