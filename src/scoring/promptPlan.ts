/**
 * The part of a prompt's scoring that depends only on the realized path: per interval its grid
 * spacing, its realized terms and whether they line up with the simulated ones; per block size of
 * the volatility CRPS, when the prompt has one, the realized block volatilities. Made once per
 * prompt and shared by every miner (and every worker thread: it is plain, cloneable data).
 */

import { blockVolatilities } from "../core/blockVolatility.ts";
import { intervalChanges, intervalTermCount, type IntervalKind } from "../core/crpsIntervals.ts";
import { requirePositiveInteger } from "../core/entryChecks.ts";
import type { VolatilityBlock } from "../domain/intervals.ts";

/**
 * One scoring interval of a {@link PromptPlan}.
 * @example planPrompt(realized, { timeIncrement: 300, nPoints: 289, intervals }).intervals[0].kind // => "returns"
 */
export interface PlannedInterval {
  /** Interval name, e.g. `5min`, `24hour_abs`, `0_10min_gaps`. */
  readonly name: string;
  /**
   * How its terms are formed: from the name's suffix (`_abs`, `_gaps`, otherwise returns); a
   * `_gaps` interval is `"returns"` under the rule before 2026-03-11 (`gapsFirstChangeOnly` false).
   */
  readonly kind: IntervalKind;
  /** Grid spacing in points: ⌊seconds / timeIncrement⌋, for `_abs` reduced on short realized paths. */
  readonly stepsPerInterval: number;
  /**
   * The realized terms, one per simulated term (NaN = missing, skipped). All NaN when the realized
   * path gives another number of terms but none of them is observed (the validator adds nothing).
   */
  readonly realizedTerms: Float64Array;
  /** How many realized terms are observed (not NaN): the terms the interval's CRPS adds up. */
  readonly observedTerms: number;
}

/**
 * One block size of the volatility CRPS of a {@link PromptPlan} (the validator's dated rules).
 * @example planPrompt(realized, { timeIncrement: 60, nPoints: 61, intervals, volatilityBlocks: VOLATILITY_BLOCKS_1H }).volatility?.[2].stepsPerBlock // => 5
 */
export interface PlannedVolatilityBlock {
  /** Block size name, e.g. `vol_15min`. */
  readonly name: string;
  /** Returns per block: ⌊seconds / timeIncrement⌋. */
  readonly stepsPerBlock: number;
  /** Factor of the sum of the size's block CRPS in the prompt CRPS. */
  readonly weight: number;
  /**
   * The realized volatility of each block of the simulated paths (⌊(nPoints − 1)/stepsPerBlock⌋
   * blocks), NaN where it is not observed (fewer than 2 observed returns) or where the realized
   * path has no such block: those blocks are skipped.
   */
  readonly realizedVolatilities: Float64Array;
  /** How many blocks are observed: the blocks the size's CRPS adds up. */
  readonly observedBlocks: number;
}

/**
 * A prompt prepared for scoring, as {@link planPrompt} makes it.
 * @example planPrompt(realized, { timeIncrement: 60, nPoints: 61, intervals: SCORING_INTERVALS_1H }).intervals.length // => 18
 */
export interface PromptPlan {
  /** Seconds between points of the simulated and realized paths. */
  readonly timeIncrement: number;
  /** Points per simulated path (289 for 24h prompts, 61 for 1h prompts). */
  readonly nPoints: number;
  /** The intervals, in the validator's order. */
  readonly intervals: readonly PlannedInterval[];
  /** Whether `_gaps` intervals keep only their first change (the rule from 2026-03-11). */
  readonly gapsFirstChangeOnly: boolean;
  /**
   * The volatility CRPS's block sizes, in the validator's order, or `undefined` when the prompt
   * CRPS has no volatility part.
   */
  readonly volatility: readonly PlannedVolatilityBlock[] | undefined;
  /** The last realized price: `_abs` terms are divided by it and multiplied by 10,000. */
  readonly absoluteReference: number;
  /** Set when the realized path is empty: every miner scores −1 before its prices are read. */
  readonly realizedMissingReason: string | undefined;
  /**
   * Set when an interval's realized and simulated term counts differ while one of its realized
   * terms is observed (the validator's mask fails and it scores −1): every miner whose prices pass
   * the zero and finiteness checks scores −1.
   */
  readonly mismatchReason: string | undefined;
  /**
   * Set when an observed realized volatility block has no simulated counterpart (a realized path
   * longer than the simulations: the validator's index fails and it scores −1): every miner whose
   * price CRPS is not −1 scores −1.
   */
  readonly volatilityMismatchReason: string | undefined;
}

/**
 * What {@link planPrompt} needs besides the realized prices.
 * @example const shape: PromptShape = { timeIncrement: 300, nPoints: 289, intervals: SCORING_INTERVALS_24H };
 */
export interface PromptShape {
  /** Seconds between points (300 for 24h prompts, 60 for 1h prompts). */
  readonly timeIncrement: number;
  /** Points per simulated path, point 0 included. */
  readonly nPoints: number;
  /** Scoring intervals, name → seconds, in the validator's order. */
  readonly intervals: Readonly<Record<string, number>>;
  /**
   * Whether `_gaps` intervals keep only their first change (default true, the validator from
   * 2026-03-11); false scores them as ordinary intervals, as the validator did before.
   */
  readonly gapsFirstChangeOnly?: boolean;
  /**
   * The volatility CRPS's block sizes (name → seconds and weight; crypto-1h:
   * `VOLATILITY_BLOCKS_1H`), or `undefined` (default) for a prompt CRPS without volatility part.
   */
  readonly volatilityBlocks?: Readonly<Record<string, VolatilityBlock>>;
}

/**
 * The kind of an interval from its name: `_abs` → `"absolute"`, `_gaps` → `"gaps"`, otherwise
 * `"returns"` (the validator's CRPS).
 * @param name - the interval's name, e.g. `0_5min_gaps`.
 * @example intervalKindOf("0_5min_gaps") // => "gaps"
 */
export function intervalKindOf(name: string): IntervalKind {
  return name.endsWith("_abs") ? "absolute" : name.endsWith("_gaps") ? "gaps" : "returns";
}

/**
 * Prepares a prompt for scoring from its realized prices (NaN = missing), as the validator's
 * `calculate_crps_for_miner` treats the realized side: for each interval, k = trunc(seconds /
 * timeIncrement) points; for `_abs`, while the realized grid p[0], p[k], … has a single point and
 * k > 1, k decreases by one; the realized terms are formed on that grid (core
 * {@link intervalChanges}); the simulated paths give ⌊(nPoints − 1)/k⌋ terms (one for `_gaps`).
 * Counts that differ make the plan invalid ({@link PromptPlan.mismatchReason}) when a realized term
 * is observed, and make the interval add nothing otherwise. With `gapsFirstChangeOnly: false`,
 * `_gaps` intervals are planned as returns intervals. With `volatilityBlocks`, per block size
 * (k = ⌊seconds / timeIncrement⌋ returns per block) the realized block volatilities (core
 * `blockVolatilities`), lined up with the simulated paths' blocks; an observed realized block
 * beyond them sets {@link PromptPlan.volatilityMismatchReason}. Same rules, in the same order, as
 * `src/reference/promptCrps.ts` and `src/reference/volatilityCrps.ts`.
 * Throws `RangeError` for a non-positive time increment, a point count that is not a positive
 * integer, or an interval or volatility block shorter than one time increment.
 * @param realizedPrices - the realized price at each point of the prompt, NaN where missing.
 * @param shape - the time increment, points per path, intervals, and the volatility blocks and gap
 *   rule when they apply.
 * @example
 * const plan = planPrompt(Float64Array.of(100, 101, NaN, 103), {
 *   timeIncrement: 60, nPoints: 4, intervals: { "1min": 60, "3min_abs": 180 },
 * }); // plan.intervals[0].observedTerms => 1
 */
export function planPrompt(realizedPrices: Float64Array, shape: PromptShape): PromptPlan {
  const { timeIncrement, nPoints, intervals } = shape;
  const gapsFirstChangeOnly = shape.gapsFirstChangeOnly ?? true;
  if (!(timeIncrement > 0 && timeIncrement < Infinity)) {
    throw new RangeError(`planPrompt requires a positive timeIncrement, got ${timeIncrement}`);
  }
  requirePositiveInteger("planPrompt", "nPoints", nPoints);
  const entries = Object.entries(intervals);
  for (const [name, seconds] of entries) {
    if (!(Math.trunc(seconds / timeIncrement) >= 1)) {
      throw new RangeError(
        `planPrompt requires every interval to span at least one time increment: interval "${name}" is ${seconds} s with ${timeIncrement} s steps`,
      );
    }
  }
  const volatilityEntries =
    shape.volatilityBlocks === undefined ? undefined : Object.entries(shape.volatilityBlocks);
  for (const [name, { seconds }] of volatilityEntries ?? []) {
    if (!(Math.trunc(seconds / timeIncrement) >= 1)) {
      throw new RangeError(
        `planPrompt requires every volatility block to span at least one time increment: block "${name}" is ${seconds} s with ${timeIncrement} s steps`,
      );
    }
  }
  const realizedLength = realizedPrices.length;
  if (realizedLength === 0) {
    return {
      timeIncrement,
      nPoints,
      intervals: [],
      gapsFirstChangeOnly,
      volatility: volatilityEntries === undefined ? undefined : [],
      absoluteReference: NaN,
      realizedMissingReason: "no realized prices",
      mismatchReason: undefined,
      volatilityMismatchReason: undefined,
    };
  }
  const planned: PlannedInterval[] = [];
  let mismatchReason: string | undefined;
  for (const [name, seconds] of entries) {
    const suffixKind = intervalKindOf(name);
    const kind = suffixKind === "gaps" && !gapsFirstChangeOnly ? "returns" : suffixKind;
    let stepsPerInterval = Math.trunc(seconds / timeIncrement);
    if (kind === "absolute") {
      while (Math.floor((realizedLength - 1) / stepsPerInterval) === 0 && stepsPerInterval > 1) {
        stepsPerInterval -= 1;
      }
    }
    const simulatedCount = intervalTermCount(nPoints, stepsPerInterval, kind);
    let realizedTerms = intervalChanges(realizedPrices, stepsPerInterval, kind);
    let observedTerms = 0;
    for (let term = 0; term < realizedTerms.length; term++) {
      if (realizedTerms[term] === realizedTerms[term]) observedTerms++;
    }
    if (realizedTerms.length !== simulatedCount) {
      if (observedTerms > 0 && mismatchReason === undefined) {
        mismatchReason = `interval "${name}": ${realizedTerms.length} realized changes against ${simulatedCount} simulated changes per path`;
      }
      realizedTerms = new Float64Array(simulatedCount).fill(NaN);
      observedTerms = 0;
    }
    planned.push({ name, kind, stepsPerInterval, realizedTerms, observedTerms });
  }
  let volatility: PlannedVolatilityBlock[] | undefined;
  let volatilityMismatchReason: string | undefined;
  if (volatilityEntries !== undefined) {
    volatility = [];
    for (const [name, { seconds, weight }] of volatilityEntries) {
      const stepsPerBlock = Math.trunc(seconds / timeIncrement);
      const realized = blockVolatilities(realizedPrices, stepsPerBlock);
      const simulatedBlocks = Math.floor((nPoints - 1) / stepsPerBlock);
      const realizedVolatilities = new Float64Array(simulatedBlocks).fill(NaN);
      let observedBlocks = 0;
      for (let block = 0; block < realized.length; block++) {
        const observation = realized[block];
        if (observation !== observation) continue;
        if (block >= simulatedBlocks) {
          volatilityMismatchReason ??= `volatility block size "${name}": ${realized.length} realized blocks against ${simulatedBlocks} simulated blocks per path`;
          continue;
        }
        realizedVolatilities[block] = observation;
        observedBlocks++;
      }
      volatility.push({ name, stepsPerBlock, weight, realizedVolatilities, observedBlocks });
    }
  }
  return {
    timeIncrement,
    nPoints,
    intervals: planned,
    gapsFirstChangeOnly,
    volatility,
    absoluteReference: realizedPrices[realizedLength - 1],
    realizedMissingReason: undefined,
    mismatchReason,
    volatilityMismatchReason,
  };
}
