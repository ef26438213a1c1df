/**
 * Block volatilities of every path of a path set at once, for the volatility CRPS of prompt
 * scoring (the validator's dated rules): per block size, the sample standard deviation (ddof 1) of each block's
 * 1-step basis-point returns, as `blockVolatilities` (blockVolatility.ts) defines it, from the
 * returns laid out step-major, as prompt scoring gathers them.
 */

import { requireLength } from "./entryChecks.ts";
import { mergedBlockVolatilities } from "./mergedBlockVolatilities.ts";

/**
 * The sizes by block length, and per path whether a merged volatility was not finite (grown when
 * a call needs more), reused by every call.
 */
let orderScratch = new Int32Array(4);
let redoScratch = new Uint8Array(1024);
/** The largest merged volatility, as mergedBlockVolatilities writes it. */
const LARGEST = new Float64Array(1);

/**
 * The block sizes {@link pathBlockVolatilities} computes, how, and where it writes.
 * @example const options: PathBlockVolatilityOptions = { stepsPerBlock: [60, 15, 5], merge: true, out };
 */
export interface PathBlockVolatilityOptions {
  /** Returns per block of each block size (positive integers), in the order of `out`. */
  readonly stepsPerBlock: readonly number[];
  /**
   * Whether to merge the statistics of short blocks into the longer ones that hold them (faster,
   * within ~1e-14 relative) rather than take every block two-pass (bit for bit the reference's).
   */
  readonly merge: boolean;
  /** Where to write, term-major: nPaths × (the blocks of every size) numbers. */
  readonly out: Float64Array;
  /** Receives (at index 0) the largest volatility written, or NaN when there is no bound. */
  readonly largest?: Float64Array;
}

/**
 * The block volatilities of every path from its 1-step basis-point returns, step-major in
 * `returns` (return j of path p at j·nPaths + p, as the prompt-scoring gather writes them: j from
 * 0 to returnCount − 1, returnCount = returns.length / nPaths), for several block sizes at once
 * (`stepsPerBlock`: returns per block, in the caller's order), written term-major into `out`:
 * size s, block b, path p at (termₛ + b)·nPaths + p, with termₛ the blocks of the sizes before s
 * (⌊returnCount/k⌋ blocks of size k; returns after the last whole block are dropped). Block b
 * holds returns b·k ≤ j < (b+1)·k; its volatility is their sample standard deviation (ddof 1), as
 * `blockVolatilities` of the path's prices, for returns of finite non-zero prices (the scoring
 * kernel checks them): none is left out, a non-finite return makes its blocks NaN, and a block
 * of one return is NaN.
 * With `merge` false, every block two-pass (sum, mean, squared deviations; sequential sums), the
 * operations of `blockVolatilities` in the same order: bit for bit equal to it and to
 * `src/reference/volatilityCrps.ts`.
 * With `merge` true and block lengths that divide one another (shortest first: 5 | 15 | 60 for
 * crypto-1h), each path's returns are read once: the shortest blocks in one pass shifted by their
 * first return r₀ (s₁ = Σ(r − r₀), s₂ = Σ(r − r₀)², mean = r₀ + s₁/k, M₂ = s₂ − s₁²/k; as
 * s₂ ≤ k·M₂, M₂ keeps ~k·ε relative accuracy), each longer block from the means and M₂ of the
 * shorter blocks it holds, merged pairwise (Chan, Golub & LeVeque 1983: M₂ = M₂ᴬ + M₂ᴮ +
 * δ²·nᴬnᴮ/(nᴬ + nᴮ), δ = meanᴮ − meanᴬ, ratios precomputed), 1/(k − 1) multiplied in
 * (mergedBlockVolatilities.ts): within ~1e-14 relative of two-pass, ~4× faster for the crypto-1h
 * blocks (0.09 vs 0.35 ms for 1,000 paths; bench/README.md). Other block lengths go two-pass, and
 * so does a path whose merged volatilities are not all finite (overflowing returns, blocks of one
 * return), so that its NaN and ±Infinity are two-pass's.
 * O(nPaths × returnCount) merged, O(nPaths × returnCount × sizes) two-pass.
 * With `largest` (one number), also the largest volatility written, when the merged path wrote
 * them all finite: every volatility lies in [0, largest[0]] (bounds for sorting them); NaN
 * otherwise (two-pass, or a path taken again).
 * Throws `RangeError` when `returns` is not nPaths × returnCount numbers, for a block length that
 * is not a positive integer, or an `out` of another length than nPaths × (total blocks).
 * @param returns - every path's 1-step basis-point returns, step-major: return j of path p at
 *   j·nPaths + p.
 * @param nPaths - the number of paths, ≥ 1.
 * @param options - the block sizes, whether to merge, and where to write.
 * @example
 * // two paths of prices 100, 101, 102 and 100, 99, 98: returns [100, 99.0099…] and
 * // [−100, −101.0101…], step-major; sizes of 2 returns (one block) and 1 (two blocks, NaN)
 * const returns = Float64Array.of(100, -100, (1 / 101) * 10000, (-1 / 99) * 10000);
 * pathBlockVolatilities(returns, 2, { stepsPerBlock: [2, 1], merge: true, out: new Float64Array(2 * 3) })
 * // => [0.7001057239470748, 0.7142492739258158, NaN, NaN, NaN, NaN]
 */
export function pathBlockVolatilities(
  returns: Float64Array,
  nPaths: number,
  options: PathBlockVolatilityOptions,
): Float64Array {
  const { stepsPerBlock, merge, out, largest } = options;
  if (!Number.isInteger(nPaths) || nPaths < 1 || returns.length % nPaths !== 0) {
    throw new RangeError(
      `pathBlockVolatilities requires returns of nPaths × returnCount numbers, got ${returns.length} for ${nPaths} paths`,
    );
  }
  const returnCount = returns.length / nPaths;
  const sizeCount = stepsPerBlock.length;
  if (orderScratch.length < sizeCount) orderScratch = new Int32Array(sizeCount);
  const order = orderScratch;
  let terms = 0;
  for (let size = 0; size < sizeCount; size++) {
    const steps = stepsPerBlock[size];
    if (!Number.isInteger(steps) || steps < 1) {
      throw new RangeError(
        `pathBlockVolatilities requires block lengths that are positive integers, got ${steps}`,
      );
    }
    terms += Math.floor(returnCount / steps);
    // Insertion by block length, shortest first (stable).
    let place = size;
    while (place > 0 && stepsPerBlock[order[place - 1]] > steps) {
      order[place] = order[place - 1];
      place--;
    }
    order[place] = size;
  }
  requireLength("pathBlockVolatilities", "out", out.length, terms * nPaths);
  let chain = merge && sizeCount > 0;
  for (let rank = 1; rank < sizeCount && chain; rank++) {
    const shorter = stepsPerBlock[order[rank - 1]];
    const steps = stepsPerBlock[order[rank]];
    chain = steps > shorter && steps % shorter === 0;
  }
  if (largest !== undefined) largest[0] = NaN;
  if (!chain) {
    for (let path = 0; path < nPaths; path++) {
      twoPassPath(returns, nPaths, returnCount, stepsPerBlock, path, out);
    }
    return out;
  }
  // A path with a volatility that is not finite (returns that overflow, or blocks of one return)
  // is taken again two-pass, so that NaN and ±Infinity come out exactly as numpy's (and the
  // reference's) do: the merged sums would turn an infinite M₂ into NaN.
  if (redoScratch.length < nPaths) redoScratch = new Uint8Array(nPaths);
  const redo = redoScratch;
  let flagged = mergedBlockVolatilities(
    returns,
    nPaths,
    stepsPerBlock,
    order,
    terms,
    out,
    redo,
    LARGEST,
  );
  if (largest !== undefined) largest[0] = flagged === 0 ? LARGEST[0] : NaN;
  for (let path = 0; path < nPaths && flagged > 0; path++) {
    if (redo[path] === 0) continue;
    redo[path] = 0;
    flagged--;
    twoPassPath(returns, nPaths, returnCount, stepsPerBlock, path, out);
  }
  return out;
}

/**
 * One path's blocks two-pass (`merge` false, sizes that do not nest, or a redo): the readable
 * form, and the operations of `blockVolatilities` in the same order.
 */
function twoPassPath(
  returns: Float64Array,
  nPaths: number,
  returnCount: number,
  stepsPerBlock: readonly number[],
  path: number,
  out: Float64Array,
): void {
  const sizeCount = stepsPerBlock.length;
  for (let size = 0, term = 0; size < sizeCount; size++) {
    const steps = stepsPerBlock[size];
    const blocks = Math.floor(returnCount / steps);
    for (let block = 0; block < blocks; block++, term++) {
      const start = block * steps * nPaths + path;
      const end = start + steps * nPaths;
      let sum = 0;
      for (let at = start; at < end; at += nPaths) sum += returns[at];
      const mean = sum / steps;
      let squares = 0;
      for (let at = start; at < end; at += nPaths) {
        squares += (returns[at] - mean) * (returns[at] - mean);
      }
      out[term * nPaths + path] = Math.sqrt(squares / (steps - 1));
    }
  }
}
