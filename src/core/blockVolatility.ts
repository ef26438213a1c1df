/**
 * Block volatilities of the validator's volatility CRPS (the validator's dated rules): the sample standard
 * deviation (ddof 1) of the 1-step basis-point simple returns inside consecutive blocks of one
 * path with gaps (the realized path). For every path of a path set at once:
 * `pathBlockVolatilities.ts`.
 */

import { requirePositiveInteger } from "./entryChecks.ts";

/**
 * The volatility of each block of one path (`prices`, NaN = missing): the returns
 * rⱼ = (pⱼ₊₁ − pⱼ)/pⱼ × 10,000 are cut into consecutive blocks of `stepsPerBlock` returns (block b
 * holds rⱼ for b·k ≤ j < (b+1)·k: its k + 1 prices share the edge prices with the neighbouring
 * blocks), the returns after the last whole block dropped; per block, the sample standard
 * deviation (ddof 1) of its observed returns (a return with a NaN price is NaN and left out),
 * two-pass (mean, then squared deviations; sequential sums), as numpy's `nanstd(ddof=1)` to
 * ~1e-15 relative (numpy sums pairwise). Fewer than 2 observed returns give NaN; a return that
 * overflows to ±Infinity gives NaN, as in numpy.
 * Throws `RangeError` unless `stepsPerBlock` is a positive integer, or for an `out` of another
 * length than ⌊(n − 1)/stepsPerBlock⌋.
 * @param prices - one path's prices, oldest first, NaN where missing.
 * @param stepsPerBlock - returns per block, a positive integer.
 * @param out - where to write, ⌊(n − 1)/stepsPerBlock⌋ numbers (basis points); a new array when
 *   omitted.
 * @example blockVolatilities(Float64Array.of(100, 101, 102), 2) // => [0.7001057239470748]
 */
export function blockVolatilities(
  prices: Float64Array,
  stepsPerBlock: number,
  out?: Float64Array,
): Float64Array {
  requirePositiveInteger("blockVolatilities", "stepsPerBlock", stepsPerBlock);
  const blockCount = prices.length > 1 ? Math.floor((prices.length - 1) / stepsPerBlock) : 0;
  const result = out ?? new Float64Array(blockCount);
  if (result.length !== blockCount) {
    throw new RangeError(
      `blockVolatilities requires out of ${blockCount} numbers, got ${result.length}`,
    );
  }
  for (let block = 0, start = 0; block < blockCount; block++, start += stepsPerBlock) {
    const end = start + stepsPerBlock;
    let count = 0;
    let sum = 0;
    for (let j = start; j < end; j++) {
      const value = ((prices[j + 1] - prices[j]) / prices[j]) * 10000;
      if (value !== value) continue;
      sum += value;
      count++;
    }
    if (count < 2) {
      result[block] = NaN;
      continue;
    }
    const mean = sum / count;
    let squares = 0;
    for (let j = start; j < end; j++) {
      const value = ((prices[j + 1] - prices[j]) / prices[j]) * 10000;
      if (value !== value) continue;
      squares += (value - mean) * (value - mean);
    }
    result[block] = Math.sqrt(squares / (count - 1));
  }
  return result;
}
