/**
 * The hot loop of prompt scoring: one miner's path-major prices against a {@link PromptPlan}.
 * Runs on the calling thread and in the scoring workers alike.
 */

import type { CrpsMethod } from "../core/crps.ts";
import { crpsParitySorted } from "../core/crpsParity.ts";
import { KERNEL_SCRATCH } from "./kernelScratch.ts";
import type { PromptPlan } from "./promptPlan.ts";
import { sortAndScoreMembers } from "./sortMembers.ts";

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
/** The smallest and largest member the last gather wrote. */
const GATHERED_RANGE = new Float64Array(2);

/**
 * A miner's prompt CRPS as {@link promptCrpsOfValues} returns it.
 * @example const result: PromptCrpsValue = { crps: 1234.5, invalidReason: undefined, scored: true };
 */
export interface PromptCrpsValue {
  /** The prompt CRPS, or −1 when the validator would give −1. */
  readonly crps: number;
  /** Why the CRPS is −1; `undefined` for a valid score. */
  readonly invalidReason: string | undefined;
  /** Whether the intervals were scored (their sums written), even if the total is not finite. */
  readonly scored: boolean;
}

/**
 * The validator's prompt CRPS of one miner (DOMAIN.md §2) from its path-major `values` (`nPaths` ×
 * `plan.nPoints`), writing each interval's sum into `intervalSums` (NaN for every interval when
 * the miner is invalid before scoring). In the validator's order:
 * −1 when the realized path is empty; 0 when there are no intervals; −1 for the first simulated
 * price (path by path) that is 0 or not finite; −1 when the plan's term counts do not line up;
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
 * terms skipped, intervals without an observed term add 0); a non-finite total is −1.
 * In parity mode every term, every interval sum and the total equal `src/reference/promptCrps.ts`
 * bit for bit (same operations in the same order). O(intervals × terms × nPaths).
 * Throws `RangeError` when `values` or `intervalSums` have the wrong length.
 * @example
 * const sums = new Float64Array(plan.intervals.length);
 * promptCrpsOfValues(pathSet.values, pathSet.nPaths, plan, "closed", sums).crps // => e.g. 1234.5
 */
export function promptCrpsOfValues(
  values: Float64Array,
  nPaths: number,
  plan: PromptPlan,
  method: CrpsMethod,
  intervalSums: Float64Array,
): PromptCrpsValue {
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
  intervalSums.fill(NaN);
  if (plan.realizedMissingReason !== undefined) {
    return { crps: -1, invalidReason: plan.realizedMissingReason, scored: false };
  }
  if (intervals.length === 0) return { crps: 0, invalidReason: undefined, scored: true };
  // The first interval's gather checks the prices when it reads them all (a returns interval one
  // point apart, as 5min of 24h prompts and 1min of 1h prompts): one pass over the prices fewer.
  const first = intervals[0];
  const checkWhileGathering =
    plan.mismatchReason === undefined &&
    first.kind === "returns" &&
    first.stepsPerInterval === 1 &&
    first.realizedTerms.length === nPoints - 1 &&
    first.observedTerms > 0;
  if (!checkWhileGathering) {
    const problem = firstPriceProblem(values);
    if (problem >= 0) return priceProblemValue(values[problem]);
  }
  if (plan.mismatchReason !== undefined) {
    return { crps: -1, invalidReason: plan.mismatchReason, scored: false };
  }

  const sorted = nPaths <= SORTED.length ? SORTED.subarray(0, nPaths) : new Float64Array(nPaths);
  const parity = method === "parity";
  const reference = plan.absoluteReference;
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
        if (problem >= 0) return priceProblemValue(values[problem]);
      }
      const low = GATHERED_RANGE[0];
      const high = GATHERED_RANGE[1];
      for (let term = 0, from = 0; term < count; term++, from += nPaths) {
        const observation = realizedTerms[firstTerm + term];
        if (observation !== observation) continue;
        // Prices are finite and non-zero here, so no member is NaN; an overflowing return is
        // ±Infinity, which sends the sort to its typed-array fallback (a non-finite range).
        let crps = sortAndScoreMembers(members, from, low, high, observation, sorted);
        if (parity) crps = crpsParitySorted(sorted, observation);
        sum += absolute ? (crps / reference) * 10000 : crps;
      }
    }
    intervalSums[intervalIndex] = sum;
    total += sum;
  }
  if (!(total - total === 0)) {
    return { crps: -1, invalidReason: `non-finite total CRPS ${total}`, scored: true };
  }
  return { crps: total, invalidReason: undefined, scored: true };
}

/**
 * Writes the grid prices of `termCount` terms of an `_abs` interval from term `firstTerm` on into
 * `members`, term-major (the chunk's term t of path p, the price at grid point
 * firstTerm + t + 1, at t·nPaths + p), and their smallest and largest into
 * {@link GATHERED_RANGE}. Grid points are `stepsPerInterval` apart. Its own function, as is
 * `gatherReturns`: one loop for both kinds deoptimized on the kind it had not seen yet.
 */
function gatherPrices(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  stepsPerInterval: number,
  firstTerm: number,
  termCount: number,
  members: Float64Array,
): void {
  let low = Infinity;
  let high = -Infinity;
  const offset = firstTerm * stepsPerInterval;
  for (let path = 0, row = offset; path < nPaths; path++, row += nPoints) {
    for (
      let term = 0, at = path, point = row + stepsPerInterval;
      term < termCount;
      term++, at += nPaths, point += stepsPerInterval
    ) {
      const member = values[point];
      members[at] = member;
      if (member < low) low = member;
      if (member > high) high = member;
    }
  }
  GATHERED_RANGE[0] = low;
  GATHERED_RANGE[1] = high;
}

/**
 * `gatherPrices` for the other intervals: the chunk's term t of path p is the basis-point
 * return between grid points firstTerm + t and firstTerm + t + 1, ((to − from)/from)·10,000, the
 * validator's expression. One pass along the path rows, four rows side by side (their four members
 * of a term are adjacent), then the rows left over one by one: reading rows in order and writing
 * each term's column was measured ~2× faster than gathering each term's column from rows 2.3 kB
 * apart, and four rows at a time ~1.5× faster than one (bench/README.md). With `check` it also
 * tests every price it reads for 0 or not finite; at the first failure it returns the index of
 * the first such price of all `values` in path-major order (the validator's, found by a rescan:
 * the chunks checked so far cover other points of the earlier rows), and the members are then
 * incomplete; otherwise −1.
 */
function gatherReturns(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  stepsPerInterval: number,
  firstTerm: number,
  termCount: number,
  check: boolean,
  members: Float64Array,
): number {
  let low = Infinity;
  let high = -Infinity;
  const blocksEnd = nPaths - (nPaths % 4);
  const row1 = nPoints;
  const row2 = 2 * nPoints;
  const row3 = 3 * nPoints;
  let path = 0;
  // Index of the path's grid point firstTerm.
  let row = firstTerm * stepsPerInterval;
  for (; path < blocksEnd; path += 4, row += 4 * nPoints) {
    let from0 = values[row];
    let from1 = values[row + row1];
    let from2 = values[row + row2];
    let from3 = values[row + row3];
    if (check && !allFiniteNonZero(from0, from1, from2, from3)) return firstPriceProblem(values);
    for (
      let term = 0, at = path, point = row + stepsPerInterval;
      term < termCount;
      term++, at += nPaths, point += stepsPerInterval
    ) {
      const to0 = values[point];
      const to1 = values[point + row1];
      const to2 = values[point + row2];
      const to3 = values[point + row3];
      if (check && !allFiniteNonZero(to0, to1, to2, to3)) return firstPriceProblem(values);
      const member0 = ((to0 - from0) / from0) * 10000;
      const member1 = ((to1 - from1) / from1) * 10000;
      const member2 = ((to2 - from2) / from2) * 10000;
      const member3 = ((to3 - from3) / from3) * 10000;
      members[at] = member0;
      members[at + 1] = member1;
      members[at + 2] = member2;
      members[at + 3] = member3;
      if (member0 < low) low = member0;
      if (member0 > high) high = member0;
      if (member1 < low) low = member1;
      if (member1 > high) high = member1;
      if (member2 < low) low = member2;
      if (member2 > high) high = member2;
      if (member3 < low) low = member3;
      if (member3 > high) high = member3;
      from0 = to0;
      from1 = to1;
      from2 = to2;
      from3 = to3;
    }
  }
  for (; path < nPaths; path++, row += nPoints) {
    let from = values[row];
    if (check && !finiteNonZero(from)) return firstPriceProblem(values);
    for (
      let term = 0, at = path, point = row + stepsPerInterval;
      term < termCount;
      term++, at += nPaths, point += stepsPerInterval
    ) {
      const to = values[point];
      if (check && !finiteNonZero(to)) return firstPriceProblem(values);
      const member = ((to - from) / from) * 10000;
      members[at] = member;
      if (member < low) low = member;
      if (member > high) high = member;
      from = to;
    }
  }
  GATHERED_RANGE[0] = low;
  GATHERED_RANGE[1] = high;
  return -1;
}

/** Whether `price` is finite and non-zero, in one test for the common case. */
function finiteNonZero(price: number): boolean {
  return price - price === 0 && price !== 0;
}

/** {@link finiteNonZero} for four prices at once (a NaN or ±Infinity makes the sum NaN). */
function allFiniteNonZero(a: number, b: number, c: number, d: number): boolean {
  return a - a + (b - b) + (c - c) + (d - d) === 0 && a !== 0 && b !== 0 && c !== 0 && d !== 0;
}

/**
 * The index of the first price (in path-major order) that is 0 or not finite, or −1 when every one
 * is finite and non-zero.
 */
function firstPriceProblem(values: Float64Array): number {
  for (let index = 0; index < values.length; index++) {
    if (!finiteNonZero(values[index])) return index;
  }
  return -1;
}

/** The validator's −1 for a simulated `price` that is 0 or not finite, with its reason. */
function priceProblemValue(price: number): PromptCrpsValue {
  const invalidReason =
    price === 0
      ? "zero price encountered in simulation runs"
      : `non-finite simulated price ${price}`;
  return { crps: -1, invalidReason, scored: false };
}
