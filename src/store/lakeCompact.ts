/**
 * Compaction of a lake: the unit folders of each partition merged into one `compact-…` folder (one
 * file per table), so that a lake kept current for months stays a few files per partition instead
 * of one folder per unit. Workers may keep writing while it runs.
 *
 * A partition's folders are read table by table and their latest rows (`latestRows`: per unit,
 * its own folder or the latest compacted one, tombstones dropped) written to a staging folder,
 * renamed into the partition as `compact-<time>-<pid>` (every table at once), and only then are
 * the merged folders removed. Until they are, a unit's own folder still wins over the compacted
 * copy of the same write, so readers see each unit once throughout; a unit folder published
 * meanwhile (a rerun) is not merged, and wins as the later write.
 *
 * One limit, narrow: a query that listed a partition's files before they were removed fails with
 * a missing file (`openLake` takes its snapshot again once); the same holds for a merge that
 * listed a unit folder that a rerun removed, which fails and leaves the partition as it was.
 */

import { readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { makeStaging } from "./exportStaging.ts";
import { LAKE_MARKER, LAKE_STAGING_PREFIX, LAKE_UNITS, latestRows, prepareLake } from "./lake.ts";
import { sqlStringLiteral } from "./sqlText.ts";
import { StoreError } from "./storeError.ts";

/**
 * What {@link compactLake} did in one partition.
 * @example const { partition, merged, rows } = (await compactLake("./lake"))[0];
 */
export interface CompactedPartition {
  /** The partition's folder, relative to the lake (`units/competition=…/asset=…/date=…`). */
  readonly partition: string;
  /** Folders merged (and removed): units' and earlier compacted ones. */
  readonly merged: number;
  /** Rows in the compacted folder, all tables (0: every unit there was a tombstone; no folder then). */
  readonly rows: number;
}

/**
 * Merges the folders of every partition of the lake at `directory` that has at least `minFiles`
 * (default 2) of them. Throws a {@link StoreError} when the folder is not a lake of this layout,
 * or naming the partition whose merge failed (its folders are then left as they were).
 * @param directory - the lake's folder.
 * @param options - which partitions to merge.
 * @param options.minFiles - a partition is merged when it has at least this many folders (one
 *   file of each table each); 2 by default.
 * @example const compacted = await compactLake("./lake");
 */
export async function compactLake(
  directory: string,
  options: { readonly minFiles?: number } = {},
): Promise<CompactedPartition[]> {
  try {
    statSync(join(directory, LAKE_MARKER));
  } catch {
    throw new StoreError("compactLake", directory, `not a pathlab lake (no ${LAKE_MARKER})`);
  }
  prepareLake(directory); // checks the layout, removes the staging folders of killed writers
  const minFiles = options.minFiles ?? 2;
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const done: CompactedPartition[] = [];
  try {
    for (const partition of partitions(directory)) {
      const folder = join(directory, partition);
      const merging = readdirSync(folder)
        .filter((name) => name.startsWith("unit-") || name.startsWith("compact-"))
        .sort();
      if (merging.length < minFiles) continue;
      const stamp = new Date().toISOString().replaceAll(/[-:.]/g, "");
      const staging = makeStaging(directory, LAKE_STAGING_PREFIX);
      let rows = 0;
      try {
        for (const [table, files] of filesByTable(folder, merging)) {
          const list = `[${files.map((file) => sqlStringLiteral(file)).join(", ")}]`;
          const latest = `SELECT * EXCLUDE (_version, _latest, filename, competition, asset, date)
            FROM (${latestRows(list)}) ORDER BY ALL`;
          const target = join(staging, `${table}.parquet`);
          const copied = (
            await connection.run(`COPY (${latest}) TO $target (FORMAT parquet)`, { target })
          ).rowsChanged;
          // Every unit of the table a tombstone: nothing to keep.
          if (copied === 0) rmSync(target);
          rows += copied;
        }
        if (rows > 0) renameSync(staging, join(folder, `compact-${stamp}-${process.pid}`));
      } catch (error) {
        throw new StoreError(
          "compactLake",
          directory,
          `partition ${partition} was not compacted (its folders are as they were): ${(error as Error).message}`,
          { cause: error },
        );
      } finally {
        rmSync(staging, { recursive: true, force: true });
      }
      for (const name of merging) rmSync(join(folder, name), { recursive: true, force: true });
      done.push({ partition, merged: merging.length, rows });
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return done;
}

/** The files of the folders `names` of the partition `folder`, by table (sorted). */
function filesByTable(folder: string, names: readonly string[]): Map<string, string[]> {
  const byTable = new Map<string, string[]>();
  for (const name of names) {
    for (const file of readdirSync(join(folder, name))) {
      if (!file.endsWith(".parquet")) continue;
      const table = file.slice(0, -".parquet".length);
      byTable.set(table, [...(byTable.get(table) ?? []), join(folder, name, file)]);
    }
  }
  return new Map([...byTable].sort(([first], [second]) => (first < second ? -1 : 1)));
}

/** The partitions of the lake (`units/competition=…/asset=…/date=…`, relative to it), sorted. */
function partitions(directory: string): string[] {
  const found: string[] = [];
  const walk = (relative: string, depth: number) => {
    if (depth === 3) {
      found.push(relative);
      return;
    }
    for (const entry of readdirSync(join(directory, relative), { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(relative, entry.name), depth + 1);
    }
  };
  try {
    statSync(join(directory, LAKE_UNITS));
  } catch {
    return found; // no unit yet
  }
  walk(LAKE_UNITS, 0);
  return found.sort();
}
