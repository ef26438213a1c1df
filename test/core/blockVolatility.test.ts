import { describe, expect, it } from "vitest";
import { blockVolatilities } from "../../src/core/blockVolatility.ts";
import { mergedBlockVolatilities } from "../../src/core/mergedBlockVolatilities.ts";
import { pathBlockVolatilities } from "../../src/core/pathBlockVolatilities.ts";
import { blockVolatilitiesOf } from "../../src/reference/volatilityCrps.ts";
import { simulateGbmPaths } from "../../src/reference/gbm.ts";
import { createRandom } from "../../src/reference/random.ts";

/** The crypto-1h block lengths in returns (60, 15 and 5 minutes of 1-minute steps). */
const HOUR_BLOCKS = [60, 15, 5];

/** `pathCount` GBM paths of `points` 1-minute prices, rounded to 8 significant digits. */
function paths(seed: number, pathCount: number, points = 61): number[][] {
  return simulateGbmPaths(createRandom(seed), {
    startPrice: 68000,
    annualVolatility: 0.6,
    stepMinutes: 1,
    stepCount: points - 1,
    pathCount,
  }).map((path) => path.map((price) => Number(price.toPrecision(8))));
}

/** The paths' 1-step basis-point returns, step-major (return j of path p at j·nPaths + p). */
function stepMajorReturns(rows: readonly (readonly number[])[]): Float64Array {
  const nPaths = rows.length;
  const returnCount = rows[0].length - 1;
  const returns = new Float64Array(nPaths * returnCount);
  rows.forEach((row, path) => {
    for (let j = 0; j < returnCount; j++) {
      returns[j * nPaths + path] = ((row[j + 1] - row[j]) / row[j]) * 10000;
    }
  });
  return returns;
}

/** `pathBlockVolatilities` of `rows` for `sizes`, merged or two-pass. */
function ofPaths(rows: number[][], sizes: number[], merge: boolean): Float64Array {
  const returnCount = rows[0].length - 1;
  const terms = sizes.reduce((sum, steps) => sum + Math.floor(returnCount / steps), 0);
  const out = new Float64Array(terms * rows.length);
  return pathBlockVolatilities(stepMajorReturns(rows), rows.length, {
    stepsPerBlock: sizes,
    merge,
    out,
  });
}

/** The per-path reference volatilities of `rows` laid out as `pathBlockVolatilities` writes them. */
function referenceLayout(rows: number[][], sizes: number[]): Float64Array {
  const columns = rows.map((row) => sizes.flatMap((steps) => blockVolatilitiesOf(row, steps)));
  const terms = columns[0].length;
  const out = new Float64Array(terms * rows.length);
  columns.forEach((column, path) => {
    column.forEach((value, term) => (out[term * rows.length + path] = value));
  });
  return out;
}

describe("blockVolatilities", () => {
  it("blockVolatilities is the sample std (ddof 1) of a block's basis-point returns, as the validator's test value", () => {
    // Returns 100 and 99.0099… bps: std = |difference| / √2 (synth-subnet test_calculate_crps.py).
    const out = blockVolatilities(Float64Array.of(100, 101, 102), 2);
    expect(Array.from(out)).toEqual([0.7001057239470748]);
  });

  it("blockVolatilities leaves missing returns out, needs two per block and drops the leftover returns", () => {
    // 8 prices → 7 returns → two blocks of 3 (the 7th return dropped).
    const prices = Float64Array.of(100, 101, 102, 101, 103, 104, 103, 200);
    const full = blockVolatilities(prices, 3);
    expect(full).toHaveLength(2);
    expect(Array.from(full)).toEqual(blockVolatilitiesOf(Array.from(prices), 3));
    // Price 4 missing: block 1 keeps one observed return (4→5 is gone, 3→4 too): NaN.
    const gap = Float64Array.from(prices);
    gap[4] = NaN;
    const withGap = blockVolatilities(gap, 3);
    expect(withGap[0]).toBe(full[0]);
    expect(withGap[1]).toBeNaN();
    // Price 2 missing: block 0 keeps return 0 only, block 1 keeps its three.
    const early = Float64Array.from(prices);
    early[2] = NaN;
    expect(blockVolatilities(early, 3)[0]).toBeNaN();
    expect(blockVolatilities(early, 3)[1]).toBe(full[1]);
    // A return that overflows makes its block NaN, as numpy's nanstd.
    expect(blockVolatilities(Float64Array.of(1e-300, 1e300, 1e300), 2)[0]).toBeNaN();
    expect(() => blockVolatilities(prices, 0)).toThrow(
      "blockVolatilities requires stepsPerBlock to be a positive integer, got 0",
    );
    expect(() => blockVolatilities(prices, 3, new Float64Array(3))).toThrow(
      "blockVolatilities requires out of 2 numbers, got 3",
    );
  });

  it("blockVolatilities equals the reference bit for bit on realized paths with gaps", () => {
    const row = paths(7, 1)[0];
    for (const index of [3, 4, 9, 10, 11, 12, 40]) row[index] = NaN;
    for (const steps of HOUR_BLOCKS) {
      expect(Array.from(blockVolatilities(Float64Array.from(row), steps))).toEqual(
        blockVolatilitiesOf(row, steps),
      );
    }
  });
});

describe("pathBlockVolatilities", () => {
  it("pathBlockVolatilities two-pass equals the reference bit for bit, term-major", () => {
    for (const nPaths of [1, 5, 200]) {
      const rows = paths(11 + nPaths, nPaths);
      expect(ofPaths(rows, HOUR_BLOCKS, false)).toEqual(referenceLayout(rows, HOUR_BLOCKS));
    }
  });

  it("pathBlockVolatilities merged agrees with two-pass to 1e-14 relative, four paths at a time and one by one", () => {
    for (const nPaths of [1, 2, 3, 4, 5, 6, 7, 203, 1000]) {
      const rows = paths(21 + nPaths, nPaths, nPaths === 1000 ? 61 : 122);
      const merged = ofPaths(rows, HOUR_BLOCKS, true);
      const twoPass = ofPaths(rows, HOUR_BLOCKS, false);
      let worst = 0;
      for (let index = 0; index < merged.length; index++) {
        worst = Math.max(worst, Math.abs(merged[index] - twoPass[index]) / twoPass[index]);
      }
      expect(worst, `${nPaths} paths`).toBeLessThan(1e-14);
    }
  });

  it("pathBlockVolatilities merges only sizes that divide one another, in any order, and keeps a lone return NaN", () => {
    const rows = paths(31, 9);
    // 7 and 3 do not nest: two-pass for both, bit for bit.
    expect(ofPaths(rows, [7, 3], true)).toEqual(ofPaths(rows, [7, 3], false));
    // The caller's order is the layout's order, whatever the block lengths.
    const shuffled = ofPaths(rows, [5, 60, 15], true);
    const ordered = ofPaths(rows, HOUR_BLOCKS, true);
    const n = rows.length;
    expect(shuffled.subarray(0, 12 * n)).toEqual(ordered.subarray(5 * n));
    expect(shuffled.subarray(12 * n, 13 * n)).toEqual(ordered.subarray(0, n));
    // Blocks of one return have no sample std: NaN; a size of 2 merged from them is |δ|/√2.
    const withSingles = ofPaths(rows, [2, 1], true);
    expect(Array.from(withSingles.subarray(30 * n))).toEqual(new Array(60 * n).fill(NaN));
    const pairs = ofPaths(rows, [2], false);
    for (let index = 0; index < pairs.length; index++) {
      expect(Math.abs(withSingles[index] - pairs[index])).toBeLessThanOrEqual(1e-14 * pairs[index]);
    }
  });

  it("pathBlockVolatilities and mergedBlockVolatilities do what their examples say", () => {
    const returns = Float64Array.of(100, -100, (1 / 101) * 10000, (-1 / 99) * 10000);
    const expected = [0.7001057239470748, 0.7142492739258158, NaN, NaN, NaN, NaN];
    expect(
      Array.from(
        pathBlockVolatilities(returns, 2, {
          stepsPerBlock: [2, 1],
          merge: true,
          out: new Float64Array(6),
        }),
      ),
    ).toEqual(expected);
    const out = new Float64Array(6);
    const redo = new Uint8Array(2);
    const largest = new Float64Array(1);
    const order = Int32Array.of(1, 0);
    expect(mergedBlockVolatilities(returns, 2, [2, 1], order, 3, out, redo, largest)).toBe(2);
    expect(Array.from(out)).toEqual(expected);
    expect(Array.from(redo)).toEqual([1, 1]);
    expect(largest[0]).toBe(expected[1]);
  });

  it("pathBlockVolatilities bounds the merged volatilities by the largest it wrote, and gives NaN otherwise", () => {
    const rows = paths(41, 203);
    const returns = stepMajorReturns(rows);
    const largest = new Float64Array(1);
    const out = new Float64Array(17 * 203);
    pathBlockVolatilities(returns, 203, { stepsPerBlock: HOUR_BLOCKS, merge: true, out, largest });
    expect(largest[0]).toBe(Math.max(...out));
    pathBlockVolatilities(returns, 203, { stepsPerBlock: HOUR_BLOCKS, merge: false, out, largest });
    expect(largest[0]).toBeNaN();
    // A path taken again two-pass (an overflowing return): no bound.
    const spoiled = Float64Array.from(returns);
    spoiled[7 * 203 + 5] = Infinity;
    pathBlockVolatilities(spoiled, 203, { stepsPerBlock: HOUR_BLOCKS, merge: true, out, largest });
    expect(largest[0]).toBeNaN();
  });

  it("pathBlockVolatilities rejects returns, block lengths and outputs of the wrong shape", () => {
    const returns = new Float64Array(10);
    expect(() =>
      pathBlockVolatilities(returns, 3, {
        stepsPerBlock: [2],
        merge: true,
        out: new Float64Array(3),
      }),
    ).toThrow(
      "pathBlockVolatilities requires returns of nPaths × returnCount numbers, got 10 for 3 paths",
    );
    expect(() =>
      pathBlockVolatilities(returns, 2, {
        stepsPerBlock: [0],
        merge: true,
        out: new Float64Array(0),
      }),
    ).toThrow("pathBlockVolatilities requires block lengths that are positive integers, got 0");
    expect(() =>
      pathBlockVolatilities(returns, 2, {
        stepsPerBlock: [5],
        merge: true,
        out: new Float64Array(3),
      }),
    ).toThrow("pathBlockVolatilities requires out of length 2, got 3");
  });
});
