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
 * the table any more). Readers (`openLake`, `latestRows`) keep, per unit and table, only the rows of one file:
 * of its latest own folder when there is one, else of the latest `compact-…` folder that holds it
 * (`lake compact`). A unit's own folder is always its latest write (compaction removes the unit
 * folders it merged), so a rerun replaces the unit's rows wherever the earlier ones are, whatever
 * the writers' clocks say.
 *
 * The marker file says which layout a lake has (`layout`, {@link LAKE_LAYOUT}); a lake of another
 * layout is refused, by readers and writers, with an error that names both.
 */

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { LAKE_UNITS } from "./lakeLayout.ts";
import { LAKE_TABLES, writeLakeSnapshot } from "./lakeSnapshot.ts";
import { openSealedCopy } from "./lockedDatabase.ts";
import { Store } from "./openStore.ts";
import { removeAbandonedStaging } from "./exportStaging.ts";
import { sqlIdentifier } from "./sqlText.ts";
import { StoreError, StoreNotFoundError } from "./storeError.ts";

export { LAKE_UNITS, lakeTableGlob, latestRows } from "./lakeLayout.ts";

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
 * `read` on the lake at `lake` (opened for it with `tables`, the tables it reads, and closed
 * after), or on `store` when `lake` is undefined; undefined when the folder is not a lake yet
 * (nothing stored there).
 * @example const rows = await readStoreOrLake(store, "./lake", ["prompts"], (source) => queryRows(source, sql));
 */
export async function readStoreOrLake<T>(
  store: Store,
  lake: string | undefined,
  tables: readonly string[],
  read: (source: Store) => Promise<T>,
): Promise<T | undefined> {
  if (lake !== undefined && !existsSync(join(lake, LAKE_MARKER))) return undefined;
  const source = lake === undefined ? store : await openLake(lake, tables);
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
 * Opens the lake at `directory` for reading, as a `locked` store that DuckDB itself keeps from
 * writing: the rows of `tables` are copied into a snapshot (`writeLakeSnapshot`: each unit's
 * latest rows; the other tables fail when read), and the snapshot is opened as `pathlab query
 * --db` opens a database (`openSealedCopy`: READ_ONLY, no file access, the settings locked). No
 * statement run on the store can reach a file, the lake's included; and, as in `pathlab query`,
 * only statements that read run. The store reads the lake as it was when opened. Throws a
 * {@link StoreNotFoundError} when the folder is not a lake, and a {@link StoreError} naming the
 * layout of a lake of another layout, or when the lake cannot be read.
 * @param directory - the lake's folder.
 * @param tables - the tables to read, of `LAKE_TABLES`; every one by default.
 * @example const lake = await openLake("./lake", ["miner_scores"]); await streamRows(lake, "select count(*) from miner_scores", …);
 */
export async function openLake(
  directory: string,
  tables: readonly string[] = LAKE_TABLES,
): Promise<Store> {
  const root = resolve(directory);
  if (!existsSync(join(root, LAKE_MARKER))) {
    throw new StoreNotFoundError(
      "openLake",
      directory,
      `not a pathlab lake (no ${LAKE_MARKER}); write one with \`pathlab worker --lake\``,
    );
  }
  checkLakeLayout("openLake", directory);
  try {
    const { instance, connection, removeFolder } = await openSealedCopy("lake.duckdb", (file) =>
      writeLakeSnapshot(root, file, tables),
    );
    return new Store(directory, true, instance, connection, [], true, removeFolder);
  } catch (error) {
    throw new StoreError(
      "openLake",
      directory,
      `cannot read the lake: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
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
