/**
 * Path sets out of the store: the `path_sets` rows matching a query, each with its `path_values`
 * read back into a PathSet whose Float64Array is bit-identical to the one written.
 */

import {
  DuckDBDoubleVector,
  listValue,
  type DuckDBConnection,
  type DuckDBIntegerVector,
  type DuckDBListVector,
  type DuckDBTimestampValue,
} from "@duckdb/node-api";
import { allocateValues, type PathSet, type PathSetAllocation } from "../paths/pathSet.ts";
import type { Store } from "./openStore.ts";
import { StoreError } from "./storeError.ts";
import { timestampOfUnix, unixOfTimestamp } from "./timestamps.ts";

/**
 * Which stored path sets to read: those of `asset` starting at `startTime` with `timeIncrement`
 * (and `timeLength` seconds, when given), optionally only the given miners.
 * @example const key: PathSetQuery = { asset: "BTC", startTime: 1772063100, timeIncrement: 300, timeLength: 86400 };
 */
export interface PathSetQuery {
  readonly asset: string;
  /** Unix seconds. */
  readonly startTime: number;
  readonly timeIncrement: number;
  /** Horizon in seconds, (nPoints − 1) · timeIncrement; any when omitted. */
  readonly timeLength?: number;
  /** Only these miners; all when omitted. */
  readonly minerUids?: readonly number[];
}

const SELECT_PATH_SETS = `
SELECT id, asset, miner_uid, start_time, time_increment, n_paths, n_points
FROM path_sets
WHERE asset = $asset AND start_time = $start_time AND time_increment = $time_increment
  AND ($time_length IS NULL OR time_length = $time_length)
  AND ($miner_uids IS NULL OR list_contains($miner_uids, miner_uid))
ORDER BY miner_uid`;

const SELECT_PATH_VALUES = `
SELECT path, prices FROM path_values WHERE path_set_id = $path_set_id ORDER BY path`;

/**
 * The stored path sets matching `query`, ordered by miner uid, each read back into a
 * {@link PathSet} whose values are bit-identical to those written (over SharedArrayBuffers with
 * `allocation.shared`, for a worker pool to read in place). Throws a {@link StoreError}
 * when a stored path set is incomplete (a path missing, or a path with the wrong number of prices).
 * @param store - the store to read.
 * @param query - the asset, start time (Unix seconds) and time increment, and optionally the time
 *   length and the miners.
 * @param allocation - where the values go: over SharedArrayBuffers with `shared`; ordinary arrays
 *   by default.
 * @example
 * const pathSets = await readPathSets(store, { asset: "BTC", startTime: 1772063100, timeIncrement: 300 });
 * const ensemble = ensembleOf(pathSets, { rebaseTo: currentPrice });
 * const forPool = await readPathSets(store, query, { shared: true }); // ScoringThreads copies none
 */
export async function readPathSets(
  store: Store,
  query: PathSetQuery,
  allocation: PathSetAllocation = {},
): Promise<PathSet[]> {
  return store.withConnection(async (connection) => {
    const reader = await connection.runAndReadAll(SELECT_PATH_SETS, {
      asset: query.asset,
      start_time: timestampOfUnix(query.startTime),
      time_increment: query.timeIncrement,
      time_length: query.timeLength ?? null,
      miner_uids: query.minerUids === undefined ? null : listValue([...query.minerUids]),
    });
    const pathSets: PathSet[] = [];
    for (const row of reader.getRows()) {
      const [id, asset, minerUid, startTime, timeIncrement, nPaths, nPoints] = row;
      const shape = {
        id: Number(id),
        asset: String(asset),
        minerUid: Number(minerUid),
        startTime: unixOfTimestamp(startTime as DuckDBTimestampValue),
        timeIncrement: Number(timeIncrement),
        nPaths: Number(nPaths),
        nPoints: Number(nPoints),
      };
      const values = await readValues(connection, store.path, shape, allocation);
      pathSets.push({
        asset: shape.asset,
        minerUid: shape.minerUid,
        startTime: shape.startTime,
        timeIncrement: shape.timeIncrement,
        nPaths: shape.nPaths,
        nPoints: shape.nPoints,
        values,
      });
    }
    return pathSets;
  });
}

/**
 * One stored path set, or undefined when none has this key.
 * @param store - the store to read.
 * @param key - the asset, miner, start time (Unix seconds), time increment and time length
 *   (seconds).
 * @param allocation - where the values go: over a SharedArrayBuffer with `shared`; an ordinary
 *   array by default.
 * @example
 * const pathSet = await readPathSet(store, { asset: "BTC", minerUid: 17, startTime: 1772063100, timeIncrement: 300, timeLength: 86400 });
 */
export async function readPathSet(
  store: Store,
  key: Omit<PathSetQuery, "minerUids"> & { readonly minerUid: number },
  allocation: PathSetAllocation = {},
): Promise<PathSet | undefined> {
  const found = await readPathSets(store, { ...key, minerUids: [key.minerUid] }, allocation);
  return found[0];
}

interface StoredShape {
  readonly id: number;
  readonly asset: string;
  readonly minerUid: number;
  readonly nPaths: number;
  readonly nPoints: number;
}

async function readValues(
  connection: DuckDBConnection,
  databasePath: string,
  shape: StoredShape,
  allocation: PathSetAllocation,
): Promise<Float64Array> {
  const { id, nPaths, nPoints } = shape;
  const values = allocateValues(nPaths * nPoints, allocation.shared === true);
  const fail = (detail: string): never => {
    throw new StoreError(
      "readPathSets",
      databasePath,
      `path set ${id} (${shape.asset}, miner ${shape.minerUid}): ${detail}`,
    );
  };
  const result = await connection.run(SELECT_PATH_VALUES, { path_set_id: id });
  let expectedPath = 0;
  for (let chunk = await result.fetchChunk(); chunk !== null; chunk = await result.fetchChunk()) {
    const rows = chunk.rowCount;
    if (rows === 0) break;
    const paths = chunk.getColumnVector(0) as DuckDBIntegerVector;
    const prices = chunk.getColumnVector(1) as DuckDBListVector;
    const child = prices.childVector;
    if (!(child instanceof DuckDBDoubleVector)) fail("expected prices of type DOUBLE[]");
    const doubles = child as DuckDBDoubleVector;
    for (let row = 0; row < rows; row++) {
      const path = paths.getItem(row);
      if (expectedPath >= nPaths) fail(`expected ${nPaths} paths, got a path ${String(path)}`);
      if (path !== expectedPath) {
        fail(`expected path ${expectedPath} of ${nPaths}, got path ${String(path)}`);
      }
      const length = prices.getEntryLength(row);
      if (length !== nPoints) {
        fail(`path ${expectedPath}: expected ${nPoints} prices, got ${length}`);
      }
      const offset = prices.getEntryOffset(row);
      const target = expectedPath * nPoints;
      for (let point = 0; point < nPoints; point++) {
        const price = doubles.getItem(offset + point);
        if (price === null) {
          fail(`path ${expectedPath}, point ${point}: expected a price, got NULL`);
        }
        values[target + point] = price as number;
      }
      expectedPath++;
    }
  }
  if (expectedPath !== nPaths) fail(`expected ${nPaths} paths, got ${expectedPath}`);
  return values;
}
