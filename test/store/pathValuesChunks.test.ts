/**
 * appendPathValues checks the path set's shape again, next to its unchecked copies: values that
 * no longer hold nPaths × nPoints numbers (a resizable buffer may shrink after insertPathSets
 * checked them) are refused by name, and no chunk reaches the appender. Its one data chunk per
 * thread carries nothing from one append to the next, even one that failed.
 */

import { DuckDBInstance, listValue, type DuckDBDataChunk } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { appendPathValues } from "../../src/store/pathValuesChunks.ts";
import { randomPathSet } from "./helpers.ts";

/** Node's resizable ArrayBuffer, which the project's ES2023 library types do not declare. */
const ResizableArrayBuffer = ArrayBuffer as unknown as new (
  length: number,
  options: { maxByteLength: number },
) => ArrayBuffer & { resize(length: number): void };

describe("appendPathValues", () => {
  it("refuses values that no longer hold nPaths × nPoints numbers, appending nothing", () => {
    const pathSet = randomPathSet(7, 3000, 7);
    const buffer = new ResizableArrayBuffer(pathSet.values.byteLength, {
      maxByteLength: pathSet.values.byteLength,
    });
    const values = new Float64Array(buffer);
    values.set(pathSet.values);
    buffer.resize(8 * 100);
    const appended: DuckDBDataChunk[] = [];
    const appender = { appendDataChunk: (chunk: DuckDBDataChunk) => void appended.push(chunk) };
    expect(() => appendPathValues(appender, 1n, { ...pathSet, values })).toThrow(
      "insertPathSets: path set of BTC, miner 7: values: expected nPaths × nPoints = 21000 numbers, got 100",
    );
    expect(appended).toEqual([]);
  });

  it("appends chunks of at most 2,048 paths, each with every path's values", () => {
    const pathSet = randomPathSet(7, 3000, 7);
    const rows: number[] = [];
    const appender = {
      appendDataChunk: (chunk: DuckDBDataChunk) => void rows.push(chunk.rowCount),
    };
    appendPathValues(appender, 1n, pathSet);
    expect(rows).toEqual([2048, 952]);
  });

  it("reuses its chunk without carrying rows over, after an append that failed too", async () => {
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    try {
      await connection.run("CREATE TABLE t (id BIGINT, path INTEGER, prices DOUBLE[])");
      const appender = await connection.createAppender("t");
      const failing = {
        appendDataChunk: () => {
          throw new Error("the appender refused");
        },
      };
      expect(() => appendPathValues(failing, 1n, randomPathSet(7, 5, 4))).toThrow(
        "the appender refused",
      );
      const pathSet = randomPathSet(8, 3, 2);
      appendPathValues(appender, 2n, pathSet);
      appendPathValues(appender, 3n, { ...pathSet, nPaths: 1, values: pathSet.values.slice(0, 2) });
      appender.closeSync();
      const reader = await connection.runAndReadAll("SELECT * FROM t ORDER BY id, path");
      const prices = (path: number) => listValue([...pathSet.values.slice(2 * path, 2 * path + 2)]);
      expect(reader.getRows()).toEqual([
        [2n, 0, prices(0)],
        [2n, 1, prices(1)],
        [2n, 2, prices(2)],
        [3n, 0, prices(0)],
      ]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
