/**
 * The store's tables as hive-partitioned Parquet (`<dir>/<table>/asset=BTC/date=2026-02-25/*.parquet`),
 * which DuckDB, pandas/pyarrow and Spark read as they are, written so that nothing but pathlab's
 * own files is ever touched (see `exportFolder`).
 */

import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import {
  checkExportFolder,
  keptTables,
  isTableFolderName,
  makeFolder,
  removeListedFiles,
  writeManifest,
} from "./exportFolder.ts";
import type { Store } from "./openStore.ts";
import { TABLES } from "./schema.ts";
import { tableNames } from "./schemaTables.ts";
import { makeStaging, removeAbandonedStaging } from "./exportStaging.ts";
import { sqlIdentifier } from "./sqlText.ts";
import { StoreError } from "./storeError.ts";

/**
 * The name of a table that {@link exportParquet} writes: any table of the database (see
 * `schemaTables`), such as `insights` or `miner_scores`.
 * @example const table: ExportedTableName = "insights";
 */
export type ExportedTableName = string;

/**
 * The tables of pathlab's schema, as `schema.ts` states them, in order: what
 * {@link exportParquet} writes by default from a database of the current schema (which it reads
 * from the database itself, so a table added there is written too).
 * @example EXPORTED_TABLES.includes("miner_scores") // => true
 */
export const EXPORTED_TABLES: readonly ExportedTableName[] = TABLES.map((table) => table.name);

/** How a table is written: the query (its rows plus the partition columns) and those columns. */
interface TableExport {
  readonly select: string;
  readonly partitionBy: readonly string[];
}

/**
 * The child tables, which have no asset or time of their own: they take `asset` and `date` from
 * their parent row.
 */
const CHILD_TABLES: Readonly<Record<string, TableExport>> = {
  path_values: {
    select: `
SELECT v.path_set_id, v.path, v.prices, s.asset, CAST(s.start_time AS DATE) AS date
FROM path_values v JOIN path_sets s ON s.id = v.path_set_id
ORDER BY v.path_set_id, v.path`,
    partitionBy: ["asset", "date"],
  },
  insight_values: {
    select: `
SELECT v.insight_id, v.field, v.key, v.value, i.asset, CAST(i.forecast_start_time AS DATE) AS date
FROM insight_values v JOIN insights i ON i.id = v.insight_id
ORDER BY v.insight_id`,
    partitionBy: ["asset", "date"],
  },
};

const SELECT_COLUMNS = `
SELECT column_name, data_type FROM duckdb_columns()
WHERE database_name = current_database() AND schema_name = current_schema() AND table_name = $table
ORDER BY column_index`;

const SELECT_PRIMARY_KEY = `
SELECT constraint_column_names FROM duckdb_constraints()
WHERE database_name = current_database() AND schema_name = current_schema() AND table_name = $table
  AND constraint_type = 'PRIMARY KEY'`;

/** Column types whose UTC date names a row's `date` partition. */
const TIME_TYPES = ["TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS", "DATE"];

/**
 * How a table that is not a child table is written, from its columns: partitioned by `asset` when
 * it has one, and by `date`, the UTC date of its first time column (in every pathlab table the
 * row's natural time: path start, forecast start, prompt start, leaderboard or smoothed-score time,
 * run start); in primary-key order. A table with neither is written unpartitioned.
 */
async function tableExport(connection: DuckDBConnection, table: string): Promise<TableExport> {
  const columns = (await connection.runAndReadAll(SELECT_COLUMNS, { table })).getRowsJS();
  const names = columns.map(([name]) => String(name));
  const time = columns.find(([, type]) => TIME_TYPES.includes(String(type)))?.[0];
  const key = (await connection.runAndReadAll(SELECT_PRIMARY_KEY, { table })).getRowsJS()[0]?.[0];
  const partitionBy = names.includes("asset") ? ["asset"] : [];
  let dateColumn = "";
  if (names.includes("date")) partitionBy.push("date");
  else if (time !== undefined) {
    partitionBy.push("date");
    dateColumn = `, CAST(${sqlIdentifier(String(time))} AS DATE) AS date`;
  }
  const order = Array.isArray(key)
    ? ` ORDER BY ${key.map(String).map(sqlIdentifier).join(", ")}`
    : "";
  return { select: `SELECT *${dateColumn} FROM ${sqlIdentifier(table)}${order}`, partitionBy };
}

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
 * Options of {@link exportParquet}.
 * @example const options: ExportParquetOptions = { overwrite: true };
 */
export interface ExportParquetOptions {
  /**
   * Replace pathlab's own earlier export in the folder (its manifest lists the files): the
   * listed files of the tables written are removed, nothing else. Without it such a folder is
   * refused. Default false.
   */
  readonly overwrite?: boolean;
}

/**
 * Writes `tables` (by default every table of the database, read from its catalog: those of
 * {@link EXPORTED_TABLES} and any other, less the `schema_migrations` bookkeeping; views are left
 * out) to `directory` as hive-partitioned Parquet with DuckDB's
 * `COPY … (FORMAT parquet, PARTITION_BY (…))`. Tables with an `asset` column are partitioned by
 * asset and date, the others by date only (the date of the row's natural time; child tables take
 * both from their parent). The partition columns live in the folder names
 * (`asset=BTC/date=2026-02-25`), as hive readers expect; read back with
 * `read_parquet('<dir>/insights/**\/*.parquet', hive_partitioning = true)` or
 * `pyarrow.dataset.dataset('<dir>/insights', partitioning='hive')`. A table with no rows gets no
 * files.
 *
 * It writes only its own files. `directory` must be new (it is created, parent by parent), empty,
 * or hold pathlab's own earlier export, whose manifest `.pathlab-export.json` lists every file it
 * wrote; such a folder is replaced only with `overwrite`, and then only the listed files of the
 * tables written now (and the folders they leave empty) are removed, through real folders only,
 * while a file of the user's or a symbolic link inside a table folder to be written (or that
 * folder a link) is refused rather than touched. The new manifest keeps the earlier entries of the
 * other tables, whose files stay. Each export writes its tables into a fresh staging
 * folder inside `directory` first and moves them into place once all are written, so a failed
 * export leaves the earlier one whole; the new manifest comes last. A staging folder that a killed
 * export left behind (its process gone) is removed by the next export (`exportStaging`).
 *
 * Errors: an `ExportFolderError` (see `exportFolder`) for a folder it may not use or cannot create
 * (`/proc/x`), naming the path; a `RangeError` for a name that is not a table of the database; a
 * {@link StoreError} for a failed write.
 * @param store - the database to export.
 * @param directory - the export folder: new, empty, or holding pathlab's own earlier export.
 * @param tables - the tables to write; every table of the database by default.
 * @param options - whether to replace pathlab's earlier export in the folder (false by default).
 * @example
 * const written = await exportParquet(store, "./export");
 * written.find((table) => table.table === "path_sets")?.files // => ["asset=BTC/date=2026-02-25/data_0.parquet"]
 * await exportParquet(store, "./export", ["runs"], { overwrite: true }); // replaces that export
 */
export async function exportParquet(
  store: Store,
  directory: string,
  tables?: readonly ExportedTableName[],
  options: ExportParquetOptions = {},
): Promise<ExportedTable[]> {
  const present = await tableNames(store);
  for (const table of tables ?? []) {
    if (!present.includes(table)) {
      throw new RangeError(
        `exportParquet requires tables of the database (${present.join(", ")}), got ${JSON.stringify(table)}`,
      );
    }
  }
  const chosen = tables ?? present;
  const unsafe = chosen.find((table) => !isTableFolderName(table));
  if (unsafe !== undefined) {
    throw new RangeError(
      `exportParquet requires table names that are plain folder names, got ${JSON.stringify(unsafe)}`,
    );
  }
  makeFolder(directory);
  removeAbandonedStaging(directory);
  const earlier = checkExportFolder(directory, chosen, options.overwrite ?? false);
  const fail = (what: string, error: unknown): never => {
    throw new StoreError("exportParquet", store.path, `${what}: ${(error as Error).message}`, {
      cause: error,
    });
  };
  let staging = "";
  try {
    staging = makeStaging(directory);
  } catch (error) {
    fail(`could not write in the folder ${JSON.stringify(directory)}`, error);
  }
  try {
    const written: ExportedTable[] = [];
    for (const table of chosen) {
      const target = join(directory, table);
      const partial = join(staging, table);
      const rows = await store
        .withConnection((connection) => copyTable(connection, table, partial))
        .catch((error: unknown) => fail(`table ${table} to ${JSON.stringify(target)}`, error));
      written.push({ table, directory: target, rows, files: parquetFiles(partial) });
    }
    try {
      if (earlier !== null) removeListedFiles(directory, earlier, chosen);
      for (const { table, directory: target } of written) {
        if (existsSync(join(staging, table))) renameSync(join(staging, table), target);
      }
      writeManifest(directory, {
        writer: "pathlab export",
        version: 1,
        database: store.path,
        writtenAt: new Date().toISOString(),
        tables: [
          ...(earlier === null ? [] : keptTables(directory, earlier, chosen)),
          ...written.map(({ table, files }) => ({
            table,
            files: files.map((file) => `${table}/${file}`),
          })),
        ],
      });
    } catch (error) {
      fail(`could not move the export into ${JSON.stringify(directory)}`, error);
    }
    return written;
  } finally {
    rmSync(staging, { recursive: true, force: true }); // the staging folder is ours, made above
  }
}

/** Writes one table to `partial` (a folder that does not exist yet); resolves to its row count. */
async function copyTable(
  connection: DuckDBConnection,
  table: string,
  partial: string,
): Promise<number> {
  const { select, partitionBy } = CHILD_TABLES[table] ?? (await tableExport(connection, table));
  if (partitionBy.length > 0) {
    const copy = `COPY (${select}) TO $target (FORMAT parquet, PARTITION_BY (${partitionBy.join(", ")}))`;
    return (await connection.run(copy, { target: partial })).rowsChanged;
  }
  mkdirSync(partial);
  const copy = `COPY (${select}) TO $target (FORMAT parquet)`;
  const count = (await connection.run(copy, { target: join(partial, "data_0.parquet") }))
    .rowsChanged;
  if (count === 0) rmSync(partial, { recursive: true, force: true }); // made just above
  return count;
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
