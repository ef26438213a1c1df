/**
 * Matrix transpose: path-major path sets become step-major columns for column kernels.
 */

/**
 * Transposes the row-major `rows × columns` matrix `values` (row r, column c at `r·columns + c`)
 * into `out` (column c, row r at `c·rows + r`). For a path set, rows are paths and columns are
 * points: the result is step-major. Rows are read eight side by side (the rows left over one by
 * one, first), so each column gets eight adjacent values, a whole 64-byte line, per step along the
 * rows: ~1.3× faster than one row at a time on 10,000 × 289 (four rows: ~1.15×, sixteen: slower).
 * For path sets (a few hundred columns) the column streams stay in cache. Square cache tiles
 * (32 × 32) and column bands were measured slower on 10,000 × 289 and 3,000 × 2,000
 * (bench/README.md), so none are used. O(rows·columns).
 * Throws `RangeError` when `values` or `out` does not hold `rows × columns` numbers.
 * @param values - the matrix, row-major: `rows` × `columns` numbers; only read.
 * @param rows - the number of rows (paths, for a path set).
 * @param columns - the number of columns (points, for a path set).
 * @param out - where to write, column-major, another buffer of `rows` × `columns` numbers; a new
 *   array by default.
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
  // The rows left over (rows mod 8) go first, so that no code follows the hot loop. V8 compiles
  // a long loop on-stack during the first call, before the code after it has ever run; that
  // code has no type feedback, so the compiled loop leaves for the interpreter when it reaches
  // it. The next calls enter the loop through the same compiled code and leave the same way, a
  // deoptimization per call (node --trace-deopt), until the whole function is compiled.
  const blocksEnd = rows - (rows % 8);
  for (let row = blocksEnd; row < rows; row++) {
    for (
      let column = 0, source = row * columns, at = row;
      column < columns;
      column++, source++, at += rows
    ) {
      out[at] = values[source];
    }
  }
  for (let row = 0; row < blocksEnd; row += 8) {
    for (
      let column = 0, source = row * columns, at = row;
      column < columns;
      column++, source++, at += rows
    ) {
      out[at] = values[source];
      out[at + 1] = values[source + columns];
      out[at + 2] = values[source + 2 * columns];
      out[at + 3] = values[source + 3 * columns];
      out[at + 4] = values[source + 4 * columns];
      out[at + 5] = values[source + 5 * columns];
      out[at + 6] = values[source + 6 * columns];
      out[at + 7] = values[source + 7 * columns];
    }
  }
  return out;
}
