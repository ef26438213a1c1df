/**
 * `pathlab sync --lake`: each unit is stored into a store of its own in memory, then moved into
 * the lake as that unit's files (the layout of `writeLakeUnit`), so that readers (`pathlab query
 * --lake`, the notebooks) are never locked out while the sync goes on, and a rerun replaces a
 * unit's files instead of adding to them.
 *
 * Two things the DuckDB file gets from its constraints the lake gets here instead:
 * - Surrogate ids. `path_sets.id` and `insights.id` (which `path_values` and `insight_values`
 *   point at) come from a sequence that starts again in every store, so each unit's store would
 *   give its first path set the id 1. Before the move, each id becomes its row's natural key
 *   packed into bits (the minute, the miner, codes of the asset and layout, …): unique by
 *   construction, the same in every run and process, and below 2^53; its values follow it.
 * - One copy of a leaderboard. The units of one competition store the same meta-leaderboard; in
 *   the lake it is a unit of its own (`leaderboard.<competition>.<as of>`), which the next unit
 *   with the same leaderboard replaces with the same rows.
 * The rows' `run_id` is left empty, as a queue worker's: runs are the DuckDB file's bookkeeping.
 *
 * Also the units a database or a lake holds already, by key, which `sync --watch` leaves out.
 */

import type { Horizon } from "../../domain/assets.ts";
import { INSIGHT_PATHS_BY_LAKE_CODE } from "../../domain/insightKindLists.ts";
import { readStoreOrLake, writeLakeUnit, type LakeUnit } from "../../store/lake.ts";
import { lakeTimes } from "../../store/lakeTimes.ts";
import type { Store } from "../../store/openStore.ts";
import type { TradableEdge } from "../../store/venueComparisons.ts";
import { syncUnitKey, type SyncUnitPlan } from "./plan.ts";

/**
 * The tables of a sync unit but the leaderboard, `insights` last: a unit counts as stored
 * (`storedSyncUnitKeys`, which a watch leaves out) only once every other table of it is written.
 */
const UNIT_TABLES = [
  "path_sets",
  "path_values",
  "crosschecks",
  "venue_comparisons",
  "insight_values",
  "insights",
];

/**
 * The codes that make a row's lake id from its natural key. Append only: an id is made of
 * positions in these lists, so a value keeps its code in every lake (test/jobs/syncLake.test.ts
 * checks that every asset and operation of the spec has one).
 */
export const LAKE_ID_CODES = {
  assets: ["BTC", "ETH", "SOL", "XAU", "SPYX", "NVDAX", "GOOGLX", "TSLAX", "AAPLX"],
  /** The insight kinds by their lake code (`lakeCode` in the registry). */
  operations: INSIGHT_PATHS_BY_LAKE_CODE,
  sources: ["service", "recomputed"],
} as const;

/** Minutes from the Unix epoch to 2020-01-01: ids count minutes from there (27 bits: 255 years). */
const ID_EPOCH_MINUTE = 26_297_280;

const list = (values: readonly string[]) => `[${values.map((value) => `'${value}'`).join(", ")}]`;
/** A value's position in `values`, or -1 (outside every field's range) when it is not there. */
const code = (values: readonly string[], column: string) =>
  `coalesce(list_position(${list(values)}, ${column}), 0) - 1`;
/** Minutes since 2020, or -1 for a time that is not a whole minute (two such would share an id). */
const minute = (column: string) =>
  `CASE WHEN epoch(${column})::BIGINT % 60 = 0 THEN epoch(${column})::BIGINT // 60 - ${ID_EPOCH_MINUTE} ELSE -1 END`;

/**
 * Each surrogate id, its lake id as bit fields of its natural key (below 2^53, so that it is an
 * exact JavaScript number), the fields' bounds, and the table of values that points at it.
 */
const SURROGATE_IDS = [
  {
    table: "path_sets",
    fields: {
      minute: [minute("start_time"), 27],
      miner: ["miner_uid + 1", 12],
      asset: [code(LAKE_ID_CODES.assets, "asset"), 6],
      layout: [
        "CASE WHEN time_increment = 60 AND time_length = 3600 THEN 0 WHEN time_increment = 300 AND time_length = 86400 THEN 1 ELSE -1 END",
        2,
      ],
    },
    values: "path_values",
    reference: "path_set_id",
  },
  {
    table: "insights",
    fields: {
      minute: [minute("forecast_start_time"), 27],
      operation: [code(LAKE_ID_CODES.operations, "operation"), 7],
      asset: [code(LAKE_ID_CODES.assets, "asset"), 6],
      horizon: ["CASE horizon WHEN '1h' THEN 0 WHEN '24h' THEN 1 ELSE -1 END", 1],
      source: [code(LAKE_ID_CODES.sources, "source"), 2],
    },
    values: "insight_values",
    reference: "insight_id",
  },
] as const;

/** The lake id of a table's rows, and the check that every field fits its bits. */
function lakeId(fields: Readonly<Record<string, readonly [string, number]>>) {
  let shift = 0;
  const parts: string[] = [];
  const checks: string[] = [];
  for (const [name, [expression, bits]] of Object.entries(fields).reverse()) {
    parts.push(`((${expression})::BIGINT << ${shift})`);
    checks.push(`CASE WHEN (${expression}) NOT BETWEEN 0 AND ${2 ** bits - 1} THEN '${name}' END`);
    shift += bits;
  }
  return { id: parts.join(" | "), outOfRange: `coalesce(${checks.join(", ")})` };
}

/**
 * The natural keys (`syncUnitKey`) of the units in `store`, or in the lake at `lake` (none when it
 * is not a lake yet): every asset, horizon and forecast start of a stored service record.
 * @example const stored = await storedSyncUnitKeys(store); stored.has("sync.BTC.1h.20261121T100000Z")
 */
export async function storedSyncUnitKeys(store: Store, lake?: string): Promise<Set<string>> {
  const rows = await readStoreOrLake(store, lake, (source) =>
    source.withConnection(async (connection) =>
      (
        await connection.runAndReadAll(
          `SELECT DISTINCT asset, horizon, epoch(forecast_start_time)::BIGINT FROM insights
           WHERE source = 'service'`,
        )
      ).getRowsJS(),
    ),
  );
  return new Set(
    (rows ?? []).map(([asset, horizon, startUnix]) =>
      syncUnitKey({ asset: String(asset), horizon: horizon as Horizon }, Number(startUnix)),
    ),
  );
}

/**
 * Moves the one unit that `store` holds into `lake` (see the module comment): its ids made stable,
 * its run ids cleared, then its leaderboard written as the leaderboard's unit and its tables as
 * the unit's files. `store` is changed on the way and is meant to be closed after. Resolves to
 * the count of the unit's rows written (its leaderboard's too).
 * @example const rows = await moveSyncUnitToLake(unitStore, "./lake", plan, startUnix);
 */
export async function moveSyncUnitToLake(
  store: Store,
  lake: string,
  plan: SyncUnitPlan,
  startUnix: number,
): Promise<number> {
  const leaderboardTimes = await store.withConnection(async (connection) => {
    for (const { table, fields, values, reference } of SURROGATE_IDS) {
      const { id, outOfRange } = lakeId(fields);
      const [bad] = (
        await connection.runAndReadAll(
          `SELECT ${outOfRange} AS field, * EXCLUDE (id) FROM ${table} WHERE ${outOfRange} IS NOT NULL LIMIT 1`,
        )
      ).getRowObjectsJson();
      if (bad !== undefined) {
        throw new Error(
          `sync --lake: a row of ${table} has no lake id: its ${String(bad.field)} is outside what the id can hold (LAKE_ID_CODES, syncLake.ts): ${JSON.stringify(bad)}`,
        );
      }
      await connection.run(
        `CREATE TEMP TABLE stable_ids AS SELECT id AS old, ${id} AS new FROM ${table}`,
      );
      await connection.run(
        `UPDATE ${values} SET ${reference} = stable_ids.new FROM stable_ids WHERE ${values}.${reference} = stable_ids.old`,
      );
      await connection.run(
        `UPDATE ${table} SET id = stable_ids.new FROM stable_ids WHERE ${table}.id = stable_ids.old`,
      );
      await connection.run("DROP TABLE stable_ids");
    }
    for (const table of [...UNIT_TABLES, "leaderboard_rows"]) {
      if (table.endsWith("_values")) continue; // no run id
      await connection.run(`UPDATE ${table} SET run_id = NULL`);
    }
    return (
      await connection.runAndReadAll(
        "SELECT DISTINCT epoch(as_of)::BIGINT FROM leaderboard_rows ORDER BY ALL",
      )
    )
      .getRowsJS()
      .map(([asOf]) => Number(asOf));
  });
  const unit: LakeUnit = {
    key: syncUnitKey(plan, startUnix),
    competition: plan.competition,
    asset: plan.asset,
    date: lakeTimes(startUnix).date,
  };
  // a unit stores one leaderboard, the ranking of its competition: its own lake unit, first
  if (leaderboardTimes.length > 1) {
    throw new Error(
      `sync --lake: unit ${unit.key} holds ${leaderboardTimes.length} leaderboards; a sync unit stores one`,
    );
  }
  const written: Record<string, number>[] = [];
  for (const asOfUnix of leaderboardTimes) {
    const leaderboard: LakeUnit = {
      key: `leaderboard.${plan.competition}.${lakeTimes(asOfUnix).key}`,
      competition: plan.competition,
      asset: "all",
      date: lakeTimes(asOfUnix).date,
    };
    written.push(await writeLakeUnit(lake, leaderboard, store, ["leaderboard_rows"]));
  }
  // the unit's own tables last, `insights` the very last (see UNIT_TABLES)
  written.push(await writeLakeUnit(lake, unit, store, UNIT_TABLES));
  return written.flatMap(Object.values).reduce((sum, rows) => sum + rows, 0);
}

/**
 * The venue edges of several units as one run's: counts added, the `limit` largest edges of all.
 * @example mergeVenueEdges([first, second], 5).edges.length // => at most 5
 */
export function mergeVenueEdges(
  parts: readonly {
    markets: number;
    decided: number;
    tradable: number;
    edges: readonly TradableEdge[];
  }[],
  limit: number,
): { markets: number; decided: number; tradable: number; edges: TradableEdge[] } {
  const sum = (field: "markets" | "decided" | "tradable") =>
    parts.reduce((total, part) => total + part[field], 0);
  const edges = parts
    .flatMap((part) => part.edges)
    // as the store orders them: net edge, then asset, operation and market by their bytes
    .sort(
      (a, b) =>
        b.netEdge - a.netEdge ||
        byBytes(a.asset, b.asset) ||
        byBytes(a.operation, b.operation) ||
        byBytes(a.market, b.market),
    )
    .slice(0, limit);
  return { markets: sum("markets"), decided: sum("decided"), tradable: sum("tradable"), edges };
}

function byBytes(first: string, second: string): number {
  return first < second ? -1 : first > second ? 1 : 0;
}
