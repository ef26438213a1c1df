/**
 * Path sets into the store: one `path_sets` row per miner and prompt (upserted on its natural key)
 * and one `path_values` row per path whose `prices DOUBLE[]` are the path's Float64Array values,
 * written through data chunks. `readPathSets.ts` reads them back, bit-identical.
 */

import { listValue, type DuckDBConnection } from "@duckdb/node-api";
import type { PathSet } from "../paths/pathSet.ts";
import { flushInTurn } from "./appendInTurns.ts";
import { appendPathValues, checkShape } from "./pathValuesChunks.ts";
import { timestampOfUnix } from "./timestamps.ts";

/**
 * A path set to store, with where it came from.
 * @example const entry: PathSetEntry = { pathSet, source: "/v2/prediction/historical", fetchedAtUnix: 1772063117 };
 */
export interface PathSetEntry {
  readonly pathSet: PathSet;
  /** Where it was fetched (the operation path or the service's base URL), free text. */
  readonly source: string;
  /** When it was fetched, Unix seconds. */
  readonly fetchedAtUnix: number;
}

/**
 * Upserts every path set of a unit in one statement (one round trip): the columns arrive as lists
 * of equal length, unnested side by side. RETURNING gives each row's id with its natural key.
 */
const UPSERT_PATH_SETS = `
INSERT INTO path_sets (asset, miner_uid, start_time, time_increment, time_length, n_paths, n_points,
  source, fetched_at, run_id)
SELECT unnest($assets), unnest($miner_uids), unnest($start_times), unnest($time_increments),
  unnest($time_lengths), unnest($n_paths), unnest($n_points), unnest($sources),
  unnest($fetched_ats), $run_id
ON CONFLICT (asset, miner_uid, start_time, time_increment, time_length) DO UPDATE SET
  n_paths = excluded.n_paths, n_points = excluded.n_points, source = excluded.source,
  fetched_at = excluded.fetched_at, run_id = excluded.run_id
RETURNING id, asset, miner_uid, epoch_us(start_time), time_increment, time_length`;

const DELETE_PATH_VALUES = `
DELETE FROM path_values WHERE path_set_id IN (SELECT unnest($path_set_ids))`;

/** The path sets of one prompt (asset, start, increment, length) whose miner is not among `$miners`. */
const OTHER_MEMBERS = `
SELECT id FROM path_sets
WHERE asset = $asset AND start_time = $start_time AND time_increment = $time_increment
  AND time_length = $time_length AND NOT list_contains($miners, miner_uid)`;

const DELETE_PATH_SETS = `DELETE FROM path_sets WHERE id IN (SELECT unnest($ids))`;

/**
 * Writes `entries` on `connection`, which must be inside a transaction (see `writeUnit`): each path
 * set's row is upserted on its natural key and its values replace any stored before, so writing the
 * same path set twice leaves one copy. The values go in as data chunks of up to 2,048 paths, each
 * column copied in whole from its typed array (`pathValuesChunks.ts`). Returns the path set ids,
 * in order.
 * @example
 * const ids = await insertPathSets(connection, [{ pathSet, source: "/v2/prediction/historical", fetchedAtUnix: 1772063117 }], runId);
 */
export async function insertPathSets(
  connection: DuckDBConnection,
  entries: readonly PathSetEntry[],
  runId: number | null,
): Promise<number[]> {
  if (entries.length === 0) return [];
  const keys = entries.map(({ pathSet }) => {
    checkShape(pathSet);
    return naturalKey(
      pathSet.asset,
      pathSet.minerUid,
      timestampOfUnix(pathSet.startTime).micros,
      pathSet.timeIncrement,
      (pathSet.nPoints - 1) * pathSet.timeIncrement,
    );
  });
  const repeated = keys.findIndex((key, index) => keys.indexOf(key) !== index);
  if (repeated !== -1) {
    const { asset, minerUid, startTime, timeIncrement, nPoints } = entries[repeated].pathSet;
    throw new RangeError(
      `insertPathSets requires each path set once per write, got ${asset} miner ${minerUid} start ${startTime} increment ${timeIncrement} points ${nPoints} twice`,
    );
  }
  const reader = await connection.runAndReadAll(UPSERT_PATH_SETS, {
    assets: listValue(entries.map(({ pathSet }) => pathSet.asset)),
    miner_uids: listValue(entries.map(({ pathSet }) => pathSet.minerUid)),
    start_times: listValue(entries.map(({ pathSet }) => timestampOfUnix(pathSet.startTime))),
    time_increments: listValue(entries.map(({ pathSet }) => pathSet.timeIncrement)),
    time_lengths: listValue(
      entries.map(({ pathSet }) => (pathSet.nPoints - 1) * pathSet.timeIncrement),
    ),
    n_paths: listValue(entries.map(({ pathSet }) => pathSet.nPaths)),
    n_points: listValue(entries.map(({ pathSet }) => pathSet.nPoints)),
    sources: listValue(entries.map((entry) => entry.source)),
    fetched_ats: listValue(entries.map((entry) => timestampOfUnix(entry.fetchedAtUnix))),
    run_id: runId,
  });
  const idByKey = new Map<string, number>();
  for (const [id, asset, minerUid, startMicros, timeIncrement, timeLength] of reader.getRowsJS()) {
    idByKey.set(
      naturalKey(
        String(asset),
        Number(minerUid),
        BigInt(startMicros as bigint),
        Number(timeIncrement),
        Number(timeLength),
      ),
      Number(id),
    );
  }
  const ids = keys.map((key) => idByKey.get(key) as number);
  await connection.run(DELETE_PATH_VALUES, { path_set_ids: listValue(ids.map(BigInt)) });
  const appender = await connection.createAppender("path_values");
  try {
    for (let index = 0; index < entries.length; index++) {
      appendPathValues(appender, BigInt(ids[index]), entries[index].pathSet);
      await flushInTurn(appender);
    }
  } finally {
    appender.closeSync();
  }
  return ids;
}

function naturalKey(
  asset: string,
  minerUid: number,
  startMicros: bigint,
  timeIncrement: number,
  timeLength: number,
): string {
  return `${asset}|${minerUid}|${startMicros}|${timeIncrement}|${timeLength}`;
}

/**
 * Removes, on `connection` (inside the unit's transaction), the path sets and values of the
 * prompts of `entries` whose miner is not among `entries`: a unit stored again with another
 * ensemble keeps only its new members. Returns how many path sets were removed.
 * @example await removeOtherMembers(connection, entries) // => 2
 */
export async function removeOtherMembers(
  connection: DuckDBConnection,
  entries: readonly PathSetEntry[],
): Promise<number> {
  const prompts = new Map<string, { pathSet: PathSet; miners: number[] }>();
  for (const { pathSet } of entries) {
    const key = `${pathSet.asset}|${pathSet.startTime}|${pathSet.timeIncrement}|${pathSet.nPoints}`;
    const prompt = prompts.get(key) ?? { pathSet, miners: [] };
    prompt.miners.push(pathSet.minerUid);
    prompts.set(key, prompt);
  }
  let removed = 0;
  for (const { pathSet, miners } of prompts.values()) {
    const reader = await connection.runAndReadAll(OTHER_MEMBERS, {
      asset: pathSet.asset,
      start_time: timestampOfUnix(pathSet.startTime),
      time_increment: pathSet.timeIncrement,
      time_length: (pathSet.nPoints - 1) * pathSet.timeIncrement,
      miners: listValue(miners),
    });
    const ids = reader.getRowsJS().map(([id]) => id as bigint);
    if (ids.length === 0) continue;
    await connection.run(DELETE_PATH_VALUES, { path_set_ids: listValue(ids) });
    await connection.run(DELETE_PATH_SETS, { ids: listValue(ids) });
    removed += ids.length;
  }
  return removed;
}
