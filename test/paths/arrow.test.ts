import {
  makeData,
  makeVector,
  Field,
  FixedSizeList,
  Float64,
  Int32,
  Table,
  tableFromIPC,
  tableToIPC,
  vectorFromArray,
} from "apache-arrow";
import { describe, expect, it } from "vitest";
import { float64ValuesOf, pathSetFromArrow, toArrowTable } from "../../src/paths/arrow.ts";
import { ensembleOf } from "../../src/paths/ensemble.ts";
import type { PathSet } from "../../src/paths/pathSet.ts";
import { PathSetError } from "../../src/paths/pathSetError.ts";

function pathSet(minerUid: number, nPaths = 1000, nPoints = 289): PathSet {
  const values = Float64Array.from(
    { length: nPaths * nPoints },
    (_, index) => 68000 + Math.sin(index) * 1000 + minerUid,
  );
  return {
    asset: "BTC",
    minerUid,
    startTime: 1772063100,
    timeIncrement: 300,
    nPaths,
    nPoints,
    values,
  };
}

function bytesOf(values: Float64Array): Buffer {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}

describe("toArrowTable", () => {
  it("toArrowTable shares the path set's Float64Array as the prices' child buffer (zero copy)", () => {
    const source = pathSet(17);
    const table = toArrowTable(source);
    const prices = table.getChild("prices")!;
    expect(prices.data).toHaveLength(1);
    expect(prices.data[0].children[0].values).toBe(source.values);
  });

  it("toArrowTable has the schema {miner_uid: Int32, path: Int32, prices: FixedSizeList<Float64>[nPoints]} with metadata", () => {
    const table = toArrowTable(pathSet(17, 3, 5));
    expect(table.schema.fields.map((field) => [field.name, String(field.type)])).toEqual([
      ["miner_uid", "Int32"],
      ["path", "Int32"],
      ["prices", "FixedSizeList[5]<Float64>"],
    ]);
    expect(Object.fromEntries(table.schema.metadata)).toEqual({
      asset: "BTC",
      start_time: "1772063100",
      time_increment: "300",
    });
    expect(table.getChild("path")!.toArray()).toEqual(Int32Array.of(0, 1, 2));
    expect(table.getChild("miner_uid")!.toArray()).toEqual(Int32Array.of(17, 17, 17));
    expect(Array.from(table.getChild("prices")!.get(1)!.toArray() as Float64Array)).toEqual(
      Array.from(pathSet(17, 3, 5).values.subarray(5, 10)),
    );
  });

  it("toArrowTable of an ensemble gives each path its miner and index within the miner, and the re-basing metadata", () => {
    const ensemble = ensembleOf([pathSet(5, 2, 3), pathSet(17, 3, 3)], { rebaseTo: 70000 });
    const table = toArrowTable(ensemble);
    expect(table.getChild("miner_uid")!.toArray()).toEqual(Int32Array.of(5, 5, 17, 17, 17));
    expect(table.getChild("path")!.toArray()).toEqual(Int32Array.of(0, 1, 0, 1, 2));
    expect(table.getChild("prices")!.data[0].children[0].values).toBe(ensemble.values);
    expect(table.schema.metadata.get("rebased_to")).toBe("70000");
    expect(table.schema.metadata.get("rebase")).toBe("additive");
  });
});

describe("pathSetFromArrow", () => {
  it("pathSetFromArrow goes back without copying: values is the very same Float64Array", () => {
    const source = pathSet(17);
    const back = pathSetFromArrow(toArrowTable(source));
    expect(back.values).toBe(source.values);
    expect(back).toMatchObject({
      asset: "BTC",
      minerUid: 17,
      startTime: 1772063100,
      timeIncrement: 300,
      nPaths: 1000,
      nPoints: 289,
    });
  });

  it("an Arrow IPC round trip keeps the values bit-identical and reads them in place from the IPC buffer", () => {
    const source = pathSet(17);
    source.values[5] = -0;
    source.values[6] = Number.MIN_VALUE;
    const ipc = tableToIPC(toArrowTable(source));
    const back = pathSetFromArrow(tableFromIPC(ipc));
    expect(bytesOf(back.values).equals(bytesOf(source.values))).toBe(true);
    expect(back.values.buffer).toBe(ipc.buffer);
    expect(back).toMatchObject({
      asset: "BTC",
      minerUid: 17,
      startTime: 1772063100,
      timeIncrement: 300,
      nPaths: 1000,
      nPoints: 289,
    });
  });

  it("pathSetFromArrow copies once when the prices come in several chunks, nulls becoming NaN", () => {
    const first = pathSet(17, 2, 3);
    const second = pathSet(17, 2, 3);
    const table = toArrowTable(first).concat(toArrowTable(second));
    const back = pathSetFromArrow(table);
    expect(Array.from(back.values)).toEqual([...first.values, ...second.values]);
    expect(back.nPaths).toBe(4);

    const type = new FixedSizeList(2, new Field("price", new Float64(), true));
    const withNull = makeVector(
      makeData({
        type,
        length: 3,
        nullCount: 1,
        nullBitmap: Uint8Array.of(0b101),
        child: makeData({
          type: new Float64(),
          length: 6,
          data: Float64Array.of(1, 2, 3, 4, 5, 6),
        }),
      }),
    );
    expect(Array.from(float64ValuesOf(withNull))).toEqual([1, 2, NaN, NaN, 5, 6]);
    const plain = vectorFromArray([1.5, null, 2.5], new Float64());
    expect(Array.from(float64ValuesOf(plain))).toEqual([1.5, NaN, 2.5]);
  });

  it("pathSetFromArrow takes the caller's metadata over the table's, and names what is missing", () => {
    const table = toArrowTable(pathSet(17, 2, 3));
    expect(pathSetFromArrow(table, { asset: "ETH", minerUid: 9 })).toMatchObject({
      asset: "ETH",
      minerUid: 9,
    });
    const bare = new Table({
      miner_uid: table.getChild("miner_uid")!,
      path: table.getChild("path")!,
      prices: table.getChild("prices")!,
    });
    expect(() => pathSetFromArrow(bare)).toThrow(
      "miner 17: pathSetFromArrow: metadata asset: expected an asset symbol, got missing",
    );
    expect(() => pathSetFromArrow(bare, { asset: "BTC" })).toThrow(PathSetError);
    expect(
      pathSetFromArrow(bare, { asset: "BTC", startTime: 1, timeIncrement: 300 }).startTime,
    ).toBe(1);
  });

  it("pathSetFromArrow rejects a table without FixedSizeList<Float64> prices or with several miners", () => {
    const noPrices = new Table({ miner_uid: vectorFromArray([1], new Int32()) });
    expect(() => pathSetFromArrow(noPrices)).toThrow(
      "pathSetFromArrow: column prices: expected FixedSizeList<Float64>, got missing",
    );
    const ensembleTable = toArrowTable(ensembleOf([pathSet(5, 1, 3), pathSet(17, 1, 3)]));
    expect(() => pathSetFromArrow(ensembleTable)).toThrow(
      "pathSetFromArrow: column miner_uid: expected one miner (5), got 17",
    );
  });
});
