/**
 * A path set's `path_values` rows as DuckDB data chunks, each column written with one copy.
 *
 * `@duckdb/node-api`'s vectors write a list column value by value: the child vector is copied out
 * to JavaScript, each double is set in it, and it is copied back. For a path set, whose values are
 * already one contiguous Float64Array, that is two copies and a call per double more than needed
 * (about 1 s of the main thread's 11 s in a replayed `npm start` sync; docs/performance.md). So the
 * columns are written here through DuckDB's C API as `@duckdb/node-bindings` exposes it: the
 * paths' values go into the list's child vector with one memory copy, the list entries (offset,
 * length) and the id and path columns likewise. The bindings are the very module node-api loaded
 * (resolved from node-api's own folder), so the chunk's native handles belong to it.
 */

import { createRequire } from "node:module";
import { BIGINT, DOUBLE, DuckDBDataChunk, INTEGER, LIST } from "@duckdb/node-api";
import type * as NodeBindings from "@duckdb/node-bindings";
import type { PathSet } from "../paths/pathSet.ts";

type Bindings = typeof NodeBindings;

const fromHere = createRequire(import.meta.url);
const bindings = createRequire(fromHere.resolve("@duckdb/node-api"))(
  "@duckdb/node-bindings",
) as Bindings;

/** Column types of `path_values`, in table order. */
const PATH_VALUES_TYPES = [BIGINT, INTEGER, LIST(DOUBLE)];

/** Rows per data chunk: DuckDB's vector size, the most rows a chunk's flat vectors hold. */
const CHUNK_ROWS = bindings.vector_size();

/**
 * Appends the `path_values` rows of `pathSet` (id `id`, path p, its `nPoints` prices) to
 * `appender` in data chunks of up to DuckDB's vector size (2,048 paths). The path set's shape must
 * have been checked: `values` holds exactly `nPaths × nPoints` numbers.
 * @example appendPathValues(appender, 7n, pathSet)
 */
export function appendPathValues(
  appender: { appendDataChunk(chunk: DuckDBDataChunk): void },
  id: bigint,
  pathSet: PathSet,
): void {
  const { nPaths, nPoints } = pathSet;
  // The C API copies from an ArrayBuffer; values over a SharedArrayBuffer are copied to one first.
  const values =
    pathSet.values.buffer instanceof ArrayBuffer ? pathSet.values : pathSet.values.slice();
  const ids = new BigInt64Array(Math.min(CHUNK_ROWS, nPaths)).fill(id);
  const paths = new Int32Array(ids.length);
  const entries = new BigUint64Array(2 * ids.length);
  for (let first = 0; first < nPaths; first += CHUNK_ROWS) {
    const rows = Math.min(CHUNK_ROWS, nPaths - first);
    for (let row = 0; row < rows; row++) {
      paths[row] = first + row;
      entries[2 * row] = BigInt(row * nPoints);
      entries[2 * row + 1] = BigInt(nPoints);
    }
    const chunk = DuckDBDataChunk.create(PATH_VALUES_TYPES);
    const native = chunk.chunk;
    bindings.data_chunk_set_size(native, rows);
    copyInto(bindings.data_chunk_get_vector(native, 0), ids, rows);
    copyInto(bindings.data_chunk_get_vector(native, 1), paths, rows);
    const list = bindings.data_chunk_get_vector(native, 2);
    copyInto(list, entries, 2 * rows);
    // The child vector must hold every value before they are copied in: the copy is unchecked.
    bindings.list_vector_reserve(list, rows * nPoints);
    bindings.list_vector_set_size(list, rows * nPoints);
    copyInto(
      bindings.list_vector_get_child(list),
      values.subarray(first * nPoints, (first + rows) * nPoints),
      rows * nPoints,
    );
    appender.appendDataChunk(chunk);
  }
}

/** Copies the first `count` elements of `source` to the start of `vector`'s data. */
function copyInto(
  vector: ReturnType<Bindings["data_chunk_get_vector"]>,
  source: BigInt64Array | BigUint64Array | Int32Array | Float64Array,
  count: number,
): void {
  bindings.copy_data_to_vector(
    vector,
    0,
    source.buffer as ArrayBuffer,
    source.byteOffset,
    count * source.BYTES_PER_ELEMENT,
  );
}
