/**
 * The hot loop of prompt scoring: one miner's path-major prices against a {@link PromptPlan}, the
 * price CRPS here and the volatility CRPS of crypto-1h prompts in `volatilityCrpsOfValues.ts`.
 * Runs on the calling thread and in the scoring workers alike.
 *
 * Over 300 lines because the function's comment states each step in the order it computes it (the
 * order its parity mode's bit-for-bit match with `src/reference/promptCrps.ts` depends on); the
 * rest is the hot loop and its few helpers.
 */

import type { CrpsMethod } from "../core/crps.ts";
import { crpsParitySorted } from "../core/crpsParity.ts";
import {
  firstPriceProblem,
  gatheredHigh,
  gatheredLow,
  gatherPrices,
  gatherReturns,
} from "./gatherTerms.ts";
import { KERNEL_SCRATCH } from "./kernelScratch.ts";
import type { PromptPlan } from "./promptPlan.ts";
import { sortAndScoreMembers } from "./sortMembers.ts";
import { volatilityCrpsOfReturns, volatilityCrpsOfValues } from "./volatilityCrpsOfValues.ts";

/**
 * The members of a chunk of the interval's terms being scored, term-major (the chunk's term t at
 * t·nPaths): the thread's kernel scratch (768 kB, 96 terms of 1,000 paths; in a scoring worker,
 * memory the pool allocated on the calling thread: `kernelScratch.ts`), replaced by a larger
 * buffer only when one term's members do not fit. Module-level, one per thread: the scoring
 * kernel runs to completion without calling out.
 */
let termMembers = new Float64Array(KERNEL_SCRATCH.termMembers);
/** Where a term's members are sorted (its first nPaths values), from the same scratch. */
const SORTED = new Float64Array(KERNEL_SCRATCH.sorted);
/** The block sizes' sums when the caller asks for none (grown to the plan's sizes). */
let volatilitySumsScratch = new Float64Array(3);

/**
 * A miner's prompt CRPS as {@link promptCrpsOfValues} returns it.
 * @example const result: PromptCrpsValue = { crps: 1234.5, invalidReason: undefined, scored: true, priceCrps: 1234.5, volatilityCrps: null, volatilityScored: false };
 */
export interface PromptCrpsValue {
  /** The prompt CRPS (price CRPS + volatility CRPS), or −1 when the validator would give −1. */
  readonly crps: number;
  /** Why the CRPS is −1; `undefined` for a valid score. */
  readonly invalidReason: string | undefined;
  /** Whether the intervals were scored (their sums written), even if the total is not finite. */
  readonly scored: boolean;
  /** The price CRPS (the sum of the interval sums); NaN when the intervals were not scored. */
  readonly priceCrps: number;
  /**
   * The weighted volatility CRPS; `null` when the plan has no volatility part; NaN when it has one
   * that was not computed (the miner is −1 before it: invalid prices, a non-finite price CRPS, or
   * realized volatility blocks that do not line up).
   */
  readonly volatilityCrps: number | null;
  /** Whether the volatility block sums were computed (written), even if the total is not finite. */
  readonly volatilityScored: boolean;
}

/**
 * How {@link promptCrpsOfValues} scores, and where it writes the sums of the intervals and of the
 * volatility block sizes.
 * @example const options: PromptCrpsOfValuesOptions = { method: "closed", intervalSums: new Float64Array(plan.intervals.length) };
 */
export interface PromptCrpsOfValuesOptions {
  /** `"closed"` (the sorted closed form) or `"parity"` (properscoring's loop). */
  readonly method: CrpsMethod;
  /** Receives each interval's CRPS sum: one entry per interval of the plan. */
  readonly intervalSums: Float64Array;
  /**
   * Receives each block size's volatility CRPS sum: one entry per block size of the plan; needed
   * only when the plan has a volatility part (a scratch array otherwise).
   */
  readonly volatilitySums?: Float64Array;
}

/**
 * The validator's prompt CRPS of one miner (the validator's CRPS and its dated rules) from its path-major `values`
 * (`nPaths` × `plan.nPoints`), writing each interval's sum into `intervalSums` (NaN for every
 * interval when the miner is invalid before scoring) and, when the plan has a volatility part,
 * each block size's unweighted CRPS sum into `volatilitySums` (NaN when not computed). In the
 * validator's order:
 * −1 when the realized path is empty; 0 when there are no intervals nor volatility part; −1 for
 * the first simulated price (path by path) that is 0 or not finite; −1 when the plan's term
 * counts do not line up;
 * then per interval, per observed realized term (the same computation as the core's
 * `crpsIntervalSum`, faster): the members of a chunk of the interval's terms (basis-point
 * returns between grid points, or the grid prices for `_abs`; 96 terms of 1,000 paths, as many as
 * the kernel scratch holds) are gathered term-major in one pass along each path row, with the
 * range of them all (`gatherReturns`, `gatherPrices`; the first interval's gathers
 * check the prices when they read them all, instead of a pass of its own); each term's members
 * are sorted within that range by `sortAndScoreMembers`, which also gives the closed-form CRPS
 * (`"closed"`, ≤ ~1e-13 relative to properscoring), or properscoring's own loop scores the sorted
 * members (`"parity"`, bit for bit); `_abs` terms are divided by the last realized price and
 * multiplied by 10,000; terms are added in order per interval, intervals in order (NaN realized
 * terms skipped, intervals without an observed term add 0); a non-finite price CRPS is −1. Then,
 * with a volatility part (`plan.volatility`): −1 when the realized blocks do not line up; the
 * volatility CRPS (`volatilityCrpsOfValues.ts`: every path's block volatilities from the 1-step
 * returns that the first interval gathered, when it is 1min of a 1h prompt, else from returns
 * gathered again; each observed block scored as a term) added to the price CRPS (0 when no block
 * is observed); a non-finite total is −1.
 * In parity mode every term, every interval and block sum and the total equal
 * `src/reference/promptCrps.ts` bit for bit (same operations in the same order).
 * O(intervals × terms × nPaths + blocks × nPaths).
 * Throws `RangeError` when `values`, `intervalSums` or `volatilitySums` have the wrong length.
 * @param values - the miner's paths, path-major: `nPaths` × `plan.nPoints` prices.
 * @param nPaths - the number of paths, ≥ 1.
 * @param plan - the prompt, planned by {@link planPrompt}.
 * @param options - the CRPS method, and where to write the interval and block-size sums.
 * @example
 * const intervalSums = new Float64Array(plan.intervals.length);
 * promptCrpsOfValues(pathSet.values, pathSet.nPaths, plan, { method: "closed", intervalSums }).crps // => e.g. 1234.5
 */
export function promptCrpsOfValues(
  values: Float64Array,
  nPaths: number,
  plan: PromptPlan,
  options: PromptCrpsOfValuesOptions,
): PromptCrpsValue {
  const { method, intervalSums, volatilitySums } = options;
  const nPoints = plan.nPoints;
  const intervals = plan.intervals;
  if (!Number.isInteger(nPaths) || nPaths < 1 || values.length !== nPaths * nPoints) {
    throw new RangeError(
      `promptCrpsOfValues requires at least one path and values.length = nPaths × nPoints = ${nPaths} × ${nPoints}, got ${values.length} values`,
    );
  }
  if (intervalSums.length !== intervals.length) {
    throw new RangeError(
      `promptCrpsOfValues requires one interval sum per interval: expected ${intervals.length}, got ${intervalSums.length}`,
    );
  }
  const volatility = plan.volatility;
  let blockSums = volatilitySums;
  if (volatility !== undefined) {
    if (blockSums === undefined) {
      if (volatilitySumsScratch.length < volatility.length) {
        volatilitySumsScratch = new Float64Array(volatility.length);
      }
      blockSums = volatilitySumsScratch.subarray(0, volatility.length);
    } else if (blockSums.length !== volatility.length) {
      throw new RangeError(
        `promptCrpsOfValues requires one volatility sum per block size: expected ${volatility.length}, got ${blockSums.length}`,
      );
    }
    blockSums.fill(NaN);
  }
  const notScored = volatility === undefined ? null : NaN;
  intervalSums.fill(NaN);
  if (plan.realizedMissingReason !== undefined) {
    return invalidBeforeScoring(plan.realizedMissingReason, notScored);
  }
  if (intervals.length === 0 && volatility === undefined) {
    return scoredValue(0, undefined, 0, null, false);
  }
  // The first interval's gather checks the prices when it reads them all (a returns interval one
  // point apart, as 5min of 24h prompts and 1min of 1h prompts): one pass over the prices fewer.
  const first = intervals[0];
  const checkWhileGathering =
    first !== undefined &&
    plan.mismatchReason === undefined &&
    first.kind === "returns" &&
    first.stepsPerInterval === 1 &&
    first.realizedTerms.length === nPoints - 1 &&
    first.observedTerms > 0;
  if (!checkWhileGathering) {
    const problem = firstPriceProblem(values);
    if (problem >= 0) return priceProblemValue(values[problem], notScored);
  }
  if (plan.mismatchReason !== undefined) {
    return invalidBeforeScoring(plan.mismatchReason, notScored);
  }

  const sorted = nPaths <= SORTED.length ? SORTED.subarray(0, nPaths) : new Float64Array(nPaths);
  const parity = method === "parity";
  const reference = plan.absoluteReference;
  // The volatility CRPS needs every path's 1-step returns, step-major: when the first interval's
  // gather holds them all (1min of 1h prompts), the volatility CRPS is taken from them at once,
  // before the next gather overwrites them, and added to the price CRPS at the end (saving the
  // 60,000 divisions of gathering them again); otherwise volatilityCrpsOfValues gathers them at
  // the end.
  let volatilityObserved = false;
  for (let size = 0; volatility !== undefined && size < volatility.length; size++) {
    if (volatility[size].observedBlocks > 0) volatilityObserved = true;
  }
  const takeReturns = volatilityObserved && plan.volatilityMismatchReason === undefined;
  let earlyVolatilityCrps: number | undefined;
  let total = 0;
  for (let intervalIndex = 0; intervalIndex < intervals.length; intervalIndex++) {
    const { kind, stepsPerInterval, realizedTerms, observedTerms } = intervals[intervalIndex];
    if (observedTerms === 0) {
      intervalSums[intervalIndex] = 0;
      continue;
    }
    const termCount = realizedTerms.length;
    const absolute = kind === "absolute";
    // Terms gathered and scored a chunk at a time, as many as the scratch holds (96 of 1,000
    // paths, 768 kB; kernelScratch.ts).
    if (termMembers.length < nPaths) termMembers = new Float64Array(nPaths);
    const members = termMembers;
    const chunkTerms = Math.floor(members.length / nPaths);
    const check = intervalIndex === 0 && checkWhileGathering;
    let sum = 0;
    for (let firstTerm = 0; firstTerm < termCount; firstTerm += chunkTerms) {
      const count = Math.min(chunkTerms, termCount - firstTerm);
      if (absolute) {
        gatherPrices(values, nPaths, nPoints, stepsPerInterval, firstTerm, count, members);
      } else {
        const problem = gatherReturns(
          values,
          nPaths,
          nPoints,
          stepsPerInterval,
          firstTerm,
          count,
          check,
          members,
        );
        if (problem >= 0) return priceProblemValue(values[problem], notScored);
      }
      const low = gatheredLow();
      const high = gatheredHigh();
      for (let term = 0, from = 0; term < count; term++, from += nPaths) {
        const observation = realizedTerms[firstTerm + term];
        if (observation !== observation) continue;
        // Prices are finite and non-zero here, so no member is NaN; an overflowing return is
        // ±Infinity, which sends the sort to its typed-array fallback (a non-finite range).
        let crps = sortAndScoreMembers(members, from, low, high, observation, sorted);
        if (parity) crps = crpsParitySorted(sorted, observation);
        sum += absolute ? (crps / reference) * 10000 : crps;
      }
      if (check && takeReturns && count === nPoints - 1) {
        const returns = members.subarray(0, count * nPaths);
        earlyVolatilityCrps = volatilityCrpsOfReturns(returns, nPaths, {
          blocks: volatility!,
          method,
          blockSums: blockSums!,
        });
      }
    }
    intervalSums[intervalIndex] = sum;
    total += sum;
  }
  const priceCrps = total;
  if (!(total - total === 0) || volatility === undefined) {
    return totalValue(total, priceCrps, notScored, false);
  }
  if (plan.volatilityMismatchReason !== undefined) {
    return scoredValue(-1, plan.volatilityMismatchReason, priceCrps, NaN, false);
  }
  let volatilityCrps = 0;
  if (!volatilityObserved) {
    blockSums!.fill(0);
  } else if (earlyVolatilityCrps !== undefined) {
    volatilityCrps = earlyVolatilityCrps;
  } else {
    volatilityCrps = volatilityCrpsOfValues(values, nPaths, nPoints, {
      blocks: volatility,
      method,
      blockSums: blockSums!,
    });
  }
  return totalValue(total + volatilityCrps, priceCrps, volatilityCrps, true);
}

/** A result once the intervals are scored. */
function scoredValue(
  crps: number,
  invalidReason: string | undefined,
  priceCrps: number,
  volatilityCrps: number | null,
  volatilityScored: boolean,
): PromptCrpsValue {
  return { crps, invalidReason, scored: true, priceCrps, volatilityCrps, volatilityScored };
}

/** The result of a `total` CRPS: itself, or −1 when it is not finite. */
function totalValue(
  total: number,
  priceCrps: number,
  volatilityCrps: number | null,
  volatilityScored: boolean,
): PromptCrpsValue {
  return total - total === 0
    ? scoredValue(total, undefined, priceCrps, volatilityCrps, volatilityScored)
    : scoredValue(
        -1,
        `non-finite total CRPS ${total}`,
        priceCrps,
        volatilityCrps,
        volatilityScored,
      );
}

/** A −1 found before the intervals are scored, with its reason. */
function invalidBeforeScoring(
  invalidReason: string,
  volatilityCrps: number | null,
): PromptCrpsValue {
  return {
    crps: -1,
    invalidReason,
    scored: false,
    priceCrps: NaN,
    volatilityCrps,
    volatilityScored: false,
  };
}

/** The validator's −1 for a simulated `price` that is 0 or not finite, with its reason. */
function priceProblemValue(price: number, volatilityCrps: number | null): PromptCrpsValue {
  const invalidReason =
    price === 0
      ? "zero price encountered in simulation runs"
      : `non-finite simulated price ${price}`;
  return invalidBeforeScoring(invalidReason, volatilityCrps);
}
