/**
 * Orders of short arrays (levels, strikes, interval bounds) for the kernels that sweep them in
 * ascending order. Comparators run over these few parameters, never over path data.
 */

/**
 * The permutation that sorts `values` ascending, ties by index, NaN last.
 * @param values - the values to order; only read.
 * @example ascendingOrder(Float64Array.of(3, NaN, 1, 2)) // => Int32Array [2, 3, 0, 1]
 */
export function ascendingOrder(values: Float64Array): Int32Array {
  const length = values.length;
  const order = new Int32Array(length);
  for (let index = 0; index < length; ++index) order[index] = index;
  order.sort((left, right) => compareAscending(values[left], values[right]) || left - right);
  return order;
}

/**
 * The values that are not NaN in ascending order, with the permutation behind them: `sorted[r]`
 * is `values[order[r]]`; `order` lists the NaN values' indices after the first `sorted.length`.
 * @param values - the levels to sort, NaN ones included; only read.
 * @example ascendingLevels(Float64Array.of(3, NaN, 1)) // => { sorted: [1, 3], order: [2, 0, 1] }
 */
export function ascendingLevels(values: Float64Array): { sorted: Float64Array; order: Int32Array } {
  const order = ascendingOrder(values);
  let count = 0;
  while (count < order.length && !Number.isNaN(values[order[count]])) ++count;
  const sorted = new Float64Array(count);
  for (let rank = 0; rank < count; ++rank) sorted[rank] = values[order[rank]];
  return { sorted, order };
}

function compareAscending(left: number, right: number): number {
  if (left < right) return -1;
  if (left > right) return 1;
  if (left === right) return 0;
  return Number.isNaN(left) ? (Number.isNaN(right) ? 0 : 1) : -1;
}
