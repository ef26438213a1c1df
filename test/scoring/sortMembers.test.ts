import { describe, expect, it } from "vitest";
import { createRandom } from "../../src/reference/random.ts";
import { sortMembersWithin } from "../../src/scoring/sortMembers.ts";

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

describe("sortMembersWithin", () => {
  for (const length of [1, 5, 63, 64, 1000, 8192, 10000]) {
    it(`sortMembersWithin orders like a typed-array sort (−0 = +0) on awkward columns of ${length}`, () => {
      for (const [name, values] of awkwardColumns(length, length)) {
        const input = values.slice();
        const [low, high] = rangeOf(values);
        const actual = sortMembersWithin(values, low, high, new Float64Array(length));
        const expected = values.slice().sort();
        const mismatches = [];
        for (let index = 0; index < length; index++) {
          const a = actual[index];
          const b = expected[index];
          if (!(a === b || (Number.isNaN(a) && Number.isNaN(b)))) mismatches.push(index);
        }
        expect(mismatches, name).toEqual([]);
        expect(values, `${name}: input untouched`).toEqual(input);
      }
    });
  }

  it("sortMembersWithin rejects an output of another length", () => {
    expect(() => sortMembersWithin(new Float64Array(3), 0, 1, new Float64Array(2))).toThrow(
      "sortMembersWithin requires out of the same length as values (3), got 2",
    );
  });
});
