/**
 * The lake: the store's tables as hive-partitioned Parquet, one file per unit and table
 * (`<lake>/<table>/competition=…/asset=…/date=…/unit-<key>.parquet`), written by any number of
 * processes at once and read by DuckDB while they write.
 *
 * A unit's file is written under a hidden temporary name in its partition folder and renamed into
 * place, so a reader sees the old file or the new one, never half of one. The partition columns
 * live in the folder names, not in the files, as hive readers (DuckDB, pyarrow, Spark) expect.
 *
 * Every row also carries its unit's key (`_unit`), when the unit was written (`_written`, ms, for
 * the reader's information) and whether it is a tombstone (`_tombstone`: the unit has no rows in
 * the table any more). Readers (`openLake`, `latestRows`) keep, per unit, only the rows of one
 * file: its own `unit-<key>.parquet` when there is one, else the latest `compact-…` file that
 * holds it. A unit's
 * own file is always its latest write (compaction removes the unit files it merged), so a rerun
 * replaces the unit's rows wherever the earlier ones are, whatever the writers' clocks say.
 */

import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { join, resolve } from "node:path";
import { LAKE_TABLES, writeLakeSnapshot } from "./lakeSnapshot.ts";
import { openSealedCopy } from "./lockedDatabase.ts";
import { Store } from "./openStore.ts";
import { sqlIdentifier } from "./sqlText.ts";
import { StoreError, StoreNotFoundError } from "./storeError.ts";

/**
 * The file that marks a folder as a pathlab lake (pathlab writes and removes only inside one).
 * @example existsSync(join("./lake", LAKE_MARKER)) // => true once a worker wrote there
 */
export const LAKE_MARKER = ".pathlab-lake.json";

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

const PARTITION_COLUMNS = ["competition", "asset", "date"] as const;
const SAFE_VALUE = /^[A-Za-z0-9._-]+$/;

/**
 * Makes `directory` a lake (creating it, parent by parent) or checks that it is one: an empty or
 * new folder gets the marker; a folder with other content and no marker is refused, so that
 * pathlab never writes among files it did not create. Throws a {@link StoreError} naming the
 * folder.
 * @param directory - the lake's folder: new, empty, or already a lake.
 * @example prepareLake("./lake");
 */
export function prepareLake(directory: string): void {
  const marker = join(directory, LAKE_MARKER);
  if (existsSync(marker)) return;
  let entries: string[];
  try {
    mkdirSync(directory, { recursive: true });
    entries = readdirSync(directory);
  } catch (error) {
    throw new StoreError(
      "prepareLake",
      directory,
      `cannot use the folder: ${(error as Error).message}`,
      {
        cause: error,
      },
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
    writeFileSync(marker, `${JSON.stringify({ writer: "pathlab", layout: 1 })}\n`);
  }
}

/**
 * Writes the rows of `tables` held by `source` (a store holding one unit's rows and nothing else)
 * into the lake as the unit's files, each by a temporary file and a rename; a table without rows
 * whose partition already exists gets a tombstone (so that the unit's earlier rows there are
 * dropped by readers). Returns the rows written per table.
 * Throws `RangeError` for a key or partition value with characters outside `[A-Za-z0-9._-]`, and a
 * {@link StoreError} naming the table and file for a failed write.
 * @param directory - the lake's folder, prepared by {@link prepareLake}.
 * @param unit - the unit's key, competition, asset and date, which name its files and partitions.
 * @param source - a store holding the unit's rows and nothing else.
 * @param tables - the tables to write.
 * @example await writeLakeUnit("./lake", unit, memoryStore, ["prompts", "miner_scores"]);
 */
export async function writeLakeUnit(
  directory: string,
  unit: LakeUnit,
  source: Store,
  tables: readonly string[],
): Promise<Record<string, number>> {
  for (const [name, value] of Object.entries(unit)) {
    if (!SAFE_VALUE.test(value)) {
      throw new RangeError(
        `writeLakeUnit requires a ${name} of letters, digits and ".-_", got ${JSON.stringify(value)}`,
      );
    }
  }
  prepareLake(directory);
  const written: Record<string, number> = {};
  const writtenAt = BigInt(Date.now());
  for (const table of tables) {
    const folder = join(
      directory,
      table,
      ...PARTITION_COLUMNS.map((column) => `${column}=${unit[column]}`),
    );
    const target = join(folder, `unit-${unit.key}.parquet`);
    // Unique across machines sharing the lake (containers often share a pid).
    const temporary = join(folder, `.unit-${unit.key}.${randomUUID()}.tmp`);
    try {
      written[table] = await source.withConnection(async (connection) => {
        const columns = (
          await connection.runAndReadAll(
            `SELECT column_name FROM duckdb_columns() WHERE database_name = current_database()
               AND schema_name = current_schema() AND table_name = $table ORDER BY column_index`,
            { table },
          )
        )
          .getRowsJS()
          .map(([name]) => String(name))
          .filter((name) => !(PARTITION_COLUMNS as readonly string[]).includes(name));
        const count = Number(
          (
            await connection.runAndReadAll(`SELECT count(*) FROM ${sqlIdentifier(table)}`)
          ).getRowsJS()[0][0],
        );
        // Nothing to write, and nothing earlier of the unit to drop.
        if (count === 0 && !existsSync(folder)) return 0;
        const bookkeeping = `$unit AS _unit, $written AS _written, ${count === 0} AS _tombstone`;
        const listed = columns.map((name) => `t.${sqlIdentifier(name)}`).join(", ");
        const select =
          count > 0
            ? `SELECT ${listed}, ${bookkeeping} FROM ${sqlIdentifier(table)} AS t ORDER BY ALL`
            : // one row of NULLs: the table's columns and types, no values
              `SELECT ${listed}, ${bookkeeping} FROM (SELECT 1) AS one LEFT JOIN ${sqlIdentifier(table)} AS t ON false`;
        mkdirSync(folder, { recursive: true });
        await connection.run(`COPY (${select}) TO $target (FORMAT parquet)`, {
          target: temporary,
          unit: unit.key,
          written: writtenAt,
        });
        renameSync(temporary, target);
        return count;
      });
    } catch (error) {
      rmSync(temporary, { force: true });
      throw new StoreError(
        "writeLakeUnit",
        directory,
        `table ${table} of unit ${unit.key} was not written to ${target}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  return written;
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
 * --db` opens a database (`openSealedCopy`: READ_ONLY, no file access, the settings locked). No statement run on the store can reach a file, the lake's included; and, as
 * in `pathlab query`, only statements that read run. The store reads the lake as it was when
 * opened. Throws a {@link StoreNotFoundError} when the folder is
 * not a lake, and a {@link StoreError} when the lake cannot be read.
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
 * The unit files under `folder` (recursively), relative to it; none when it does not exist.
 * @param folder - a folder of the lake, e.g. one table's.
 * @example lakeFiles("./lake/miner_scores") // => ["competition=crypto-24h/asset=BTC/date=2026-11-19/unit-….parquet", …]
 */
export function lakeFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((entry) => entry.endsWith(".parquet"))
    .sort();
}
