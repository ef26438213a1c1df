/**
 * Writing one unit into the lake (the layout in `lake.ts`): its tables as files of a staging
 * folder, published as the unit's next version by one rename, then its versions before the one it
 * replaces removed.
 */

import { existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { makeStaging } from "./exportStaging.ts";
import {
  LAKE_PARTITION_COLUMNS,
  LAKE_STAGING_PREFIX,
  prepareLake,
  unitPartition,
  type LakeUnit,
} from "./lake.ts";
import type { Store } from "./openStore.ts";
import { sqlIdentifier } from "./sqlText.ts";
import { StoreError } from "./storeError.ts";

const SAFE_VALUE = /^[A-Za-z0-9._-]+$/;

/** Digits of a unit folder's version: zero-padded, so that names sort as versions do. */
const VERSION_DIGITS = 10;

/** Renames tried before a publication gives up (each failure: another writer took the number). */
const PUBLISH_ATTEMPTS = 100;

/**
 * Writes the rows of `tables` held by `source` (a store holding one unit's rows and nothing else)
 * into the lake as the unit's next folder, published whole by one rename: readers see all of the
 * unit's tables or none, and a rerun replaces the unit whole. A table without rows gets a
 * tombstone when an earlier folder of the partition holds the table (so that the unit's earlier
 * rows there are dropped by readers); a table of the unit's earlier folder that `tables` leaves
 * out is kept. The version replaced stays (readers leave it out) until the next rerun removes it,
 * so that a query that listed its files can still read them. Returns the rows written per table.
 * Throws `RangeError` for a key or partition value with characters outside `[A-Za-z0-9._-]`, and a
 * {@link StoreError} naming the table or unit for a failed write (nothing of it is published).
 * @param directory - the lake's folder, new or a lake (see `prepareLake`).
 * @param unit - the unit's key, competition, asset and date, which name its folder and partition.
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
  const partition = unitPartition(directory, unit);
  const inPartition = existsSync(partition) ? readdirSync(partition) : [];
  const ownEarlier = inPartition.filter((name) => unitVersion(name, unit.key) !== undefined).sort();
  // the folders that may hold rows of the unit: its own, and compacted ones
  const earlier = [...ownEarlier, ...inPartition.filter((name) => name.startsWith("compact-"))];
  const holdsTable = (table: string) =>
    earlier.some((name) => existsSync(join(partition, name, `${table}.parquet`)));
  const staging = makeStaging(directory, LAKE_STAGING_PREFIX);
  const written: Record<string, number> = {};
  const writtenAt = BigInt(Date.now());
  try {
    for (const table of tables) {
      written[table] = await writeTable(source, table, join(staging, `${table}.parquet`), {
        unit: unit.key,
        writtenAt,
        tombstone: holdsTable(table),
      }).catch((error: unknown) => {
        throw new StoreError(
          "writeLakeUnit",
          directory,
          `table ${table} of unit ${unit.key} was not written: ${(error as Error).message}`,
          { cause: error },
        );
      });
    }
    const latest = ownEarlier.at(-1);
    if (latest !== undefined) keepOtherTables(join(partition, latest), staging, tables);
    // Nothing to write, and nothing earlier of the unit to replace.
    if (readdirSync(staging).length === 0) return written;
    mkdirSync(partition, { recursive: true });
    publish(staging, partition, unit.key);
  } catch (error) {
    if (error instanceof StoreError) throw error;
    throw new StoreError(
      "writeLakeUnit",
      directory,
      `unit ${unit.key} was not published in ${partition}: ${(error as Error).message}`,
      { cause: error },
    );
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  // Readers prefer the new version already. The one it replaces stays until the next rerun, so
  // that a query that listed its files a moment ago can still read them; older ones only take room.
  for (const name of ownEarlier.slice(0, -1)) {
    rmSync(join(partition, name), { recursive: true, force: true });
  }
  return written;
}

/**
 * Writes `table` of `source` to `file` with the unit's bookkeeping columns; a table without rows
 * is written as one tombstone row when `tombstone`, else not at all. Resolves to its rows.
 */
async function writeTable(
  source: Store,
  table: string,
  file: string,
  bookkeeping: { unit: string; writtenAt: bigint; tombstone: boolean },
): Promise<number> {
  return source.withConnection(async (connection) => {
    const columns = (
      await connection.runAndReadAll(
        `SELECT column_name FROM duckdb_columns() WHERE database_name = current_database()
           AND schema_name = current_schema() AND table_name = $table ORDER BY column_index`,
        { table },
      )
    )
      .getRowsJS()
      .map(([name]) => String(name))
      .filter((name) => !(LAKE_PARTITION_COLUMNS as readonly string[]).includes(name));
    const count = Number(
      (
        await connection.runAndReadAll(`SELECT count(*) FROM ${sqlIdentifier(table)}`)
      ).getRowsJS()[0][0],
    );
    if (count === 0 && !bookkeeping.tombstone) return 0;
    const extra = `$unit AS _unit, $written AS _written, ${count === 0} AS _tombstone`;
    const listed = columns.map((name) => `t.${sqlIdentifier(name)}`).join(", ");
    const select =
      count > 0
        ? `SELECT ${listed}, ${extra} FROM ${sqlIdentifier(table)} AS t ORDER BY ALL`
        : // one row of NULLs: the table's columns and types, no values
          `SELECT ${listed}, ${extra} FROM (SELECT 1) AS one LEFT JOIN ${sqlIdentifier(table)} AS t ON false`;
    await connection.run(`COPY (${select}) TO $file (FORMAT parquet)`, {
      file,
      unit: bookkeeping.unit,
      written: bookkeeping.writtenAt,
    });
    return count;
  });
}

/** Links into `staging` the files of the unit's folder `previous` of the tables not in `tables`. */
function keepOtherTables(previous: string, staging: string, tables: readonly string[]): void {
  for (const name of readdirSync(previous)) {
    if (name.endsWith(".parquet") && !tables.includes(name.slice(0, -".parquet".length))) {
      linkSync(join(previous, name), join(staging, name));
    }
  }
}

/**
 * Renames `staging` into `partition` as the next version of unit `key`'s folder. Renaming onto a
 * folder that holds files fails, so two writers never publish the same version: the later one
 * takes the next number, and the larger version is the later write.
 */
function publish(staging: string, partition: string, key: string): void {
  for (let attempt = 0; attempt < PUBLISH_ATTEMPTS; attempt++) {
    const versions = readdirSync(partition)
      .map((name) => unitVersion(name, key))
      .filter((version) => version !== undefined);
    const next = Math.max(0, ...versions) + 1;
    try {
      renameSync(staging, join(partition, unitFolderName(key, next)));
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
    }
  }
  throw new Error(`no free version after ${PUBLISH_ATTEMPTS} attempts`);
}

/**
 * The name of version `version` of unit `key`'s folder.
 * @param key - the unit's key.
 * @param version - from 1, the unit's first write.
 * @example unitFolderName("score.crypto-1h.BTC.20261121T092000Z", 2) // => "unit-score.crypto-1h.BTC.20261121T092000Z.v0000000002"
 */
export function unitFolderName(key: string, version: number): string {
  return `unit-${key}.v${String(version).padStart(VERSION_DIGITS, "0")}`;
}

/** The version of unit `key` that the folder `name` holds, if it is one of that unit's. */
function unitVersion(name: string, key: string): number | undefined {
  const prefix = `unit-${key}.v`;
  if (!name.startsWith(prefix)) return undefined;
  const digits = name.slice(prefix.length);
  return /^\d+$/.test(digits) && digits.length === VERSION_DIGITS ? Number(digits) : undefined;
}
