import { describe, expect, it } from "vitest";
import { RankSelector } from "../../src/core/rankSelector.ts";
import { createRandom } from "../../src/reference/random.ts";
import { awkwardColumns, numberMismatches } from "./generate.ts";

describe("RankSelector", () => {
  it("RankSelector selects the same values as sorting, for awkward columns and many rank sets", () => {
    const random = createRandom(77);
    for (const length of [1, 2, 255, 256, 257, 1000, 4099, 16384, 16385]) {
      const rankSets = [
        Int32Array.of(0),
        Int32Array.of(length - 1),
        Int32Array.from(
          new Set(Array.from({ length: 18 }, () => Math.floor(random.uniform() * length))),
        ).sort(),
        Int32Array.from({ length }, (_, index) => index),
      ];
      for (const ranks of rankSets) {
        const selector = new RankSelector(length, ranks);
        const out = new Float64Array(ranks.length);
        for (const column of awkwardColumns(length, length)) {
          const hasNaN = column.values.some(Number.isNaN);
          expect(selector.select(column.values, out), column.name).toBe(!hasNaN);
          if (hasNaN) continue;
          const sorted = column.values.slice().sort();
          const expected = Array.from(ranks, (rank) => sorted[rank]);
          expect(numberMismatches(out, expected), `${column.name}, ${length}`).toEqual([]);
        }
      }
    }
  });

  it("RankSelector reports a NaN anywhere in the column by returning false", () => {
    const length = 5000;
    const selector = new RankSelector(length, Int32Array.of(10, 2500, 4990));
    const out = new Float64Array(3);
    for (const position of [0, 1, 7, 2500, 4999]) {
      const column = Float64Array.from({ length }, (_, index) => Math.sin(index));
      column[position] = NaN;
      expect(selector.select(column, out), `NaN at ${position}`).toBe(false);
    }
  });

  it("RankSelector rejects ranks that are not ascending and distinct in [0, length), and columns of another length", () => {
    expect(() => new RankSelector(10, Int32Array.of(3, 3))).toThrow(
      "RankSelector requires ascending, distinct ranks in [0, 10), got ranks[1] = 3",
    );
    expect(() => new RankSelector(10, Int32Array.of(10))).toThrow(RangeError);
    expect(() => new RankSelector(0, Int32Array.of())).toThrow(
      "RankSelector requires a column length ≥ 1, got 0",
    );
    expect(() =>
      new RankSelector(3, Int32Array.of(1)).select(new Float64Array(2), new Float64Array(1)),
    ).toThrow("RankSelector.select requires a column of 3 values and out of ≥ 1, got 2 and 1");
  });
});
