import { describe, expect, it } from "vitest";
import { crpsProperscoring } from "../../src/reference/crps.ts";
import { createRandom } from "../../src/reference/random.ts";
import { sortAndScoreMembers } from "../../src/scoring/sortMembers.ts";
import { CRPS_VECTORS } from "../crpsVectors.ts";

/** Columns that stress the radix sort: ties, outliers, constants, signs, tiny spreads. */
function awkwardColumns(seed: number, length: number): [string, Float64Array][] {
  const random = createRandom(seed);
  const make = (name: string, fill: (index: number) => number): [string, Float64Array] => [
    name,
    Float64Array.from({ length }, (_, index) => fill(index)),
  ];
  return [
    make("normal", () => random.normal()),
    make("basis-point returns of 8-digit prices", () => {
      const start = Number((68000 * Math.exp(0.01 * random.normal())).toPrecision(8));
      const end = Number((start * Math.exp(0.002 * random.normal())).toPrecision(8));
      return ((end - start) / start) * 10000;
    }),
    make("few distinct values (ties)", () => Math.floor(random.uniform() * 5)),
    make("constant", () => 42),
    make("one outlier far above", (index) => (index === 7 ? 1e12 : random.normal())),
    make("heavy tail (Cauchy)", () => Math.tan(Math.PI * (random.uniform() - 0.5))),
    make("mostly one value", (index) => (index % 50 === 0 ? random.normal() : 3)),
    make("tiny spread around 1e6", () => 1e6 + random.uniform() * 1e-9),
    make("signed zeros and small", (index) =>
      index % 3 === 0 ? -0 : index % 3 === 1 ? 0 : random.normal() * 1e-300,
    ),
    make("sorted descending", (index) => -index),
    make("with infinities", (index) =>
      index % 101 === 0 ? (index % 2 ? Infinity : -Infinity) : random.normal(),
    ),
    make("with NaN", (index) => (index % 97 === 5 ? NaN : random.normal())),
  ];
}

/** The range as a gatherer finds it: NaN low when a value is NaN. */
function rangeOf(values: Float64Array): [number, number] {
  let low = Infinity;
  let high = -Infinity;
  let hasNaN = false;
  for (const value of values) {
    if (value < low) low = value;
    if (value > high) high = value;
    if (Number.isNaN(value)) hasNaN = true;
  }
  return [hasNaN ? NaN : low, high];
}

/** Indexes where `actual` and `expected` differ (−0 = +0, NaN = NaN). */
function orderMismatches(actual: Float64Array, expected: Float64Array): number[] {
  const mismatches = [];
  for (let index = 0; index < expected.length; index++) {
    const a = actual[index];
    const b = expected[index];
    if (!(a === b || (Number.isNaN(a) && Number.isNaN(b)))) mismatches.push(index);
  }
  return mismatches;
}

describe("sortAndScoreMembers", () => {
  /**
   * Bounds a caller may pass: the exact range; a range a few times wider (bounds shared by many
   * terms); one a million times wider, where the members crowd into a few keys and the sort
   * retries with their own range; and an unusable one (NaN).
   */
  const boundsOf = (low: number, high: number): [string, number, number][] => {
    const width = high - low;
    return [
      ["exact bounds", low, high],
      ["bounds 4× wider", low - width, high + 2 * width],
      ["bounds 10⁶× wider", low - 1e6 * width, high + 1e6 * width],
      ["NaN bounds", NaN, high],
    ];
  };

  for (const length of [1, 5, 63, 64, 1000, 8192, 10000]) {
    it(`sortAndScoreMembers sorts like a typed-array sort and scores like properscoring on awkward columns of ${length}`, () => {
      for (const [name, column] of awkwardColumns(length + 1, length)) {
        // The members sit at an offset inside a longer array, as in the scoring kernel.
        const values = new Float64Array(length + 7);
        values.set(column, 5);
        const input = values.slice();
        const expectedOrder = column.slice().sort();
        const [low, high] = rangeOf(column);
        const finite = expectedOrder.filter((value) => Number.isFinite(value));
        const observations = [finite[finite.length >> 1] ?? 0, (finite[0] ?? 0) - 3, NaN];
        for (const [boundsName, lower, upper] of Number.isNaN(low)
          ? [["NaN bounds", NaN, high] as [string, number, number]]
          : boundsOf(low, high)) {
          for (const observation of observations) {
            const label = `${name}, ${boundsName}, observation ${observation}`;
            const sorted = new Float64Array(length);
            const crps = sortAndScoreMembers(values, 5, lower, upper, observation, sorted);
            expect(orderMismatches(sorted, expectedOrder), label).toEqual([]);
            const expected = crpsProperscoring(Array.from(column), observation);
            if (Number.isNaN(expected)) {
              expect(crps, label).toBeNaN();
            } else if (!Number.isFinite(expected)) {
              expect(crps, label).toBe(expected);
            } else {
              // The closed form subtracts ½·mean|x − x′| from mean|x − y|: its rounding is
              // relative to mean|x − y|, which an outlier makes ~10⁴× the CRPS (core's
              // crpsEnsembleSorted errs the same there).
              let absoluteSum = 0;
              for (const value of finite) absoluteSum += Math.abs(value - observation);
              const scale = Math.max(Math.abs(expected), absoluteSum / finite.length);
              expect(Math.abs(crps - expected), label).toBeLessThanOrEqual(1e-12 * scale);
            }
          }
        }
        expect(values, `${name}: input untouched`).toEqual(input);
      }
    });
  }

  it("sortAndScoreMembers reproduces DOMAIN.md's CRPS test vectors", () => {
    for (const [observation, members, expected] of CRPS_VECTORS) {
      // Each vector repeated 20 times: the same CRPS, and long enough for the radix path.
      const repeated = Float64Array.from({ length: members.length * 20 }, (_, index) => {
        return members[index % members.length];
      });
      const sorted = new Float64Array(repeated.length);
      const low = Math.min(...members);
      const high = Math.max(...members);
      const crps = sortAndScoreMembers(repeated, 0, low, high, observation, sorted);
      expect(Math.abs(crps - expected)).toBeLessThanOrEqual(1e-12);
    }
  });

  it("sortAndScoreMembers rejects members beyond the end of values", () => {
    expect(() =>
      sortAndScoreMembers(new Float64Array(10), 4, 0, 1, 0, new Float64Array(7)),
    ).toThrow("sortAndScoreMembers requires 7 members from index 4 of 10 values");
    expect(() =>
      sortAndScoreMembers(new Float64Array(10), -1, 0, 1, 0, new Float64Array(2)),
    ).toThrow("sortAndScoreMembers requires 2 members from index -1 of 10 values");
  });
});
