/**
 * Where a lake's rows are, and which of them a reader keeps (see `lake.ts`): the units' folder, the
 * glob of one table's files, and each unit's latest rows of them. Shared by the writer (`lake.ts`,
 * `lakeWrite.ts`, `lakeCompact.ts`) and the reader (`lakeSnapshot.ts`).
 */

import { join } from "node:path";

/**
 * The folder of the lake that holds the units' folders, by partition.
 * @example join("./lake", LAKE_UNITS) // => "lake/units"
 */
export const LAKE_UNITS = "units";

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
