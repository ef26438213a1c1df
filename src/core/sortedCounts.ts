/**
 * Binary searches on an ascending array: how many elements lie below a value, or at most at it.
 * O(log n). And an O(1) check that an ascending array holds only finite values. With `Float64Array.prototype.sort` order, NaN elements sit last and are never counted
 * for a finite `value`.
 */

/**
 * Number of elements of `sorted` strictly below `value` (the lower bound, numpy `searchsorted`
 * side "left"). O(log n).
 * @param sorted - the values, ascending (NaN last).
 * @param value - the value to count below.
 * @example countBelowSorted(Float64Array.of(1, 2, 2, 3), 2) // => 1
 */
export function countBelowSorted(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Number of elements of `sorted` at most `value` (the upper bound, numpy `searchsorted` side
 * "right"). O(log n).
 * @param sorted - the values, ascending (NaN last).
 * @param value - the value to count up to (inclusive).
 * @example countAtMostSorted(Float64Array.of(1, 2, 2, 3), 2) // => 3
 */
export function countAtMostSorted(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * True when `sorted` (ascending, NaN last, as `Float64Array.prototype.sort` leaves it) is
 * non-empty and holds only finite values. O(1): only the two ends are read.
 * @param sorted - the values, ascending, NaN last.
 * @example allFiniteSorted(Float64Array.of(1, 2, NaN)) // => false
 */
export function allFiniteSorted(sorted: Float64Array): boolean {
  const length = sorted.length;
  return length > 0 && sorted[0] > -Infinity && sorted[length - 1] < Infinity;
}
