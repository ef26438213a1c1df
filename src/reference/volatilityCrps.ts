/**
 * The validator's volatility CRPS of crypto-1h prompts (the validator's dated rules; synthdataco/synth-subnet
 * pull request #323, `block_volatilities` and `calculate_vol_crps_for_miner`): per block size, the
 * realized volatility of each block scored against the miner's simulated volatilities of that
 * block, summed and weighted. Written the plain way, step by step, with the per-block CRPS from
 * {@link crpsProperscoring} (properscoring's own loop).
 */

import { VOLATILITY_BLOCKS_1H, type VolatilityBlock } from "../domain/intervals.ts";
import { crpsProperscoring } from "./crps.ts";
import { requirePathMatrix } from "./validate.ts";

/**
 * The volatility CRPS of one block size, as {@link volatilityCrpsDetails} returns it.
 * @example volatilityCrpsDetails(paths, realized, 60).blocks[1].name // => "vol_15min"
 */
export interface VolatilityBlockCrps {
  /** Block size name, e.g. `vol_15min`. */
  readonly name: string;
  /** Returns per block: trunc(seconds / time increment). */
  readonly stepsPerBlock: number;
  /** Factor of {@link crpsSum} in the score. */
  readonly weight: number;
  /** Number of blocks scored (realized volatility observed). */
  readonly blockCount: number;
  /** Sum of the blocks' CRPS, unweighted (0 when no block is observed). */
  readonly crpsSum: number;
}

/**
 * A volatility CRPS with its parts, as returned by {@link volatilityCrpsDetails}.
 * @example volatilityCrpsDetails(paths, realized, 60).score // => e.g. 14.2, or −1
 */
export interface VolatilityCrpsDetails {
  /** Σ over block sizes of weight × crpsSum, or −1 when the validator would give −1. */
  readonly score: number;
  /** Why the score is −1; `undefined` otherwise. */
  readonly invalidReason: string | undefined;
  /** Per block size, in the order of the blocks (empty when invalid before scoring). */
  readonly blocks: VolatilityBlockCrps[];
}

/**
 * The volatility of each block of one path: the path's 1-step basis-point simple returns
 * (p[j+1] − p[j]) / p[j] × 10000 are cut into consecutive blocks of `stepsPerBlock` returns
 * (return j belongs to block ⌊j / stepsPerBlock⌋, so a block of k returns spans k + 1 prices and
 * shares its edge prices with its neighbours; returns after the last whole block are dropped);
 * per block, the sample standard deviation (ddof 1) of its observed (not NaN) returns, two-pass:
 * mean, then the squared deviations from it, as numpy's `nanstd(ddof=1)`. A block with fewer
 * than 2 observed returns gives NaN. A return is NaN when either of its prices is NaN.
 * @example blockVolatilitiesOf([100, 101, 102], 2) // => [0.7001057239470748]
 */
export function blockVolatilitiesOf(prices: readonly number[], stepsPerBlock: number): number[] {
  const change = (j: number) => ((prices[j + 1] - prices[j]) / prices[j]) * 10000;
  const blockCount = Math.floor(Math.max(0, prices.length - 1) / stepsPerBlock);
  const volatilities: number[] = [];
  for (let block = 0; block < blockCount; block++) {
    const start = block * stepsPerBlock;
    const end = start + stepsPerBlock;
    let observed = 0;
    let sum = 0;
    for (let j = start; j < end; j++) {
      const value = change(j);
      if (Number.isNaN(value)) continue;
      sum += value;
      observed += 1;
    }
    if (observed < 2) {
      volatilities.push(NaN);
      continue;
    }
    const mean = sum / observed;
    let squares = 0;
    for (let j = start; j < end; j++) {
      const value = change(j);
      if (!Number.isNaN(value)) squares += (value - mean) * (value - mean);
    }
    volatilities.push(Math.sqrt(squares / (observed - 1)));
  }
  return volatilities;
}

/**
 * The validator's volatility CRPS of one miner: see {@link volatilityCrpsDetails}; this returns
 * its score.
 * @example volatilityCrps(paths, realized, 60) // => e.g. 14.2, or −1
 */
export function volatilityCrps(
  simulatedPaths: readonly (readonly number[])[],
  realizedPrices: readonly number[],
  timeIncrementSeconds: number,
  blocks: Readonly<Record<string, VolatilityBlock>> = VOLATILITY_BLOCKS_1H,
): number {
  return volatilityCrpsDetails(simulatedPaths, realizedPrices, timeIncrementSeconds, blocks).score;
}

/**
 * The validator's volatility CRPS of one miner (`calculate_vol_crps_for_miner`). For each block
 * size (name → seconds and weight, crypto-1h: 60, 15 and 5 minutes), k = trunc(seconds /
 * timeIncrementSeconds) returns per block:
 * 1. The realized volatility of every block ({@link blockVolatilitiesOf}); blocks whose realized
 *    volatility is NaN (fewer than 2 observed returns) are skipped.
 * 2. Each remaining block's realized volatility y is scored against the simulated paths'
 *    volatilities of the same block with {@link crpsProperscoring}.
 * 3. The block size adds weight × (the plain sum of its blocks' CRPS); a size without an observed
 *    block adds nothing. Score = that sum over the sizes, in order.
 * The score is −1 when a simulated price equals 0 or is not finite (in the validator the price
 * CRPS, which runs first, gives −1 and the volatility CRPS is not added); `realizedPrices` is
 * empty; or an observed realized block has no simulated counterpart (a realized path longer than
 * the simulations: the validator's index fails and it scores −1).
 * Floating point: each volatility and each CRPS term is computed in one fixed order (sequential
 * sums); numpy sums pairwise, so volatilities agree with numpy to ~1e-15 relative.
 * Complexity O(sizes × blocks × M log M) for M paths.
 * Throws `RangeError` for ragged or empty paths, a non-positive time increment, or a block
 * shorter than one time increment.
 * @example volatilityCrpsDetails(paths, realized, 60).blocks.map((block) => block.blockCount) // => [1, 4, 12]
 */
export function volatilityCrpsDetails(
  simulatedPaths: readonly (readonly number[])[],
  realizedPrices: readonly number[],
  timeIncrementSeconds: number,
  blocks: Readonly<Record<string, VolatilityBlock>> = VOLATILITY_BLOCKS_1H,
): VolatilityCrpsDetails {
  requirePathMatrix("volatilityCrpsDetails", simulatedPaths);
  if (!(timeIncrementSeconds > 0 && Number.isFinite(timeIncrementSeconds))) {
    throw new RangeError(
      `volatilityCrpsDetails requires a positive timeIncrementSeconds, got ${timeIncrementSeconds}`,
    );
  }
  const blockEntries = Object.entries(blocks);
  for (const [name, { seconds }] of blockEntries) {
    if (!(Math.trunc(seconds / timeIncrementSeconds) >= 1)) {
      throw new RangeError(
        `volatilityCrpsDetails requires every block to span at least one time increment: block "${name}" is ${seconds} s with ${timeIncrementSeconds} s steps`,
      );
    }
  }
  const invalid = (reason: string): VolatilityCrpsDetails => ({
    score: -1,
    invalidReason: reason,
    blocks: [],
  });
  if (realizedPrices.length === 0) return invalid("no realized prices");
  for (const path of simulatedPaths) {
    for (const price of path) {
      if (price === 0) return invalid("zero price encountered in simulation runs");
      if (!Number.isFinite(price)) return invalid(`non-finite simulated price ${price}`);
    }
  }

  const scored: VolatilityBlockCrps[] = [];
  let score = 0;
  for (const [name, { seconds, weight }] of blockEntries) {
    const stepsPerBlock = Math.trunc(seconds / timeIncrementSeconds);
    const realized = blockVolatilitiesOf(realizedPrices, stepsPerBlock);
    const simulated = simulatedPaths.map((path) => blockVolatilitiesOf(path, stepsPerBlock));
    const members = new Float64Array(simulated.length);
    let crpsSum = 0;
    let blockCount = 0;
    for (let block = 0; block < realized.length; block++) {
      const observation = realized[block];
      if (Number.isNaN(observation)) continue;
      if (block >= simulated[0].length) {
        return invalid(
          `volatility block size "${name}": ${realized.length} realized blocks against ${simulated[0].length} simulated blocks per path`,
        );
      }
      for (let path = 0; path < members.length; path++) members[path] = simulated[path][block];
      crpsSum += crpsProperscoring(members, observation);
      blockCount += 1;
    }
    scored.push({ name, stepsPerBlock, weight, blockCount, crpsSum });
    if (blockCount > 0) score += weight * crpsSum;
  }
  return { score, invalidReason: undefined, blocks: scored };
}
