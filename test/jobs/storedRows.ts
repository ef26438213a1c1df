/**
 * What a sync or a score stored, read back for comparisons between runs: every row of the tables
 * the job writes, without what differs between two runs of the same inputs by nature (run ids, row
 * ids, the time rows were fetched); and a digest of them (rows and SHA-256 per table) for fixtures.
 */

import { createHash } from "node:crypto";
import { openStore, type Store } from "../../src/store/openStore.ts";
import { queryRows } from "../../src/store/queryRows.ts";

const SYNC_QUERIES: Readonly<Record<string, string>> = {
  insights: `select operation, asset, horizon, forecast_start_time, source, CAST(record AS VARCHAR)
    from insights order by all`,
  insight_values: `select i.operation, i.asset, i.horizon, i.source, v.field, v.key, v.value
    from insight_values v join insights i on i.id = v.insight_id order by all`,
  crosschecks: "select * exclude (run_id) from crosschecks order by all",
  path_sets: "select * exclude (id, run_id, fetched_at) from path_sets order by all",
  path_values: `select s.asset, s.miner_uid, s.start_time, s.time_length, count(*),
    sum(list_sum(v.prices)), sum(len(v.prices))
    from path_values v join path_sets s on s.id = v.path_set_id group by all order by all`,
  leaderboard_rows: "select * exclude (run_id) from leaderboard_rows order by all",
  // decided, edge_side and net_edge (migration 7), between_miner_standard_error and tradable
  // (migration 8) postdate the speed-parity fixtures; they are tested on their own
  // (test/jobs/sync/venueJudgement.test.ts, test/insights/betweenMiners.test.ts).
  venue_comparisons: `select * exclude (run_id, record, decided, edge_side, net_edge,
      between_miner_standard_error, tradable),
    CAST(record AS VARCHAR) from venue_comparisons order by all`,
};

const SCORE_TABLES = [
  "prompts",
  "miner_scores",
  "smoothed_scores",
  "service_scores",
  "calibration",
  "rank_history",
] as const;

async function rowsOf(
  database: string,
  queries: Readonly<Record<string, string>>,
): Promise<Record<string, unknown[]>> {
  const store = await openStore(database, { readOnly: true });
  try {
    return await rowsIn(store, queries);
  } finally {
    await store.close();
  }
}

async function rowsIn(
  store: Store,
  queries: Readonly<Record<string, string>>,
): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const [table, sql] of Object.entries(queries)) {
    result[table] = (await queryRows(store, sql)).rows as unknown[];
  }
  return result;
}

/** The rows a sync stored, read from an open store (a lake's views, say). */
export function syncRowsIn(store: Store): Promise<Record<string, unknown[]>> {
  return rowsIn(store, SYNC_QUERIES);
}

/** The rows a sync stored (see the module comment). */
export function syncRows(database: string): Promise<Record<string, unknown[]>> {
  return rowsOf(database, SYNC_QUERIES);
}

/** Every row of the scoring tables, without run ids. */
export function scoreRows(database: string): Promise<Record<string, unknown[]>> {
  const queries = Object.fromEntries(
    SCORE_TABLES.map((table) => [table, `select * exclude (run_id) from ${table} order by all`]),
  );
  return rowsOf(database, queries);
}

/** Per table: its number of rows and the SHA-256 of their JSON (bigints as decimal strings). */
export function digestRows(
  tables: Record<string, unknown[]>,
): Record<string, { rows: number; sha256: string }> {
  const json = (value: unknown) =>
    JSON.stringify(value, (_key, item: unknown) =>
      typeof item === "bigint" ? item.toString() : item,
    );
  return Object.fromEntries(
    Object.entries(tables).map(([table, rows]) => [
      table,
      { rows: rows.length, sha256: createHash("sha256").update(json(rows)).digest("hex") },
    ]),
  );
}
