/**
 * Matrix transpose: path-major path sets become step-major columns for column kernels.
 */

/**
 * Transposes the row-major `rows × columns` matrix `values` (row r, column c at `r·columns + c`)
 * into `out` (column c, row r at `c·rows + r`). For a path set, rows are paths and columns are
 * points: the result is step-major. Reads are sequential and each row writes one value to every
 * column's stream; for path sets (a few hundred columns) those streams stay in cache, so each
 * written line is completed by consecutive rows. Square cache tiles (32 × 32) and column bands
 * were measured slower on 10,000 × 289 and 3,000 × 2,000 (bench/README.md), so none are used.
 * O(rows·columns).
 * Throws `RangeError` when `values` or `out` does not hold `rows × columns` numbers.
 * @example transpose(Float64Array.of(1, 2, 3, 4, 5, 6), 2, 3) // => [1, 4, 2, 5, 3, 6]
 */
export function transpose(
  values: Float64Array,
  rows: number,
  columns: number,
  out: Float64Array = new Float64Array(rows * columns),
): Float64Array {
  if (!Number.isInteger(rows) || !Number.isInteger(columns) || rows < 0 || columns < 0) {
    throw new RangeError(
      `transpose requires non-negative integer rows and columns, got ${rows} and ${columns}`,
    );
  }
  if (values.length !== rows * columns || out.length !== rows * columns) {
    throw new RangeError(
      `transpose requires values and out of rows × columns = ${rows * columns} numbers, got ${values.length} and ${out.length}`,
    );
  }
  for (let row = 0; row < rows; row++) {
    const source = row * columns;
    for (let column = 0; column < columns; column++) {
      out[column * rows + row] = values[source + column];
    }
  }
  return out;
}
