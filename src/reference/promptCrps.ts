/**
 * The validator's prompt CRPS (the validator's CRPS and its dated rules): one miner's simulated paths scored against the
 * realized path over every scoring interval, plus, for crypto-1h prompts of the era that has it,
 * the volatility CRPS. Follows `calculate_crps_for_miner` (and `calculate_total_score_for_miner`)
 * of the validator step by step, with the per-term CRPS from {@link crpsProperscoring}
 * (properscoring's own loop).
 */

import { crpsProperscoring } from "./crps.ts";
import { requirePathMatrix, requireScoringIntervals } from "./validate.ts";
import { volatilityCrpsDetails, type VolatilityCrpsDetails } from "./volatilityCrps.ts";

/**
 * The validator rules of {@link promptCrpsDetails} that changed over time (the validator's dated rules); the
 * defaults are the current price rules without the volatility CRPS.
 * @example const before: PromptCrpsOptions = { gapsFirstChangeOnly: false }; // a 1h prompt before 2026-03-11
 */
export interface PromptCrpsOptions {
  /**
   * Whether the volatility CRPS ({@link volatilityCrpsDetails}, crypto-1h blocks) is added to the
   * price CRPS; default false.
   */
  readonly volatility?: boolean;
  /**
   * Whether `_gaps` intervals keep only their first change (the validator from 2026-03-11, and
   * the default); false scores them as ordinary intervals, as the validator did before (its
   * suffix test never matched).
   */
  readonly gapsFirstChangeOnly?: boolean;
}

/**
 * CRPS of one scoring interval of a prompt.
 * @example promptCrpsDetails(paths, realized, 300, SCORING_INTERVALS_24H).intervals[0].termCount // => 288
 */
export interface IntervalCrps {
  /** Interval name, e.g. `5min`, `24hour_abs`, `0_10min_gaps`. */
  readonly name: string;
  /** Grid spacing in points actually used (for `_abs`, after the reduction for short paths). */
  readonly intervalSteps: number;
  /** Number of CRPS terms scored (realized changes that are not NaN). */
  readonly termCount: number;
  /** Sum of the interval's CRPS terms (`_abs` terms already normalized). */
  readonly crpsSum: number;
}

/**
 * A prompt CRPS with its parts, as returned by {@link promptCrpsDetails}.
 * @example promptCrpsDetails(paths, realized, 60, SCORING_INTERVALS_1H).score // => the prompt CRPS, or −1
 */
export interface PromptCrpsDetails {
  /**
   * The prompt CRPS: the price CRPS plus, when asked for, the volatility CRPS; −1 when the
   * validator would give −1.
   */
  readonly score: number;
  /** Why the score is −1; `undefined` for a valid score. */
  readonly invalidReason: string | undefined;
  /** The price CRPS alone (plain sum over intervals, −1 by the same rules), before the volatility part. */
  readonly priceScore: number;
  /** Per-interval sums, in the order of the intervals (empty when invalid before scoring). */
  readonly intervals: IntervalCrps[];
  /**
   * The volatility CRPS and its block sizes; `undefined` when it was not asked for, or when the
   * price CRPS is −1 (the validator then does not compute it).
   */
  readonly volatility: VolatilityCrpsDetails | undefined;
}

/**
 * The validator's prompt CRPS of one miner: see {@link promptCrpsDetails}; this returns its score.
 * @example promptCrps(paths, realized, 300, SCORING_INTERVALS_24H) // => e.g. 1234.5, or −1
 */
export function promptCrps(
  simulatedPaths: readonly (readonly number[])[],
  realizedPrices: readonly number[],
  timeIncrementSeconds: number,
  scoringIntervals: Readonly<Record<string, number>>,
  options: PromptCrpsOptions = {},
): number {
  return promptCrpsDetails(
    simulatedPaths,
    realizedPrices,
    timeIncrementSeconds,
    scoringIntervals,
    options,
  ).score;
}

/**
 * The validator's prompt CRPS of one miner, with per-interval sums. For each interval
 * (name → seconds), k = trunc(seconds / timeIncrementSeconds) points:
 * 1. Grid: points 0, k, 2k, … of every simulated path and of the realized path.
 * 2. Changes: regular interval: basis-point simple returns (p[j+1] − p[j]) / p[j] × 10000 between
 *    consecutive grid points; `_gaps`: only the first two grid points (one change; with
 *    `gapsFirstChangeOnly: false`, as a regular interval); `_abs`: the raw
 *    grid prices from grid point 1 on, where, if the realized grid has a single point, k is
 *    decreased until it has two (this uses the realized path's length, which matters only when the
 *    realized path is shorter than the simulations).
 * 3. Realized changes that are NaN are skipped. (The validator scores consecutive observed runs as
 *    blocks; for a plain sum that changes nothing.)
 * 4. Each remaining realized change y is scored against the simulated changes at the same grid
 *    position with {@link crpsProperscoring}.
 * 5. `_abs` terms are divided by the last realized price (the last point of `realizedPrices`) and
 *    multiplied by 10000.
 * 6. Price score = plain sum over intervals and terms (0 when there are no intervals).
 * 7. With `volatility: true`, when the price score is not −1: score = price score +
 *    {@link volatilityCrpsDetails} (crypto-1h blocks), −1 when that is −1.
 * The price score is −1 when: a simulated price equals 0 (validator: "Zero price encountered"); a
 * simulated price is not finite (choice: the validator's format check rejects such a submission
 * before scoring, so its score is −1 there too); `realizedPrices` is empty; the realized and
 * simulated grids give different numbers of changes for an interval with an observed change (the
 * validator's numpy boolean mask raises, and it scores the miner −1); or the total is not finite
 * (e.g. the last realized price is NaN or 0 while an `_abs` term is observed). The score is −1
 * when the price score or the volatility CRPS is −1, or the total is not finite.
 * Floating point: each term equals properscoring's bit for bit; sums are sequential (numpy sums a
 * block pairwise), so totals agree with the validator to ~1e-14 relative, not bit for bit.
 * Complexity O(intervals × terms × M log M) for M paths.
 * Throws `RangeError` for ragged or empty paths, a non-positive time increment, or an interval
 * shorter than one time increment.
 * @example promptCrpsDetails(paths, realized, 300, SCORING_INTERVALS_24H).intervals.length // => 4
 */
export function promptCrpsDetails(
  simulatedPaths: readonly (readonly number[])[],
  realizedPrices: readonly number[],
  timeIncrementSeconds: number,
  scoringIntervals: Readonly<Record<string, number>>,
  options: PromptCrpsOptions = {},
): PromptCrpsDetails {
  const price = priceCrpsDetails(
    simulatedPaths,
    realizedPrices,
    timeIncrementSeconds,
    scoringIntervals,
    options.gapsFirstChangeOnly ?? true,
  );
  const priceScore = price.score;
  if (options.volatility !== true || priceScore === -1) {
    return { ...price, priceScore, volatility: undefined };
  }
  const volatility = volatilityCrpsDetails(simulatedPaths, realizedPrices, timeIncrementSeconds);
  const total = priceScore + volatility.score;
  const invalidReason =
    volatility.score === -1
      ? volatility.invalidReason
      : Number.isFinite(total)
        ? undefined
        : `non-finite total CRPS ${total}`;
  return {
    score: invalidReason === undefined ? total : -1,
    invalidReason,
    priceScore,
    intervals: price.intervals,
    volatility,
  };
}

/** The price part of {@link promptCrpsDetails}: steps 1–6 and their −1 rules. */
function priceCrpsDetails(
  simulatedPaths: readonly (readonly number[])[],
  realizedPrices: readonly number[],
  timeIncrementSeconds: number,
  scoringIntervals: Readonly<Record<string, number>>,
  gapsFirstChangeOnly: boolean,
): Pick<PromptCrpsDetails, "score" | "invalidReason" | "intervals"> {
  requirePathMatrix("promptCrpsDetails", simulatedPaths);
  const intervalEntries = requireScoringIntervals(
    "promptCrpsDetails",
    timeIncrementSeconds,
    scoringIntervals,
  );
  const invalid = (reason: string) => ({
    score: -1,
    invalidReason: reason,
    intervals: [],
  });
  if (realizedPrices.length === 0) return invalid("no realized prices");
  if (intervalEntries.length === 0) return { score: 0, invalidReason: undefined, intervals: [] };
  for (const path of simulatedPaths) {
    for (const price of path) {
      if (price === 0) return invalid("zero price encountered in simulation runs");
      if (!Number.isFinite(price)) return invalid(`non-finite simulated price ${price}`);
    }
  }

  const lastRealizedPrice = realizedPrices[realizedPrices.length - 1];
  const intervals: IntervalCrps[] = [];
  let total = 0;
  for (const [name, seconds] of intervalEntries) {
    const isAbsolute = name.endsWith("_abs");
    const isGap = gapsFirstChangeOnly && name.endsWith("_gaps");
    let intervalSteps = Math.trunc(seconds / timeIncrementSeconds);
    if (isAbsolute) {
      while (gridPrices(realizedPrices, intervalSteps).length === 1 && intervalSteps > 1) {
        intervalSteps -= 1;
      }
    }
    const realizedChanges = intervalChanges(realizedPrices, intervalSteps, isAbsolute, isGap);
    const simulatedChanges = simulatedPaths.map((path) =>
      intervalChanges(path, intervalSteps, isAbsolute, isGap),
    );
    const hasObservedChange = realizedChanges.some((change) => !Number.isNaN(change));
    if (hasObservedChange && simulatedChanges[0].length !== realizedChanges.length) {
      return invalid(
        `interval "${name}": ${realizedChanges.length} realized changes against ${simulatedChanges[0].length} simulated changes per path`,
      );
    }
    let crpsSum = 0;
    let termCount = 0;
    const members = new Float64Array(simulatedChanges.length);
    for (let position = 0; position < realizedChanges.length; position++) {
      const observation = realizedChanges[position];
      if (Number.isNaN(observation)) continue;
      for (let path = 0; path < members.length; path++) {
        members[path] = simulatedChanges[path][position];
      }
      let term = crpsProperscoring(members, observation);
      if (isAbsolute) term = (term / lastRealizedPrice) * 10000;
      crpsSum += term;
      termCount += 1;
    }
    intervals.push({ name, intervalSteps, termCount, crpsSum });
    total += crpsSum;
  }
  if (!Number.isFinite(total)) {
    return { score: -1, invalidReason: `non-finite total CRPS ${total}`, intervals };
  }
  return { score: total, invalidReason: undefined, intervals };
}

/** Points 0, k, 2k, … of `prices` (numpy `prices[::k]`). */
function gridPrices(prices: readonly number[], intervalSteps: number): number[] {
  const grid: number[] = [];
  for (let index = 0; index < prices.length; index += intervalSteps) grid.push(prices[index]);
  return grid;
}

/**
 * The validator's `calculate_price_changes_over_intervals` for one path: the changes between the
 * grid points 0, k, 2k, … of `prices` (basis points; `_abs`: the grid prices from point 1 on;
 * `_gaps`: the first change only).
 * @example intervalChanges([100, 101, 102], 1, false, false) // => [100, 99.0099…]
 */
export function intervalChanges(
  prices: readonly number[],
  intervalSteps: number,
  isAbsolute: boolean,
  isGap: boolean,
): number[] {
  let grid = gridPrices(prices, intervalSteps);
  if (isGap) grid = grid.slice(0, 2);
  if (isAbsolute) return grid.slice(1);
  const changes: number[] = [];
  for (let j = 0; j + 1 < grid.length; j++) {
    changes.push(((grid[j + 1] - grid[j]) / grid[j]) * 10000);
  }
  return changes;
}
