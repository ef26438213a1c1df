/**
 * Insight records in the store: one `insights` row per (operation, asset, horizon, forecast start,
 * source) holding the record as JSON, and its numeric leaves in `insight_values` for SQL; and the
 * service's records read back (the units a database holds, the snapshots `pathlab audit` reads).
 */

import { listValue, type DuckDBConnection, type DuckDBValue } from "@duckdb/node-api";
import type { Horizon } from "../domain/assets.ts";
import { appendRowsInTurns } from "./appendInTurns.ts";
import { insightLeaves } from "./insightLeaves.ts";
import type { Store } from "./openStore.ts";
import { queryRows } from "./queryRows.ts";
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

const UPSERT_INSIGHTS = `
INSERT INTO insights (operation, asset, horizon, forecast_start_time, source, record, run_id)
SELECT unnest($operations), $asset, $horizon, $forecast_start_time, unnest($sources),
  unnest($records), $run_id
ON CONFLICT (operation, asset, horizon, forecast_start_time, source) DO UPDATE SET
  record = excluded.record, run_id = excluded.run_id
RETURNING id, operation, source`;

const DELETE_INSIGHT_VALUES = `
DELETE FROM insight_values WHERE insight_id IN (SELECT unnest($insight_ids))`;

/**
 * Writes `entries` on `connection`, which must be inside a transaction (see `writeUnit`): the
 * records are upserted on their natural key in one statement, and their numeric leaves (see
 * {@link insightLeaves}) replace those stored before. Returns the insight ids, in order. Throws a
 * TypeError naming the operation when a record cannot be written as JSON, and a RangeError, having
 * written nothing, when two entries share an operation and source.
 * @example
 * const ids = await insertInsights(connection, place, [{ operation: "/insights/liquidation", source: "recomputed", record }]);
 */
export async function insertInsights(
  connection: DuckDBConnection,
  place: InsightPlace,
  entries: readonly InsightEntry[],
): Promise<number[]> {
  if (entries.length === 0) return [];
  const keys = entries.map((entry) => `${entry.operation} (${entry.source})`);
  const repeated = keys.findIndex((key, index) => keys.indexOf(key) !== index);
  if (repeated !== -1) {
    throw new RangeError(
      `insertInsights requires each record once per write, got ${keys[repeated]} twice`,
    );
  }
  const reader = await connection.runAndReadAll(UPSERT_INSIGHTS, {
    operations: listValue(entries.map((entry) => entry.operation)),
    asset: place.asset,
    horizon: place.horizon,
    forecast_start_time: timestampOfUnix(place.forecastStartTimeUnix),
    sources: listValue(entries.map((entry) => entry.source)),
    records: listValue(entries.map(recordJson)),
    run_id: place.runId,
  });
  const idByKey = new Map<string, number>();
  for (const [id, operation, source] of reader.getRowsJS()) {
    idByKey.set(`${String(operation)} (${String(source)})`, Number(id));
  }
  const ids = keys.map((key) => idByKey.get(key) as number);
  await connection.run(DELETE_INSIGHT_VALUES, { insight_ids: listValue(ids.map(BigInt)) });
  await appendRowsInTurns(connection, "insight_values", insightValueRows(ids, entries));
  return ids;
}

/** The `insight_values` rows of `entries` (their ids `ids`), made as they are appended. */
function* insightValueRows(
  ids: readonly number[],
  entries: readonly InsightEntry[],
): Generator<(DuckDBValue | null)[]> {
  for (let index = 0; index < entries.length; index++) {
    const id = BigInt(ids[index]);
    for (const leaf of insightLeaves(entries[index].record)) {
      yield [id, leaf.field, leaf.key, leaf.value];
    }
  }
}

/** The record of `entry` as JSON; a TypeError names the operation when JSON cannot hold it. */
function recordJson(entry: InsightEntry): string {
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
  return json;
}

const SELECT_SERVICE_RECORD_PLACES = `
SELECT DISTINCT asset, horizon, epoch(forecast_start_time)::BIGINT FROM insights
WHERE source = 'service'`;

const SELECT_SERVICE_RECORD_ASSETS = `
SELECT DISTINCT asset FROM insights WHERE source = 'service' AND horizon = $horizon ORDER BY asset`;

const SELECT_LATEST_SERVICE_RECORDS = `
SELECT operation, record::VARCHAR, strftime(forecast_start_time, '%Y-%m-%dT%H:%M:%SZ')
FROM insights
WHERE source = 'service' AND horizon = $horizon AND asset = $asset AND forecast_start_time =
  (SELECT max(forecast_start_time) FROM insights
   WHERE source = 'service' AND horizon = $horizon AND asset = $asset)`;

/**
 * Every asset, horizon and forecast start of which `store` holds a record of the service, in no
 * particular order.
 * @example (await serviceRecordPlaces(store))[0] // => { asset: "BTC", horizon: "1h", forecastStartUnix: 1795341600 }
 */
export async function serviceRecordPlaces(
  store: Store,
): Promise<{ asset: string; horizon: Horizon; forecastStartUnix: number }[]> {
  const rows = await store.withConnection(async (connection) =>
    (await connection.runAndReadAll(SELECT_SERVICE_RECORD_PLACES)).getRowsJS(),
  );
  return rows.map(([asset, horizon, startUnix]) => ({
    asset: String(asset),
    horizon: horizon as Horizon,
    forecastStartUnix: Number(startUnix),
  }));
}

/**
 * The assets of which `store` holds records of the service at `horizon`, in order.
 * @example await serviceRecordAssets(store, "24h") // => ["BTC", "ETH"]
 */
export async function serviceRecordAssets(store: Store, horizon: Horizon): Promise<string[]> {
  const { rows } = await queryRows(store, SELECT_SERVICE_RECORD_ASSETS, { horizon });
  return rows.map((row) => String(row[0]));
}

/**
 * The service's records of `asset` at `horizon` and its latest stored forecast start (ISO 8601,
 * whole seconds), one per operation; none when `store` holds none.
 * @example const [{ operation, record, forecastStartTime }] = await latestServiceRecords(store, "BTC", "24h");
 */
export async function latestServiceRecords(
  store: Store,
  asset: string,
  horizon: Horizon,
): Promise<{ operation: string; record: unknown; forecastStartTime: string }[]> {
  const { rows } = await queryRows(store, SELECT_LATEST_SERVICE_RECORDS, { horizon, asset });
  return rows.map(([operation, record, start]) => ({
    operation: String(operation),
    record: JSON.parse(String(record)) as unknown,
    forecastStartTime: String(start),
  }));
}
