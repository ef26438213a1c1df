/**
 * Compaction of a lake: the files of each partition merged into one, so that a lake kept current
 * for months stays a few files per partition instead of one per unit and table. Workers may keep
 * writing while it runs.
 *
 * A partition's files are read and their latest rows (`latestRows`: per unit, its own file or the
 * latest compacted one, tombstones dropped) written to a temporary file, renamed into place as
 * `compact-<time>-<pid>.parquet`, and only then are the merged files removed. Between the rename
 * and the removals a unit's own file still wins over the compacted copy of the same write, so
 * readers see each unit once throughout. A merged file that a worker replaced meanwhile (a rerun of
 * its unit) is left in place, as newer.
 *
 * Two limits, both narrow: a reader that listed a partition's files before they were removed
 * fails with a missing file (`openLake` takes its snapshot again once); and a rerun that replaces a
 * unit's file in the instant between the check and the removal is lost, leaving that unit's
 * previous write. Compacting the partitions of past dates, which workers no longer write, avoids
 * the second.
 */

import { renameSync, rmSync, statSync, type Stats } from "node:fs";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { LAKE_MARKER, lakeFiles } from "./lake.ts";
import { latestRows } from "./lakeSnapshot.ts";
import { sqlStringLiteral } from "./sqlText.ts";
import { StoreError } from "./storeError.ts";

/**
 * What {@link compactLake} did in one partition.
 * @example const { partition, merged, rows } = (await compactLake("./lake"))[0];
 */
export interface CompactedPartition {
  /** The partition's folder, relative to the lake (`miner_scores/competition=…/asset=…/date=…`). */
  readonly partition: string;
  /** Files merged (and removed). */
  readonly merged: number;
  /** Rows in the compacted file (0: every unit there was a tombstone; no file then). */
  readonly rows: number;
}

/**
 * Merges the files of every partition of the lake at `directory` that has more than
 * `minFiles` (default 2) of them. Throws a {@link StoreError} when the folder is not a lake, or
 * naming the partition whose merge failed (its files are then left as they were).
 * @param directory - the lake's folder.
 * @param options - which partitions to merge.
 * @param options.minFiles - a partition is merged when it has more files than this; 2 by default.
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
  const minFiles = options.minFiles ?? 2;
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const done: CompactedPartition[] = [];
  try {
    for (const [partition, names] of partitions(directory)) {
      const folder = join(directory, partition);
      if (names.length < minFiles) continue;
      const files = names.map((name) => ({
        path: join(folder, name),
        stats: statSync(join(folder, name)),
      }));
      const stamp = new Date().toISOString().replaceAll(/[-:.]/g, "");
      const temporary = join(folder, `.compact-${stamp}-${process.pid}.tmp`);
      const target = join(folder, `compact-${stamp}-${process.pid}.parquet`);
      let rows: number;
      try {
        const list = `[${files.map((file) => sqlStringLiteral(file.path)).join(", ")}]`;
        const latest = `SELECT * EXCLUDE (_version, _latest, filename, competition, asset, date)
          FROM (${latestRows(list)}) ORDER BY ALL`;
        rows = (
          await connection.run(`COPY (${latest}) TO $target (FORMAT parquet)`, {
            target: temporary,
          })
        ).rowsChanged;
        // Every unit there a tombstone: nothing to keep.
        if (rows > 0) renameSync(temporary, target);
        else rmSync(temporary, { force: true });
      } catch (error) {
        rmSync(temporary, { force: true });
        throw new StoreError(
          "compactLake",
          directory,
          `partition ${partition} was not compacted (its files are as they were): ${(error as Error).message}`,
          { cause: error },
        );
      }
      for (const file of files) {
        if (unchanged(file.path, file.stats)) rmSync(file.path, { force: true });
      }
      done.push({ partition, merged: files.length, rows });
    }
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return done;
}

/** Whether the file at `path` is still the one `before` describes (no rerun replaced it). */
function unchanged(path: string, before: Stats): boolean {
  try {
    const now = statSync(path);
    return now.ino === before.ino && now.mtimeMs === before.mtimeMs && now.size === before.size;
  } catch {
    return false;
  }
}

/** The Parquet files of the lake by folder (relative to it), folders and files sorted. */
function partitions(directory: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const entry of lakeFiles(directory)) {
    const parts = entry.split("/");
    const name = parts.pop()!;
    if (parts.length === 0) continue; // not in a table's folder
    const folder = parts.join("/");
    found.set(folder, [...(found.get(folder) ?? []), name]);
  }
  return new Map([...found].sort(([first], [second]) => (first < second ? -1 : 1)));
}
