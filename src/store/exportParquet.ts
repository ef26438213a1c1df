/**
 * The store's tables as hive-partitioned Parquet (`<dir>/<table>/asset=BTC/date=2026-02-25/*.parquet`),
 * which DuckDB, pandas/pyarrow and Spark read as they are.
 */

import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import type { Store } from "./openStore.ts";
import { StoreError } from "./storeError.ts";

/**
 * A table that {@link exportParquet} writes.
 * @example const table: ExportedTableName = "insights";
 */
export type ExportedTableName =
  | "runs"
  | "path_sets"
  | "path_values"
  | "insights"
  | "insight_values"
  | "crosschecks"
  | "leaderboard_rows"
  | "venue_comparisons";

/**
 * What each exported table is: the query (the table plus its partition columns; child tables take
 * `asset` and `date` from their parent) and the partition columns. `date` is the UTC date of the
 * row's natural time (path start, forecast start, leaderboard time, run start). Tables without an
 * asset (`runs`, `leaderboard_rows`) are partitioned by date only.
 */
const EXPORTS: Record<ExportedTableName, { select: string; partitionBy: string }> = {
  runs: {
    select: `SELECT *, CAST(started_at AS DATE) AS date FROM runs ORDER BY id`,
    partitionBy: "date",
  },
  path_sets: {
    select: `SELECT *, CAST(start_time AS DATE) AS date FROM path_sets ORDER BY id`,
    partitionBy: "asset, date",
  },
  path_values: {
    select: `
SELECT v.path_set_id, v.path, v.prices, s.asset, CAST(s.start_time AS DATE) AS date
FROM path_values v JOIN path_sets s ON s.id = v.path_set_id
ORDER BY v.path_set_id, v.path`,
    partitionBy: "asset, date",
  },
  insights: {
    select: `SELECT *, CAST(forecast_start_time AS DATE) AS date FROM insights ORDER BY id`,
    partitionBy: "asset, date",
  },
  insight_values: {
    select: `
SELECT v.insight_id, v.field, v.key, v.value, i.asset, CAST(i.forecast_start_time AS DATE) AS date
FROM insight_values v JOIN insights i ON i.id = v.insight_id
ORDER BY v.insight_id`,
    partitionBy: "asset, date",
  },
  crosschecks: {
    select: `SELECT *, CAST(forecast_start_time AS DATE) AS date FROM crosschecks`,
    partitionBy: "asset, date",
  },
  leaderboard_rows: {
    select: `SELECT *, CAST(as_of AS DATE) AS date FROM leaderboard_rows ORDER BY as_of, rank`,
    partitionBy: "date",
  },
  venue_comparisons: {
    select: `SELECT *, CAST(forecast_start_time AS DATE) AS date FROM venue_comparisons`,
    partitionBy: "asset, date",
  },
};

/**
 * Every table {@link exportParquet} writes by default, in order.
 * @example EXPORTED_TABLES.includes("path_values") // => true
 */
export const EXPORTED_TABLES = Object.keys(EXPORTS) as ExportedTableName[];

/**
 * What {@link exportParquet} wrote for one table.
 * @example const { table, rows, files }: ExportedTable = (await exportParquet(store, "./export"))[0];
 */
export interface ExportedTable {
  readonly table: ExportedTableName;
  /** The table's folder (`<dir>/<table>`). */
  readonly directory: string;
  readonly rows: number;
  /** The Parquet files written, relative to `directory` (`asset=BTC/date=2026-02-25/data_0.parquet`). */
  readonly files: readonly string[];
}

/**
 * Writes `tables` (all of {@link EXPORTED_TABLES} by default) to `directory` as hive-partitioned
 * Parquet with DuckDB's `COPY … (FORMAT parquet, PARTITION_BY (…))`: each table is written to a
 * folder beside its target and then swapped in, so the table's folder holds exactly the current
 * contents (and the previous export stays whole if writing fails). The partition columns live in the folder names
 * (`asset=BTC/date=2026-02-25`), as hive readers expect; read back with
 * `read_parquet('<dir>/insights/**\/*.parquet', hive_partitioning = true)` or
 * `pyarrow.dataset.dataset('<dir>/insights', partitioning='hive')`. A table with no rows gets no files.
 * @example
 * const written = await exportParquet(store, "./export");
 * written.find((table) => table.table === "path_sets")?.files // => ["asset=BTC/date=2026-02-25/data_0.parquet"]
 */
export async function exportParquet(
  store: Store,
  directory: string,
  tables: readonly ExportedTableName[] = EXPORTED_TABLES,
): Promise<ExportedTable[]> {
  for (const table of tables) {
    if (!(table in EXPORTS)) {
      throw new RangeError(
        `exportParquet requires tables among ${EXPORTED_TABLES.join(", ")}, got ${JSON.stringify(table)}`,
      );
    }
  }
  try {
    mkdirSync(directory, { recursive: true });
  } catch (error) {
    throw new StoreError(
      "exportParquet",
      store.path,
      `could not create the folder ${JSON.stringify(directory)}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const written: ExportedTable[] = [];
  for (const table of tables) {
    const { select, partitionBy } = EXPORTS[table];
    const target = join(directory, table);
    // written beside the target, then swapped in: a failed export leaves the previous one whole,
    // and no partition folder of rows since deleted survives (DuckDB's OVERWRITE keeps them, empty)
    const partial = join(directory, `.${table}.partial`);
    rmSync(partial, { recursive: true, force: true });
    const rows = await store.withConnection(async (connection) => {
      try {
        const result = await connection.run(
          `COPY (${select}) TO $target (FORMAT parquet, PARTITION_BY (${partitionBy}))`,
          { target: partial },
        );
        return result.rowsChanged;
      } catch (error) {
        rmSync(partial, { recursive: true, force: true });
        throw new StoreError(
          "exportParquet",
          store.path,
          `table ${table} to ${JSON.stringify(target)}: ${(error as Error).message}`,
          { cause: error },
        );
      }
    });
    rmSync(target, { recursive: true, force: true });
    if (existsSync(partial)) renameSync(partial, target);
    written.push({ table, directory: target, rows, files: parquetFiles(target) });
  }
  return written;
}

function parquetFiles(directory: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(directory, { recursive: true, encoding: "utf8" });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.endsWith(".parquet"))
    .map((entry) => relative(directory, join(directory, entry)).split("\\").join("/"))
    .sort();
}
