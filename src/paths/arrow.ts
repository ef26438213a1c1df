/**
 * Path sets as Apache Arrow tables `{miner_uid: Int32, path: Int32, prices: FixedSizeList<Float64>}`
 * whose prices buffer is the path set's own Float64Array, both ways (zero copy).
 */

import {
  DataType,
  Field,
  FixedSizeList,
  Float64,
  Int32,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  Table,
  type Data,
  type Vector,
} from "apache-arrow";
import { Ensemble } from "./ensemble.ts";
import type { PathSet } from "./pathSet.ts";
import { PathSetError } from "./pathSetError.ts";

/** Schema metadata keys (spec field names) carried by every path-set table. */
const METADATA = {
  asset: "asset",
  startTime: "start_time",
  timeIncrement: "time_increment",
  rebasedTo: "rebased_to",
  rebase: "rebase",
} as const;

/**
 * An Arrow table of a path set or an ensemble: one row per path, `miner_uid` (Int32), `path`
 * (Int32, the path's index within its miner's set) and `prices` (FixedSizeList<Float64>[nPoints]).
 * The prices' child buffer is `source.values` itself, not a copy. Schema metadata carries
 * `asset`, `start_time` and `time_increment` (and `rebased_to`, `rebase` for a re-based ensemble).
 * @param source - one miner's path set, or an ensemble of several.
 * @example
 * const table = toArrowTable(pathSet);
 * table.getChild("prices")!.data[0].children[0].values === pathSet.values; // => true
 */
export function toArrowTable(source: PathSet | Ensemble): Table {
  const { nPaths, nPoints, values } = source;
  const minerUids = new Int32Array(nPaths);
  const pathIndexes = new Int32Array(nPaths);
  const members =
    source instanceof Ensemble
      ? source.members
      : [{ minerUid: source.minerUid, offset: 0, count: nPaths }];
  for (const member of members) {
    for (let index = 0; index < member.count; index++) {
      minerUids[member.offset + index] = member.minerUid;
      pathIndexes[member.offset + index] = index;
    }
  }
  const metadata = new Map<string, string>([
    [METADATA.asset, source.asset],
    [METADATA.startTime, String(source.startTime)],
    [METADATA.timeIncrement, String(source.timeIncrement)],
  ]);
  if (source instanceof Ensemble && source.rebasedTo !== undefined) {
    metadata.set(METADATA.rebasedTo, String(source.rebasedTo));
    metadata.set(METADATA.rebase, source.rebase);
  }
  const pricesType = new FixedSizeList(nPoints, new Field("price", new Float64(), false));
  const schema = new Schema(
    [
      new Field("miner_uid", new Int32(), false),
      new Field("path", new Int32(), false),
      new Field("prices", pricesType, false),
    ],
    metadata,
  );
  const prices = makeData({
    type: pricesType,
    length: nPaths,
    nullCount: 0,
    child: makeData({ type: new Float64(), length: values.length, nullCount: 0, data: values }),
  });
  const columns = makeData({
    type: new Struct(schema.fields),
    length: nPaths,
    nullCount: 0,
    children: [
      makeData({ type: new Int32(), length: nPaths, nullCount: 0, data: minerUids }),
      makeData({ type: new Int32(), length: nPaths, nullCount: 0, data: pathIndexes }),
      prices,
    ],
  });
  return new Table(schema, [new RecordBatch(schema, columns)]);
}

/**
 * What {@link pathSetFromArrow} takes from the caller instead of the table's metadata.
 * @example const meta: ArrowPathSetMeta = { asset: "BTC", startTime: 1763683200, timeIncrement: 300, minerUid: 17 };
 */
export interface ArrowPathSetMeta {
  readonly asset?: string;
  readonly startTime?: number;
  readonly timeIncrement?: number;
  readonly minerUid?: number;
}

/**
 * A {@link PathSet} from a table of {@link toArrowTable}'s shape (also after an IPC round trip):
 * `values` is the prices column's own buffer when it is one chunk without nulls (zero copy),
 * else one copy ({@link float64ValuesOf}). `meta` overrides the schema metadata (`asset`,
 * `start_time`, `time_increment`); the miner comes from `meta.minerUid` or the `miner_uid` column,
 * which must then hold one miner. Throws {@link PathSetError} naming what is missing or wrong.
 * @param table - a table of {@link toArrowTable}'s shape.
 * @param meta - the asset, start time, time increment and miner to use instead of the table's; each
 *   omitted one is read from the table.
 * @example
 * const back = pathSetFromArrow(tableFromIPC(tableToIPC(toArrowTable(pathSet))));
 */
export function pathSetFromArrow(table: Table, meta: ArrowPathSetMeta = {}): PathSet {
  const metadata = table.schema.metadata;
  const prices = table.getChild("prices");
  if (prices === null || !isFloat64List(prices.type)) {
    throw new PathSetError({
      subject: "pathSetFromArrow: column prices",
      expected: "FixedSizeList<Float64>",
      got: prices === null ? undefined : String(prices.type),
    });
  }
  const nPoints = (prices.type as FixedSizeList).listSize;
  const minerUid = meta.minerUid ?? singleMiner(table);
  const asset = meta.asset ?? metadata.get(METADATA.asset);
  const startTime = meta.startTime ?? Number(metadata.get(METADATA.startTime) ?? NaN);
  const timeIncrement = meta.timeIncrement ?? Number(metadata.get(METADATA.timeIncrement) ?? NaN);
  if (asset === undefined) {
    throw new PathSetError({
      minerUid,
      subject: "pathSetFromArrow: metadata asset",
      expected: "an asset symbol",
      got: undefined,
    });
  }
  if (!Number.isInteger(startTime)) {
    throw new PathSetError({
      minerUid,
      subject: "pathSetFromArrow: metadata start_time",
      expected: "an integer (Unix seconds)",
      got: metadata.get(METADATA.startTime),
    });
  }
  if (!Number.isInteger(timeIncrement) || timeIncrement < 1) {
    throw new PathSetError({
      minerUid,
      subject: "pathSetFromArrow: metadata time_increment",
      expected: "a positive integer (seconds)",
      got: metadata.get(METADATA.timeIncrement),
    });
  }
  return {
    asset,
    minerUid,
    startTime,
    timeIncrement,
    nPaths: table.numRows,
    nPoints,
    values: float64ValuesOf(prices as Vector<FixedSizeList<Float64>>),
  };
}

/**
 * The numbers of a Float64 column, or of a FixedSizeList<Float64> column flattened row by row, as
 * one Float64Array: the column's own buffer (no copy) when it is one chunk without nulls, else
 * one copy of all chunks, null entries as NaN. Never reads element by element through `get`.
 * @param column - a Float64 column, or a FixedSizeList<Float64> column such as `prices`.
 * @example float64ValuesOf(table.getChild("prices")!) // nPaths × nPoints numbers
 */
export function float64ValuesOf(
  column: Vector<Float64> | Vector<FixedSizeList<Float64>>,
): Float64Array {
  const chunks = column.data as Data<Float64 | FixedSizeList<Float64>>[];
  const stride = DataType.isFixedSizeList(column.type) ? column.type.listSize : 1;
  if (chunks.length === 1) {
    const only = leaf(chunks[0]);
    if (chunks[0].nullCount === 0 && only.nullCount === 0) {
      const wanted = chunks[0].length * stride;
      return only.values.length === wanted ? only.values : only.values.subarray(0, wanted);
    }
  }
  const out = new Float64Array(column.length * stride);
  let offset = 0;
  for (const chunk of chunks) {
    const values = leaf(chunk);
    const size = chunk.length * stride;
    out.set(values.values.subarray(0, size), offset);
    if (values.nullCount !== 0) fillNulls(out, offset, values, size, 1);
    if (chunk !== (values as Data) && chunk.nullCount !== 0)
      fillNulls(out, offset, chunk, chunk.length, stride);
    offset += size;
  }
  return out;
}

/** The Float64 data under a chunk (the chunk itself, or a FixedSizeList's child). */
function leaf(chunk: Data<Float64 | FixedSizeList<Float64>>): Data<Float64> {
  return DataType.isFixedSizeList(chunk.type)
    ? (chunk.children[0] as Data<Float64>)
    : (chunk as Data<Float64>);
}

/** Writes NaN over the `stride` numbers of every null entry of `data` (read from its bitmap). */
function fillNulls(
  out: Float64Array,
  offset: number,
  data: Data,
  entries: number,
  stride: number,
): void {
  const bitmap = data.nullBitmap;
  if (bitmap === undefined || bitmap.length === 0) return;
  for (let entry = 0; entry < entries; entry++) {
    const bit = data.offset + entry;
    if ((bitmap[bit >> 3] & (1 << (bit & 7))) === 0) {
      out.fill(NaN, offset + entry * stride, offset + (entry + 1) * stride);
    }
  }
}

function isFloat64List(type: DataType): boolean {
  return (
    DataType.isFixedSizeList(type) &&
    DataType.isFloat(type.children[0].type) &&
    type.children[0].type.precision === 2
  );
}

/** The one miner of a table's `miner_uid` column (read from its Int32 buffers). */
function singleMiner(table: Table): number {
  const column = table.getChild("miner_uid");
  if (column === null || !DataType.isInt(column.type) || column.length === 0) {
    throw new PathSetError({
      subject: "pathSetFromArrow: column miner_uid",
      expected: "an Int32 column with one miner (or meta.minerUid)",
      got: column === null ? undefined : `${String(column.type)}(${column.length})`,
    });
  }
  const first = column.data[0].values[0] as number;
  for (const chunk of column.data) {
    const values = chunk.values as Int32Array;
    for (let index = 0; index < chunk.length; index++) {
      if (values[index] !== first) {
        throw new PathSetError({
          subject: "pathSetFromArrow: column miner_uid",
          expected: `one miner (${first})`,
          got: values[index],
        });
      }
    }
  }
  return first;
}
