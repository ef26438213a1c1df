/**
 * The hot loop of prompt scoring: one miner's path-major prices against a {@link PromptPlan}.
 * Runs on the calling thread and in the scoring workers alike.
 */

import type { CrpsMethod } from "../core/crps.ts";
import { crpsEnsembleSorted } from "../core/crps.ts";
import { crpsParitySorted } from "../core/crpsParity.ts";
import type { PromptPlan } from "./promptPlan.ts";
import { sortMembersWithin } from "./sortMembers.ts";

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
 * `crpsIntervalSum`, with a faster sort): the members (basis-point returns between grid
 * points, or the grid prices for `_abs`) are gathered with their range, sorted by
 * `sortMembersWithin` and scored by the sorted closed form (`"closed"`, ≤ ~1e-13 relative
 * to properscoring) or properscoring's own loop (`"parity"`, bit for bit); `_abs` terms are
 * divided by the last realized price and multiplied by 10,000; terms are added in order per
 * interval, intervals in order (NaN realized terms skipped); a non-finite total is −1.
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
  const priceProblem = firstPriceProblem(values);
  if (priceProblem !== undefined) return { crps: -1, invalidReason: priceProblem, scored: false };
  if (plan.mismatchReason !== undefined) {
    return { crps: -1, invalidReason: plan.mismatchReason, scored: false };
  }

  const members = new Float64Array(nPaths);
  const sorted = new Float64Array(nPaths);
  const parity = method === "parity";
  const reference = plan.absoluteReference;
  let total = 0;
  for (let intervalIndex = 0; intervalIndex < intervals.length; intervalIndex++) {
    const { kind, stepsPerInterval, realizedTerms } = intervals[intervalIndex];
    const absolute = kind === "absolute";
    let sum = 0;
    for (let term = 0; term < realizedTerms.length; term++) {
      const observation = realizedTerms[term];
      if (observation !== observation) continue;
      const start = term * stepsPerInterval;
      const end = start + stepsPerInterval;
      // Gather the term's members and their range in one pass (the sort needs the range).
      let low = Infinity;
      let high = -Infinity;
      if (absolute) {
        for (let path = 0, row = 0; path < nPaths; path++, row += nPoints) {
          const member = values[row + end];
          members[path] = member;
          if (member < low) low = member;
          if (member > high) high = member;
        }
      } else {
        for (let path = 0, row = 0; path < nPaths; path++, row += nPoints) {
          const from = values[row + start];
          const member = ((values[row + end] - from) / from) * 10000;
          members[path] = member;
          if (member < low) low = member;
          if (member > high) high = member;
        }
      }
      // Prices are finite and non-zero here, so no member is NaN; an overflowing return is
      // ±Infinity, which sends the sort to its typed-array fallback (a non-finite range).
      sortMembersWithin(members, low, high, sorted);
      const crps = parity
        ? crpsParitySorted(sorted, observation)
        : crpsEnsembleSorted(sorted, observation);
      sum += absolute ? (crps / reference) * 10000 : crps;
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
 * The validator's reason for the first price (in path-major order) that is 0 or not finite, or
 * `undefined` when every price is finite and non-zero.
 */
function firstPriceProblem(values: Float64Array): string | undefined {
  for (let index = 0; index < values.length; index++) {
    const price = values[index];
    // One test for the common case: finite and non-zero.
    if (price - price === 0 && price !== 0) continue;
    return price === 0
      ? "zero price encountered in simulation runs"
      : `non-finite simulated price ${price}`;
  }
  return undefined;
}
