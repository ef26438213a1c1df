/**
 * The volatility part of a crypto-1h prompt CRPS (the validator's dated rules), the kernel beside
 * `promptCrpsOfValues.ts`: every path's block volatilities from its 1-step returns, then each
 * observed block's CRPS against the realized block volatility.
 */

import type { CrpsMethod } from "../core/crps.ts";
import { crpsParitySorted } from "../core/crpsParity.ts";
import { pathBlockVolatilities } from "../core/pathBlockVolatilities.ts";
import { gatherReturns } from "./gatherTerms.ts";
import { KERNEL_SCRATCH } from "./kernelScratch.ts";
import type { PlannedVolatilityBlock } from "./promptPlan.ts";
import { sortAndScoreMembers } from "./sortMembers.ts";

/**
 * Every path's block volatilities, term-major (block term t at t·nPaths): the thread's kernel
 * scratch (`kernelScratch.ts`; 24 blocks of 1,000 paths), replaced by a larger buffer only when
 * they do not fit. Module-level, one per thread: the kernel runs to completion without calling out.
 */
let volatilityMembers = new Float64Array(KERNEL_SCRATCH.volatilityMembers);
/**
 * Where {@link volatilityCrpsOfValues} gathers the 1-step returns: the kernel scratch of a chunk
 * of interval terms (96,000 numbers), free once `promptCrpsOfValues` has scored its intervals.
 */
let returnsScratch = new Float64Array(KERNEL_SCRATCH.termMembers);
/** Where a block's members are sorted (its first nPaths values), from the kernel scratch. */
const SORTED = new Float64Array(KERNEL_SCRATCH.sorted);
/** The block lengths of the planned sizes, reused by every call. */
const STEPS: number[] = [];
/** The smallest and largest member of the block {@link rangeOf} last read (NaN, NaN: not finite). */
const MEMBER_RANGE = new Float64Array(2);
/** The largest block volatility, as pathBlockVolatilities writes it (NaN: no bound). */
const LARGEST = new Float64Array(1);

/**
 * The block sizes {@link volatilityCrpsOfValues} and {@link volatilityCrpsOfReturns} score, how,
 * and where they write each size's sum.
 * @example const options: VolatilityCrpsOptions = { blocks: plan.volatility, method: "closed", blockSums: new Float64Array(3) };
 */
export interface VolatilityCrpsOptions {
  /** The planned block sizes (`PromptPlan.volatility`). */
  readonly blocks: readonly PlannedVolatilityBlock[];
  /** `"closed"` (the sorted closed form) or `"parity"` (properscoring's loop). */
  readonly method: CrpsMethod;
  /** Receives each block size's unweighted CRPS sum: one entry per size. */
  readonly blockSums: Float64Array;
}

/**
 * The validator's volatility CRPS of one miner (`calculate_vol_crps_for_miner`) from its
 * path-major `values` (`nPaths` × `nPoints`, prices that are finite and non-zero:
 * `promptCrpsOfValues` checks them first) against the planned block sizes
 * (`PromptPlan.volatility`), writing each size's unweighted CRPS sum into `blockSums` (0 for a
 * size without an observed block) and returning Σ weight × sum over the sizes, in order.
 * Gathers every path's 1-step returns step-major (as the price CRPS's `1min` interval does), then
 * {@link volatilityCrpsOfReturns}, which `promptCrpsOfValues` calls itself on the returns its
 * first interval gathered.
 * In parity mode every block CRPS, every sum and the result equal
 * `src/reference/volatilityCrps.ts` bit for bit; in closed mode within ~1e-13 relative.
 * Throws `RangeError` when `values` or `blockSums` have the wrong length.
 * @param values - the miner's paths, path-major: `nPaths` × `nPoints` prices, finite and non-zero.
 * @param nPaths - the number of paths, ≥ 1.
 * @param nPoints - points per path.
 * @param options - the block sizes, the CRPS method, and where to write each size's sum.
 * @example
 * const blockSums = new Float64Array(plan.volatility.length);
 * volatilityCrpsOfValues(pathSet.values, pathSet.nPaths, 61, { blocks: plan.volatility, method: "closed", blockSums }) // => e.g. 4.43
 */
export function volatilityCrpsOfValues(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  options: VolatilityCrpsOptions,
): number {
  if (!Number.isInteger(nPaths) || nPaths < 1 || values.length !== nPaths * nPoints) {
    throw new RangeError(
      `volatilityCrpsOfValues requires at least one path and values.length = nPaths × nPoints = ${nPaths} × ${nPoints}, got ${values.length} values`,
    );
  }
  const returnCount = nPoints - 1;
  if (returnsScratch.length < returnCount * nPaths) {
    returnsScratch = new Float64Array(returnCount * nPaths);
  }
  const returns = returnsScratch.subarray(0, returnCount * nPaths);
  gatherReturns(values, nPaths, nPoints, 1, 0, returnCount, false, returns);
  return volatilityCrpsOfReturns(returns, nPaths, options);
}

/**
 * The volatility CRPS from every path's 1-step basis-point returns laid out step-major
 * (`returns`: return j of path p at j·nPaths + p, as the price CRPS's `1min` gather leaves
 * them): every path's block volatilities for the planned sizes, term-major into this thread's
 * scratch (core `pathBlockVolatilities`: `"closed"` merges the 5-minute blocks' stats into the 15-
 * and 60-minute ones in one read of the returns, `"parity"` takes every block two-pass, as the
 * reference); then per observed block `sortAndScoreMembers` (radix sort within [0, the largest
 * merged volatility], or the block's own range when there is no such bound, and the closed-form
 * CRPS), or properscoring's own loop on the sorted members (`"parity"`); block CRPS added in
 * order per size into `blockSums` (0 for a size without an observed block), and Σ weight × sum
 * over the sizes (with an observed block) returned. A block whose members include NaN (a return
 * that overflowed) sorts NaN last and scores without it, as properscoring; an infinite member
 * makes the closed form NaN (properscoring: Infinity). O(nPaths × returnCount) for the
 * volatilities and O(nPaths) per block for smooth ensembles.
 * Throws `RangeError` when `blockSums` has another length than the sizes.
 * @param returns - every path's 1-step basis-point returns, step-major: return j of path p at
 *   j·nPaths + p.
 * @param nPaths - the number of paths, ≥ 1.
 * @param options - the block sizes, the CRPS method, and where to write each size's sum.
 * @example volatilityCrpsOfReturns(returns, 1000, { blocks: plan.volatility, method: "closed", blockSums: new Float64Array(3) }) // => e.g. 4.43
 */
export function volatilityCrpsOfReturns(
  returns: Float64Array,
  nPaths: number,
  options: VolatilityCrpsOptions,
): number {
  const { blocks, method, blockSums } = options;
  const sizeCount = blocks.length;
  if (blockSums.length !== sizeCount) {
    throw new RangeError(
      `volatilityCrpsOfReturns requires one sum per block size: expected ${sizeCount}, got ${blockSums.length}`,
    );
  }
  STEPS.length = sizeCount;
  let terms = 0;
  for (let size = 0; size < sizeCount; size++) {
    STEPS[size] = blocks[size].stepsPerBlock;
    terms += blocks[size].realizedVolatilities.length;
  }
  if (volatilityMembers.length < terms * nPaths) {
    volatilityMembers = new Float64Array(terms * nPaths);
  }
  const members = volatilityMembers.subarray(0, terms * nPaths);
  const parity = method === "parity";
  pathBlockVolatilities(returns, nPaths, {
    stepsPerBlock: STEPS,
    merge: !parity,
    out: members,
    largest: LARGEST,
  });
  // Volatilities are ≥ 0: with the largest one, [0, largest] bounds every block's members.
  const largest = LARGEST[0];
  const bounded = largest === largest;
  const sorted = nPaths <= SORTED.length ? SORTED.subarray(0, nPaths) : new Float64Array(nPaths);
  let total = 0;
  for (let size = 0, term = 0; size < sizeCount; size++) {
    const { weight, realizedVolatilities, observedBlocks } = blocks[size];
    const blockCount = realizedVolatilities.length;
    let sum = 0;
    for (let block = 0; block < blockCount; block++, term++) {
      const observation = realizedVolatilities[block];
      if (observation !== observation) continue;
      const from = term * nPaths;
      if (!bounded) rangeOf(members, from, nPaths);
      const low = bounded ? 0 : MEMBER_RANGE[0];
      const high = bounded ? largest : MEMBER_RANGE[1];
      let crps = sortAndScoreMembers(members, from, low, high, observation, sorted);
      if (parity) crps = crpsParitySorted(sorted, observation);
      sum += crps;
    }
    blockSums[size] = sum;
    if (observedBlocks > 0) total += weight * sum;
  }
  return total;
}

/**
 * The smallest and largest of `members[from, from + count)` into {@link MEMBER_RANGE}, or NaN for
 * both when one is NaN or infinite (the sort then takes its typed-array path, NaN last). Four
 * members at a time with their own running bounds (no chain of dependent comparisons) and a sum
 * that turns NaN on a non-finite member: ~1.6× faster than one by one with a NaN test each.
 */
function rangeOf(members: Float64Array, from: number, count: number): void {
  let low0 = Infinity;
  let low1 = Infinity;
  let low2 = Infinity;
  let low3 = Infinity;
  let high0 = -Infinity;
  let high1 = -Infinity;
  let high2 = -Infinity;
  let high3 = -Infinity;
  let sum = 0;
  const end = from + count;
  const groupsEnd = end - (count % 4);
  let at = from;
  for (; at < groupsEnd; at += 4) {
    const member0 = members[at];
    const member1 = members[at + 1];
    const member2 = members[at + 2];
    const member3 = members[at + 3];
    sum += member0 + member1 + member2 + member3;
    low0 = member0 < low0 ? member0 : low0;
    low1 = member1 < low1 ? member1 : low1;
    low2 = member2 < low2 ? member2 : low2;
    low3 = member3 < low3 ? member3 : low3;
    high0 = member0 > high0 ? member0 : high0;
    high1 = member1 > high1 ? member1 : high1;
    high2 = member2 > high2 ? member2 : high2;
    high3 = member3 > high3 ? member3 : high3;
  }
  for (; at < end; at++) {
    const member = members[at];
    sum += member;
    low0 = member < low0 ? member : low0;
    high0 = member > high0 ? member : high0;
  }
  const finite = sum - sum === 0;
  MEMBER_RANGE[0] = finite ? Math.min(low0, low1, low2, low3) : NaN;
  MEMBER_RANGE[1] = finite ? Math.max(high0, high1, high2, high3) : NaN;
}
