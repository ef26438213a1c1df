/**
 * A path set's `path_values` rows as DuckDB data chunks, each column copied into its vector whole.
 *
 * The columns are written through DuckDB's C API as `@duckdb/node-bindings` exposes it: the paths'
 * values go into the list's child vector with one memory copy from the Float64Array, and the list
 * entries (offset, length), the ids and the path numbers likewise from typed arrays, not value by
 * value. The bindings are the very module `@duckdb/node-api` loaded (resolved from node-api's own
 * folder), so the chunk's native handles belong to it. The bindings' copy is unchecked and takes
 * offsets and lengths below 4 GiB, so the lengths are checked here, next to the copies.
 *
 * One data chunk per thread is filled, appended and reset again and again. A chunk's native memory
 * (the list's child vector holds a chunk's values, up to 4.7 MB of them) is freed when the chunk is
 * reset, or else only when the garbage collector finalizes its JavaScript handle, which V8 does not
 * hurry for memory it cannot see: storing 40 units of ten 1,000 × 289 path sets with a chunk per
 * path set peaked at 624 MB, against 247 MB with one chunk reset (docs/performance.md).
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

/** The thread's data chunk, created on first use; reset after each append. */
let reusable: DuckDBDataChunk | undefined;

/**
 * Appends the `path_values` rows of `pathSet` (id `id`, path p, its `nPoints` prices) to
 * `appender` in data chunks of up to DuckDB's vector size (2,048 paths). Throws `RangeError`, having
 * appended nothing, for a shape {@link checkShape} refuses.
 * @example appendPathValues(appender, 7n, pathSet)
 */
export function appendPathValues(
  appender: { appendDataChunk(chunk: DuckDBDataChunk): void },
  id: bigint,
  pathSet: PathSet,
): void {
  // Checked again here, next to the copies: values over a resizable buffer may have shrunk since.
  checkShape(pathSet);
  const { nPaths, nPoints, values } = pathSet;
  // Chunks of whole paths below 2 GiB of values, within the copy's 32-bit byte count.
  const chunkRows = Math.max(1, Math.min(CHUNK_ROWS, Math.floor(2 ** 31 / (8 * nPoints))));
  const rowsPerChunk = Math.min(chunkRows, nPaths);
  const ids = new BigInt64Array(rowsPerChunk).fill(id);
  const paths = new Int32Array(rowsPerChunk);
  const entries = new BigUint64Array(2 * rowsPerChunk);
  for (let row = 0; row < rowsPerChunk; row++) {
    entries[2 * row] = BigInt(row * nPoints);
    entries[2 * row + 1] = BigInt(nPoints);
  }
  reusable ??= DuckDBDataChunk.create(PATH_VALUES_TYPES);
  const chunk = reusable;
  const native = chunk.chunk;
  for (let first = 0; first < nPaths; first += chunkRows) {
    const rows = Math.min(chunkRows, nPaths - first);
    for (let row = 0; row < rows; row++) paths[row] = first + row;
    try {
      bindings.data_chunk_set_size(native, rows);
      copyInto(bindings.data_chunk_get_vector(native, 0), ids, rows);
      copyInto(bindings.data_chunk_get_vector(native, 1), paths, rows);
      const list = bindings.data_chunk_get_vector(native, 2);
      copyInto(list, entries, 2 * rows);
      // The child vector must hold every value before they are copied in.
      bindings.list_vector_reserve(list, rows * nPoints);
      bindings.list_vector_set_size(list, rows * nPoints);
      copyInto(
        bindings.list_vector_get_child(list),
        values.subarray(first * nPoints, (first + rows) * nPoints),
        rows * nPoints,
      );
      appender.appendDataChunk(chunk);
    } finally {
      // The appender has copied the rows (or none); the reset frees the child's values at once.
      bindings.data_chunk_reset(native);
    }
  }
}

/**
 * Throws a `RangeError` naming the path set (as `insertPathSets`, which stores it) unless its
 * counts are whole numbers (nPaths ≥ 0, nPoints ≥ 1, timeIncrement > 0) and `values` holds exactly
 * nPaths × nPoints numbers.
 * @example checkShape(pathSet)
 */
export function checkShape(pathSet: PathSet): void {
  const { nPaths, nPoints, values, timeIncrement } = pathSet;
  const problems: [boolean, string][] = [
    [Number.isInteger(nPaths) && nPaths >= 0, `nPaths: expected a whole number ≥ 0, got ${nPaths}`],
    [
      Number.isInteger(nPoints) && nPoints >= 1,
      `nPoints: expected a whole number ≥ 1, got ${nPoints}`,
    ],
    [
      Number.isInteger(timeIncrement) && timeIncrement > 0,
      `timeIncrement: expected a whole number of seconds > 0, got ${timeIncrement}`,
    ],
    [
      values.length === nPaths * nPoints,
      `values: expected nPaths × nPoints = ${nPaths * nPoints} numbers, got ${values.length}`,
    ],
  ];
  for (const [ok, message] of problems) {
    if (!ok) {
      throw new RangeError(
        `insertPathSets: path set of ${pathSet.asset}, miner ${pathSet.minerUid}: ${message}`,
      );
    }
  }
}

/**
 * Copies the first `count` elements of `source` to the start of `vector`'s data. The bindings copy
 * only from an ArrayBuffer and at byte offsets below 4 GiB: a view of shared memory, or one that
 * far into its buffer, is copied to an array of its own first.
 */
function copyInto(
  vector: ReturnType<Bindings["data_chunk_get_vector"]>,
  source: BigInt64Array | BigUint64Array | Int32Array | Float64Array,
  count: number,
): void {
  if (count > source.length) {
    throw new RangeError(`appendPathValues: ${count} values to copy, ${source.length} given`);
  }
  const bytes = count * source.BYTES_PER_ELEMENT;
  const copyable =
    source.buffer instanceof ArrayBuffer && source.byteOffset + bytes < 2 ** 32
      ? source
      : source.slice(0, count);
  bindings.copy_data_to_vector(
    vector,
    0,
    copyable.buffer as ArrayBuffer,
    copyable.byteOffset,
    bytes,
  );
}
