/**
 * appendPathValues checks the path set's shape again, next to its unchecked copies: values that
 * no longer hold nPaths × nPoints numbers (a resizable buffer may shrink after insertPathSets
 * checked them) are refused by name, and no chunk reaches the appender.
 */

import type { DuckDBDataChunk } from "@duckdb/node-api";
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
});
