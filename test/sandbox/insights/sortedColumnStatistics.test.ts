import { describe, expect, it } from "vitest";
import { PERCENTILE_PROBABILITIES } from "../../../src/domain/insightConventions.ts";
import { percentileLinear } from "../../../src/reference/percentiles.ts";
import { createRandom } from "../../../src/reference/random.ts";
import {
  countAtOrBelowSorted,
  countBelowSorted,
  percentileOfSorted,
  percentilesOfSorted,
} from "../../../src/sandbox/insights/sortedColumnStatistics.ts";

function randomColumn(seed: number, length: number): number[] {
  const random = createRandom(seed);
  // Rounded to 2 decimals so that ties occur.
  return Array.from({ length }, () => Math.round(100 * (100 + 5 * random.normal())) / 100);
}

describe("sorted column statistics", () => {
  it("percentileOfSorted gives percentileLinear (reference R-7) bit for bit", () => {
    for (const length of [1, 2, 3, 10, 999, 1000]) {
      const column = randomColumn(length, length);
      const sorted = Float64Array.from(column).sort();
      for (const p of [0, 0.001, ...PERCENTILE_PROBABILITIES, 0.9999, 1]) {
        expect(percentileOfSorted(sorted, p)).toBe(percentileLinear(column, p));
      }
    }
  });

  it("percentileOfSorted is NaN when the column holds a NaN, as percentileLinear", () => {
    const sorted = Float64Array.of(3, NaN, 1).sort();
    expect(percentileOfSorted(sorted, 0.5)).toBeNaN();
    expect(percentileLinear([3, NaN, 1], 0.5)).toBeNaN();
  });

  it("percentileOfSorted rejects an empty column and p outside [0, 1]", () => {
    expect(() => percentileOfSorted(new Float64Array(0), 0.5)).toThrow(
      "percentileOfSorted requires a non-empty column, got none",
    );
    expect(() => percentileOfSorted(Float64Array.of(1), 1.5)).toThrow(
      "percentileOfSorted requires p in [0, 1], got 1.5",
    );
  });

  it("percentilesOfSorted gives the nine spec keys, rounded", () => {
    const values = percentilesOfSorted(Float64Array.of(1, 2, 3, 4), 2);
    expect(Object.keys(values)).toEqual([
      "0.005",
      "0.05",
      "0.2",
      "0.35",
      "0.5",
      "0.65",
      "0.8",
      "0.95",
      "0.995",
    ]);
    expect(values["0.5"]).toBe(2.5);
    expect(values["0.2"]).toBe(1.6); // h = 3·0.2 = 0.6
    expect(values["0.8"]).toBe(3.4); // h = 2.4
  });

  it("countBelowSorted and countAtOrBelowSorted count strictly below and at or below, ties included", () => {
    const column = randomColumn(9, 500);
    const sorted = Float64Array.from(column).sort();
    for (const level of [-1e9, 95, 99.5, 100, 100.01, sorted[17], sorted[250], 1e9]) {
      expect(countBelowSorted(sorted, level)).toBe(column.filter((value) => value < level).length);
      expect(countAtOrBelowSorted(sorted, level)).toBe(
        column.filter((value) => value <= level).length,
      );
    }
  });
});
