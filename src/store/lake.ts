/**
 * The lake: the store's tables as hive-partitioned Parquet, written by any number of processes at
 * once and read by DuckDB while they write. A unit's files sit in a folder of their own, one file
 * per table: `<lake>/units/competition=…/asset=…/date=…/unit-<key>.v<version>/<table>.parquet`.
 *
 * A unit appears whole: its files are written into a staging folder in the lake (`writeLakeUnit`)
 * and published by one rename, so a reader sees every table of the unit or none. A rerun publishes
 * the next version of the unit's folder (a rename onto an existing version fails, and the writer
 * takes the next number), then removes the versions before the one it replaced (that one stays,
 * for the queries that listed its files a moment before, until the next rerun). A killed writer
 * leaves only its staging folder, which no reader reads and the next writer removes. The partition
 * columns live in the folder names, not in the files, as hive readers (DuckDB, pyarrow, Spark)
 * expect.
 *
 * Every row also carries its unit's key (`_unit`), when the unit was written (`_written`, ms, for
 * the reader's information) and whether it is a tombstone (`_tombstone`: the unit has no rows in
 * the table any more). Readers (`openLake`) keep, per unit and table, only the rows of one file:
 * of its latest own folder when there is one, else of the latest `compact-…` folder that holds it
 * (`lake compact`). A unit's own folder is always its latest write (compaction removes the unit
 * folders it merged), so a rerun replaces the unit's rows wherever the earlier ones are, whatever
 * the writers' clocks say.
 *
 * The marker file says which layout a lake has (`layout`, {@link LAKE_LAYOUT}); a lake of another
 * layout is refused, by readers and writers, with an error that names both.
 */

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { Store } from "./openStore.ts";
import { SCHEMA_MIGRATIONS_TABLE, TABLES } from "./schema.ts";
import { removeAbandonedStaging } from "./exportStaging.ts";
import { sqlIdentifier, sqlStringLiteral } from "./sqlText.ts";
import { StoreError, StoreNotFoundError } from "./storeError.ts";

/**
 * The file that marks a folder as a pathlab lake (pathlab writes and removes only inside one).
 * @example existsSync(join("./lake", LAKE_MARKER)) // => true once a worker wrote there
 */
export const LAKE_MARKER = ".pathlab-lake.json";

/**
 * The layout this pathlab reads and writes, as the marker file states it: 2, one folder per unit
 * (layout 1, one file per table and unit in the table's folder, let readers see half a unit).
 * @example LAKE_LAYOUT // => 2
 */
export const LAKE_LAYOUT = 2;

/**
 * The folder of the lake that holds the units' folders, by partition.
 * @example join("./lake", LAKE_UNITS) // => "lake/units"
 */
export const LAKE_UNITS = "units";

/**
 * The start of the name of a writer's staging folder in the lake (see `makeStaging`).
 * @example LAKE_STAGING_PREFIX // => ".pathlab-staging-"
 */
export const LAKE_STAGING_PREFIX = ".pathlab-staging-";

/**
 * Where one unit's rows go: its natural key (the file name) and its partition.
 * @example const unit: LakeUnit = { key: "score.crypto-24h.BTC.20261120T1000Z", competition: "crypto-24h", asset: "BTC", date: "2026-11-20" };
 */
export interface LakeUnit {
  /** Letters, digits and `.-_` only: the file is `unit-<key>.parquet`. */
  readonly key: string;
  readonly competition: string;
  readonly asset: string;
  /** The UTC date of the unit's time (`YYYY-MM-DD`). */
  readonly date: string;
}

/**
 * `read` on the lake at `lake` (opened for it and closed after), or on `store` when `lake` is
 * undefined; undefined when the folder is not a lake yet (nothing stored there).
 * @example const rows = await readStoreOrLake(store, "./lake", (source) => queryRows(source, sql));
 */
export async function readStoreOrLake<T>(
  store: Store,
  lake: string | undefined,
  read: (source: Store) => Promise<T>,
): Promise<T | undefined> {
  if (lake !== undefined && !existsSync(join(lake, LAKE_MARKER))) return undefined;
  const source = lake === undefined ? store : await openLake(lake);
  try {
    return await read(source);
  } finally {
    if (source !== store) await source.close();
  }
}

/**
 * The hive columns of a unit's partition, in the order of its folders.
 * @example LAKE_PARTITION_COLUMNS // => ["competition", "asset", "date"]
 */
export const LAKE_PARTITION_COLUMNS = ["competition", "asset", "date"] as const;

/**
 * The folder of `unit`'s partition in the lake at `directory`, where its own folders go.
 * @param directory - the lake's folder.
 * @param unit - the unit, whose competition, asset and date name the partition.
 * @example unitPartition("./lake", unit) // => "lake/units/competition=crypto-24h/asset=BTC/date=2026-11-20"
 */
export function unitPartition(directory: string, unit: LakeUnit): string {
  return join(
    directory,
    LAKE_UNITS,
    ...LAKE_PARTITION_COLUMNS.map((column) => `${column}=${unit[column]}`),
  );
}

/**
 * Makes `directory` a lake (creating it, parent by parent) or checks that it is one of this
 * layout: an empty or new folder gets the marker; a folder with other content and no marker is
 * refused, so that pathlab never writes among files it did not create. Then removes the staging
 * folders that killed writers of this machine left there (only folders named as pathlab names
 * them). Throws a {@link StoreError} naming the folder, or naming the layout of a lake of another
 * layout.
 * @param directory - the lake's folder: new, empty, or already a lake.
 * @example prepareLake("./lake");
 */
export function prepareLake(directory: string): void {
  const marker = join(directory, LAKE_MARKER);
  if (!existsSync(marker)) {
    let entries: string[];
    try {
      mkdirSync(directory, { recursive: true });
      entries = readdirSync(directory);
    } catch (error) {
      throw new StoreError(
        "prepareLake",
        directory,
        `cannot use the folder: ${(error as Error).message}`,
        { cause: error },
      );
    }
    // Another process may have made it a lake since the check above (workers starting together).
    if (entries.length > 0 && !entries.includes(LAKE_MARKER)) {
      throw new StoreError(
        "prepareLake",
        directory,
        `the folder holds files and is not a pathlab lake (no ${LAKE_MARKER}); give a new or empty folder`,
      );
    }
    if (entries.length === 0) {
      writeFileSync(marker, `${JSON.stringify({ writer: "pathlab", layout: LAKE_LAYOUT })}\n`);
    }
  }
  checkLakeLayout("prepareLake", directory);
  removeAbandonedStaging(directory, LAKE_STAGING_PREFIX);
}

/**
 * Throws a {@link StoreError} for `operation` unless the lake at `directory` has this pathlab's
 * layout ({@link LAKE_LAYOUT}), naming the layout its marker states.
 * @param operation - what checks, named in the error (`openLake`, `prepareLake`).
 * @param directory - the lake's folder, which holds the marker.
 * @example checkLakeLayout("openLake", "./lake");
 */
export function checkLakeLayout(operation: string, directory: string): void {
  let layout: unknown;
  try {
    layout = (
      JSON.parse(readFileSync(join(directory, LAKE_MARKER), "utf8")) as { layout?: unknown }
    ).layout;
  } catch (error) {
    throw new StoreError(
      operation,
      directory,
      `cannot read ${LAKE_MARKER}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  if (layout !== LAKE_LAYOUT) {
    throw new StoreError(
      operation,
      directory,
      `the lake has layout ${JSON.stringify(layout)} (${LAKE_MARKER}), written by an earlier pathlab; this pathlab reads and writes layout ${LAKE_LAYOUT} only: write the lake again into a new folder`,
    );
  }
}

/**
 * Removes every row of `tables` from `store`: a working store whose rows went into the lake as one
 * unit's files (`writeLakeUnit`), emptied so that it holds the next unit's rows alone.
 * @example await emptyTables(workingStore, ["rank_history"]);
 */
export async function emptyTables(store: Store, tables: readonly string[]): Promise<void> {
  await store.withConnection(async (connection) => {
    for (const table of tables) await connection.run(`DELETE FROM ${sqlIdentifier(table)}`);
  });
}

/**
 * Opens the lake at `directory` for reading, as a `locked` store: every table of pathlab's schema
 * (`schema.ts`, and the bookkeeping `schema_migrations` that a database has too) is a view over
 * its files in the units' folders (`read_parquet` with hive partitioning, the schema's column
 * types), or an empty table where the lake has no file of it yet; DuckDB may read files under the
 * lake only, and only statements that read run (as `pathlab query`). Units published while it is
 * open are seen by the next statement. Throws a {@link StoreNotFoundError} when the folder is not
 * a lake, and a {@link StoreError} naming the layout of a lake of another layout.
 * @param directory - the lake's folder.
 * @example const lake = await openLake("./lake"); await streamRows(lake, "select count(*) from miner_scores", …);
 */
export async function openLake(directory: string): Promise<Store> {
  const root = resolve(directory);
  if (!existsSync(join(root, LAKE_MARKER))) {
    throw new StoreNotFoundError(
      "openLake",
      directory,
      `not a pathlab lake (no ${LAKE_MARKER}); write one with \`pathlab worker --lake\``,
    );
  }
  checkLakeLayout("openLake", directory);
  // one listing of the units' folders for every table: which tables have a file
  const tablesWithFiles = new Set(
    lakeFiles(join(root, LAKE_UNITS)).map((file) => basename(file, ".parquet")),
  );
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    for (const { name: table, columns } of [...TABLES, SCHEMA_MIGRATIONS_TABLE]) {
      if (!tablesWithFiles.has(table)) {
        const definitions = columns.map(([name, type]) => `${sqlIdentifier(name)} ${type}`);
        await connection.run(`CREATE TABLE ${sqlIdentifier(table)} (${definitions.join(", ")})`);
        continue;
      }
      const glob = sqlStringLiteral(lakeTableGlob(root, table));
      const select = columns.map(
        ([name, type]) => `CAST(${sqlIdentifier(name)} AS ${type}) AS ${sqlIdentifier(name)}`,
      );
      await connection.run(
        `CREATE VIEW ${sqlIdentifier(table)} AS SELECT ${select.join(", ")} FROM (${latestRows(glob)})`,
      );
    }
    await connection.run(`SET allowed_directories = [${sqlStringLiteral(root + "/")}]`);
    await connection.run("SET enable_external_access = false");
    await connection.run("SET lock_configuration = true");
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw new StoreError(
      "openLake",
      directory,
      `cannot read the lake: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  return new Store(directory, true, instance, connection, [], true);
}

/**
 * The files of `table` in the lake at `directory`, as a glob: one per folder of every partition.
 * @param directory - the lake's folder.
 * @param table - a table of the store's schema.
 * @example lakeTableGlob("/lake", "prompts") // => "/lake/units/*\/*\/*\/*\/prompts.parquet"
 */
export function lakeTableGlob(directory: string, table: string): string {
  return join(directory, LAKE_UNITS, "*", "*", "*", "*", `${table}.parquet`);
}

/**
 * The rows of the files `files` (a `read_parquet` argument, files of one table) that are their
 * unit's latest write: per `_unit`, the rows of its latest own `unit-…` folder when there is one,
 * else of the latest-named `compact-…` folder (see the module comment), tombstones left out. The
 * partition columns come from the folder names; `filename` is each row's file.
 * @param files - a `read_parquet` argument naming the files: a quoted glob, or a list of quoted
 *   paths.
 * @example `SELECT count(*) FROM (${latestRows(sqlStringLiteral(lakeTableGlob("lake", "prompts")))})`
 */
export function latestRows(files: string): string {
  // A unit's own folders differ only in their zero-padded versions: the latest is the largest.
  const folder = "parse_filename(parse_dirpath(filename))";
  const version = `{'own': starts_with(${folder}, 'unit-'), 'file': filename}`;
  return `SELECT * FROM (
    SELECT *, ${version} AS _version, max(${version}) OVER (PARTITION BY _unit) AS _latest
    FROM read_parquet(${files}, hive_partitioning = true, union_by_name = true, filename = true,
      hive_types = {'competition': VARCHAR, 'asset': VARCHAR, 'date': DATE})
  ) WHERE _version = _latest AND NOT _tombstone`;
}

/**
 * The Parquet files under `folder` (recursively), relative to it; none when it does not exist.
 * @param folder - a folder of the lake, e.g. its units' folder or one partition's.
 * @example lakeFiles("./lake/units") // => ["competition=crypto-24h/asset=BTC/date=2026-11-19/unit-….v0000000001/prompts.parquet", …]
 */
export function lakeFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((entry) => entry.endsWith(".parquet"))
    .sort();
}
