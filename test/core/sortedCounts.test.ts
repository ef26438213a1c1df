import { describe, expect, it } from "vitest";
import { ascendingOrder } from "../../src/core/ascendingOrder.ts";
import {
  allFiniteSorted,
  countAtMostSorted,
  countBelowSorted,
} from "../../src/core/sortedCounts.ts";
import { createRandom } from "../../src/reference/random.ts";
import { numpyAvailable, runPython } from "../reference/python.ts";

describe("countBelowSorted and countAtMostSorted", () => {
  it.skipIf(!numpyAvailable)(
    "countBelowSorted and countAtMostSorted are numpy's searchsorted left and right",
    () => {
      const random = createRandom(21);
      const sorted = Float64Array.from(
        { length: 200 },
        () => Math.round(random.normal() * 10) / 2,
      ).sort();
      const queries = [-100, -3, -2.5, -0.25, 0, 0.5, 1, 2.75, 4, 100, -Infinity, Infinity];
      const expected = runPython(
        "s = np.array(data[0]); q = np.array(data[1], dtype=float)\nprint(json.dumps([np.searchsorted(s, q, 'left').tolist(), np.searchsorted(s, q, 'right').tolist()]))",
        [
          Array.from(sorted),
          queries.map((query) => (Number.isFinite(query) ? query : query > 0 ? 1e308 : -1e308)),
        ],
      ) as [number[], number[]];
      queries.forEach((query, at) => {
        expect(countBelowSorted(sorted, query)).toBe(expected[0][at]);
        expect(countAtMostSorted(sorted, query)).toBe(expected[1][at]);
      });
    },
  );

  it("countBelowSorted and countAtMostSorted count ties on the right side", () => {
    const sorted = Float64Array.of(1, 2, 2, 2, 3);
    expect([countBelowSorted(sorted, 2), countAtMostSorted(sorted, 2)]).toEqual([1, 4]);
    expect([countBelowSorted(sorted, 0), countAtMostSorted(sorted, 9)]).toEqual([0, 5]);
    expect(countAtMostSorted(new Float64Array(0), 1)).toBe(0);
  });

  it("allFiniteSorted is false for an empty array and for a non-finite end", () => {
    expect(allFiniteSorted(Float64Array.of(1, 2))).toBe(true);
    expect(allFiniteSorted(new Float64Array(0))).toBe(false);
    expect(allFiniteSorted(Float64Array.of(1, NaN))).toBe(false);
    expect(allFiniteSorted(Float64Array.of(-Infinity, 1))).toBe(false);
  });
});

describe("ascendingOrder", () => {
  it("ascendingOrder sorts indices by value, ties by index, NaN last", () => {
    expect(Array.from(ascendingOrder(Float64Array.of(3, NaN, 1, 2, 1, -Infinity)))).toEqual([
      5, 2, 4, 3, 0, 1,
    ]);
    expect(ascendingOrder(new Float64Array(0)).length).toBe(0);
  });
});
