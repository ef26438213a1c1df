import { describe, expect, it } from "vitest";
import { sortFloat64 } from "../../src/core/sortFloat64.ts";
import { createRandom } from "../../src/reference/random.ts";

describe("sortFloat64 for ensemble columns", () => {
  it("sortFloat64 sorts up to 16,384 values by radix and beyond by the typed-array sort, exactly as Float64Array.prototype.sort", () => {
    const random = createRandom(61);
    const makers: ((index: number) => number)[] = [
      () => 68000 * Math.exp(0.03 * random.normal()),
      () => Math.round(random.normal() * 4) / 2,
      (index) => (index === 17 ? 1e9 : 2000 + random.uniform()),
      (index) => (index % 500 === 0 ? NaN : random.normal()),
    ];
    for (const length of [8193, 10000, 16384, 16385]) {
      for (const make of makers) {
        const values = Float64Array.from({ length }, (_, index) => make(index));
        const original = values.slice();
        const sorted = sortFloat64(values, new Float64Array(length));
        // ±0 compare equal; the typed-array sort puts −0 first, the radix sort keeps input order.
        const zeroFree = (array: Float64Array) => Array.from(array, (x) => (x === 0 ? 0 : x));
        expect(zeroFree(sorted)).toEqual(zeroFree(values.slice().sort()));
        expect(values).toEqual(original);
      }
    }
  });
});
