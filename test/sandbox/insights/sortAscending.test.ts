import { describe, expect, it } from "vitest";
import { RandomStream } from "../../../src/sandbox/world/randomStream.ts";
import { sortAscending } from "../../../src/sandbox/insights/sortAscending.ts";

/** `values` sorted both ways; every element compared with Object.is (−0, NaN and all). */
function expectSameOrder(values: Float64Array): void {
  const expected = Float64Array.from(values).sort();
  const sorted = Float64Array.from(values);
  expect(sortAscending(sorted)).toBe(sorted);
  expect(sorted.length).toBe(expected.length);
  const differing = [...expected.keys()].filter(
    (index) => !Object.is(sorted[index], expected[index]),
  );
  expect(differing).toEqual([]);
}

function column(
  seed: number,
  length: number,
  draw: (stream: RandomStream) => number,
): Float64Array {
  const stream = new RandomStream(seed);
  return Float64Array.from({ length }, () => draw(stream));
}

describe("sortAscending", () => {
  it("orders a column of prices as Float64Array.prototype.sort, ties included", () => {
    // 8-significant-digit prices around one level (shared exponent bytes: skipped passes) and
    // prices rounded to whole dollars (many ties)
    expectSameOrder(
      column(1, 10_000, (s) => Number((60_000 * Math.exp(0.1 * s.normal())).toPrecision(8))),
    );
    expectSameOrder(column(2, 5_000, (s) => Math.round(60_000 + 50 * s.normal())));
    expectSameOrder(column(3, 300, () => 42));
  });

  it("orders values across every magnitude, zero, subnormals, +Infinity and NaN (last)", () => {
    const wide = column(4, 4_000, (s) => s.uniform() * 10 ** (s.integer(600) - 300));
    wide.set([0, 5e-324, 2.2250738585072014e-308, Infinity, NaN, 1e308, NaN, 0], 100);
    expectSameOrder(wide);
    expectSameOrder(column(5, 1_000, (s) => Math.abs(Math.log(1 + 0.01 * s.normal()))));
  });

  it("puts NaNs of any payload last, and falls back for a NaN with its sign bit set", () => {
    const withPayloads = column(9, 2_000, (s) => 100 + s.uniform());
    const bits = new DataView(withPayloads.buffer);
    bits.setBigUint64(8 * 5, 0x7ff0000000000005n, true);
    bits.setBigUint64(8 * 6, 0x7fffffffffffffffn, true);
    withPayloads[7] = NaN;
    withPayloads[8] = Infinity;
    expectSameOrder(withPayloads);
    const tail = Array.from(sortAscending(Float64Array.from(withPayloads)).slice(-4));
    expect(tail[0]).toBe(Infinity);
    expect(tail.slice(1).every(Number.isNaN)).toBe(true);
    const negativeNaN = Float64Array.from(withPayloads);
    new DataView(negativeNaN.buffer).setBigUint64(8 * 9, 0xfff8000000000000n, true);
    expectSameOrder(negativeNaN);
  });

  it("falls back to the built-in sort for negative numbers, −0 and short columns", () => {
    expectSameOrder(column(6, 2_000, (s) => s.normal()));
    const withNegativeZero = column(7, 1_000, (s) => s.uniform());
    withNegativeZero[10] = -0;
    withNegativeZero[11] = 0;
    expectSameOrder(withNegativeZero);
    expectSameOrder(Float64Array.of(3, NaN, 1, 2, -0, 0));
    expectSameOrder(new Float64Array(0));
  });

  it("sorts a view of a larger buffer without touching the rest", () => {
    const buffer = column(8, 3_000, (s) => 100 + s.uniform());
    const before = Float64Array.from(buffer);
    const view = buffer.subarray(1_000, 2_000);
    const expected = Float64Array.from(view).sort();
    sortAscending(view);
    expect(Array.from(view)).toEqual(Array.from(expected));
    expect(Array.from(buffer.subarray(0, 1_000))).toEqual(Array.from(before.subarray(0, 1_000)));
    expect(Array.from(buffer.subarray(2_000))).toEqual(Array.from(before.subarray(2_000)));
  });
});
