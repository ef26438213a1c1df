import { describe, expect, it } from "vitest";
import { transpose } from "../../src/core/transpose.ts";

describe("transpose", () => {
  it("transpose turns a path-major matrix into a step-major one", () => {
    expect(Array.from(transpose(Float64Array.of(1, 2, 3, 4, 5, 6), 2, 3))).toEqual([
      1, 4, 2, 5, 3, 6,
    ]);
  });

  it("transpose places every value at column·rows + row, for many shapes (rows in blocks of eight and left over)", () => {
    for (const [rows, columns] of [
      [1, 1],
      [1, 7],
      [7, 1],
      [8, 3],
      [9, 5],
      [15, 4],
      [33, 65],
      [1000, 289],
      [1003, 61],
    ]) {
      const values = Float64Array.from({ length: rows * columns }, (_, index) => index * 1.5);
      const out = transpose(values, rows, columns);
      let mismatches = 0;
      for (let row = 0; row < rows; row++) {
        for (let column = 0; column < columns; column++) {
          if (out[column * rows + row] !== values[row * columns + column]) mismatches++;
        }
      }
      expect(mismatches, `${rows} × ${columns}`).toBe(0);
      expect(Array.from(transpose(out, columns, rows))).toEqual(Array.from(values));
    }
  });

  it("transpose writes into out and rejects sizes that do not match", () => {
    const out = new Float64Array(4);
    expect(transpose(Float64Array.of(1, 2, 3, 4), 2, 2, out)).toBe(out);
    expect(() => transpose(new Float64Array(5), 2, 3)).toThrow(
      "transpose requires values and out of rows × columns = 6 numbers, got 5 and 6",
    );
    expect(() => transpose(new Float64Array(0), -1, 0)).toThrow(RangeError);
  });
});
