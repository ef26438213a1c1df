/**
 * The sandbox validator's prompt CRPS, read straight from a submission's path-major Float64Array.
 * It gives what `promptCrps` of `src/reference/` gives on the same paths as nested arrays, bit for
 * bit (test/sandbox/world/validatorCrps.test.ts compares the two on simulated 24h and 1h sets
 * under every era's rules, on realized paths that are short, long or have gaps, and on each −1
 * rule), at 40 % less cost (a 24h miner: 30 → 18 ms, `npm run bench -- sandbox`): the reference
 * builds 1,000 arrays of prices and 1,000 arrays of changes per interval, which the collector then
 * reclaims, and the world scores every miner of a scoring period this way before it answers its
 * first leaderboard. Each term is properscoring's loop (`crpsProperscoringSorted` of the
 * reference) on the members sorted by the built-in sort, and terms and intervals are summed in the
 * reference's order; the realized changes and the argument checks are the reference's own. The
 * sandbox does not use the fast core's CRPS, so that pathlab's scores stay checked against an
 * independent computation.
 */

import { crpsProperscoringSorted } from "../../reference/crps.ts";
import { intervalChanges, type PromptCrpsOptions } from "../../reference/promptCrps.ts";
import { requireScoringIntervals } from "../../reference/validate.ts";
import { volatilityCrpsDetails } from "../../reference/volatilityCrps.ts";
import { pathRows } from "./pathRows.ts";

/** A submission's prices: path p, point t at `p * pointCount + t`. */
export interface PathValues {
  readonly values: Float64Array;
  readonly pathCount: number;
  readonly pointCount: number;
}

/**
 * The validator's prompt CRPS of one miner's paths (−1 where the validator gives −1), by the
 * steps and rules of `promptCrpsDetails` in `src/reference/promptCrps.ts`: per interval, the
 * grid of every k-th point, basis-point changes (`_abs`: the grid prices from point 1 on, with k
 * reduced while the realized grid has one point; `_gaps`: the first change only, under
 * `gapsFirstChangeOnly`), each observed realized change scored against the paths' changes at the
 * same position, `_abs` terms normalized by the last realized price; plus, with `volatility` and
 * when the price CRPS is not −1, the reference's volatility CRPS.
 * Throws `RangeError` unless pathCount and pointCount are positive integers and `values` holds
 * exactly pathCount × pointCount prices, for a non-positive time increment, or for an interval
 * shorter than one time increment.
 * @example validatorPromptCrps({ values, pathCount: 1000, pointCount: 289 }, realized, 300, SCORING_INTERVALS_24H) // => e.g. 1234.5, or −1
 */
export function validatorPromptCrps(
  paths: PathValues,
  realizedPrices: readonly number[],
  timeIncrementSeconds: number,
  scoringIntervals: Readonly<Record<string, number>>,
  options: PromptCrpsOptions = {},
): number {
  const { values, pathCount, pointCount } = paths;
  const counted = Number.isInteger(pathCount) && Number.isInteger(pointCount);
  if (!(counted && pathCount >= 1 && pointCount >= 1 && values.length === pathCount * pointCount)) {
    throw new RangeError(
      `validatorPromptCrps requires exactly pathCount × pointCount values, both positive integers, got ${values.length} for ${pathCount} × ${pointCount}`,
    );
  }
  const intervals = requireScoringIntervals(
    "validatorPromptCrps",
    timeIncrementSeconds,
    scoringIntervals,
  );
  if (realizedPrices.length === 0) return -1;
  if (intervals.length === 0) {
    return volatilityAdded(0, paths, realizedPrices, timeIncrementSeconds, options);
  }
  for (let index = 0; index < values.length; index++) {
    if (values[index] === 0 || !Number.isFinite(values[index])) return -1;
  }
  const gapsFirstChangeOnly = options.gapsFirstChangeOnly ?? true;
  const lastRealizedPrice = realizedPrices[realizedPrices.length - 1];
  const members = new Float64Array(pathCount);
  let total = 0;
  for (const [name, seconds] of intervals) {
    const isAbsolute = name.endsWith("_abs");
    const isGap = gapsFirstChangeOnly && name.endsWith("_gaps");
    let steps = Math.trunc(seconds / timeIncrementSeconds);
    // the realized grid (points 0, k, 2k, …) has one point while its length is at most k
    if (isAbsolute) while (realizedPrices.length <= steps && steps > 1) steps -= 1;
    const realizedChanges = intervalChanges(realizedPrices, steps, isAbsolute, isGap);
    const changeCount = gridChangeCount(pointCount, steps, isGap);
    const hasObservedChange = realizedChanges.some((change) => !Number.isNaN(change));
    if (hasObservedChange && changeCount !== realizedChanges.length) return -1;
    let crpsSum = 0;
    for (let position = 0; position < realizedChanges.length; position++) {
      const observation = realizedChanges[position];
      if (Number.isNaN(observation)) continue;
      const to = (position + 1) * steps;
      for (let path = 0, offset = 0; path < pathCount; path++, offset += pointCount) {
        if (isAbsolute) {
          members[path] = values[offset + to];
        } else {
          const from = values[offset + position * steps];
          members[path] = ((values[offset + to] - from) / from) * 10000;
        }
      }
      let term = crpsProperscoringSorted(members.sort(), observation);
      if (isAbsolute) term = (term / lastRealizedPrice) * 10000;
      crpsSum += term;
    }
    total += crpsSum;
  }
  if (!Number.isFinite(total)) return -1;
  return volatilityAdded(total, paths, realizedPrices, timeIncrementSeconds, options);
}

/**
 * The price score plus, when `options.volatility` asks for it and the price score is not −1, the
 * reference volatility CRPS (as `promptCrpsDetails`: a price sum of exactly −1 counts as −1).
 */
function volatilityAdded(
  priceScore: number,
  paths: PathValues,
  realizedPrices: readonly number[],
  timeIncrementSeconds: number,
  options: PromptCrpsOptions,
): number {
  if (options.volatility !== true || priceScore === -1) return priceScore;
  const rows = pathRows(paths.values, paths.pathCount, paths.pointCount);
  const volatility = volatilityCrpsDetails(rows, realizedPrices, timeIncrementSeconds).score;
  if (volatility === -1) return -1;
  const total = priceScore + volatility;
  return Number.isFinite(total) ? total : -1;
}

/** Changes per path of an interval of `steps` points over `pointCount` points (grid length − 1). */
function gridChangeCount(pointCount: number, steps: number, isGap: boolean): number {
  const gridLength = Math.ceil(pointCount / steps);
  return Math.max(0, (isGap ? Math.min(gridLength, 2) : gridLength) - 1);
}
