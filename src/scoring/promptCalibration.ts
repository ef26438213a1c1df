/**
 * Calibration of one miner's path set on one prompt: where each realized price falls in the
 * ensemble (PIT), whether the central intervals cover it, how wide they are, and the CRPS at each
 * step. What CRPS alone hides: a miner can score well while being over- or under-dispersed.
 */

import { requirePositiveInteger } from "../core/entryChecks.ts";
import { quantileSorted } from "../core/quantiles.ts";
import { countAtMostSorted, countBelowSorted } from "../core/sortedCounts.ts";
import type { PathSet } from "../paths/pathSet.ts";
import type { RealizedPath } from "../domain/records/validation.ts";
import { firstPriceProblem } from "./gatherTerms.ts";
import { checkRealizedMatches, realizedPricesOf } from "./realizedPrices.ts";
import { sortAndScoreMembers } from "./sortMembers.ts";

/**
 * The central-interval coverage levels reported by default: 50, 80, 90 and 98 %.
 * @example COVERAGE_LEVELS // => [0.5, 0.8, 0.9, 0.98]
 */
export const COVERAGE_LEVELS: readonly number[] = Object.freeze([0.5, 0.8, 0.9, 0.98]);

/**
 * The number of bins of the PIT histogram by default.
 * @example PIT_BINS // => 10
 */
export const PIT_BINS = 10;

/**
 * How a realized price tied with ensemble members gets its PIT: `"randomized"` (default) places it
 * uniformly at random among the tied members and within its rank cell, so that a calibrated
 * ensemble gives exactly uniform PITs even with ties; `"mid-rank"` places it in the middle,
 * deterministic but piling tied observations up in the middle bins.
 * @example const ties: PitTies = "mid-rank";
 */
export type PitTies = "randomized" | "mid-rank";

/**
 * Options of {@link promptCalibration}.
 * @example const options: CalibrationOptions = { levels: [0.5, 0.9], bins: 20, ties: "mid-rank" };
 */
export interface CalibrationOptions {
  /** Central-interval levels in (0, 1); default {@link COVERAGE_LEVELS}. */
  readonly levels?: readonly number[];
  /** PIT histogram bins (a positive integer); default {@link PIT_BINS}. */
  readonly bins?: number;
  /** Tie handling of the PIT; default `"randomized"`. */
  readonly ties?: PitTies;
  /**
   * Seed of the randomized PIT (default 0). The stream is seeded from it, the miner and the
   * prompt's start, so the same inputs always give the same PITs (reruns are idempotent).
   */
  readonly seed?: number;
}

/**
 * What {@link calibrationOfValues} needs beside the paths: the realized prices, the row's identity,
 * and the options of {@link promptCalibration}.
 * @example const options: CalibrationOfValuesOptions = { realizedPrices, identity: pathSet, ties: "mid-rank" };
 */
export interface CalibrationOfValuesOptions extends CalibrationOptions {
  /** The realized price at each point, NaN where missing; points beyond its length are missing. */
  readonly realizedPrices: Float64Array;
  /** The miner, asset, start time and time increment the row names. */
  readonly identity: Pick<PathSet, "minerUid" | "asset" | "startTime" | "timeIncrement">;
}

/**
 * One miner's calibration on one prompt: counts and sums that add up over prompts
 * ({@link CalibrationAccumulator}), in plain arrays so that a row stores as JSON.
 * @example promptCalibration(pathSet, realized)?.pitCounts // => 10 counts adding up to observedPoints
 */
export interface PromptCalibration {
  readonly minerUid: number;
  readonly asset: string;
  /** `24h`, `1h`, or the path length in seconds (`7200s`) for other prompts. */
  readonly horizon: string;
  /** The prompt's start, Unix seconds. */
  readonly startTime: number;
  /** Paths in the ensemble. */
  readonly nPaths: number;
  /** Realized points scored: steps 1 … nPoints − 1 whose realized price is present. */
  readonly observedPoints: number;
  /** PIT histogram: how many observed points fell in each of `bins` equal bins of [0, 1]. */
  readonly pitCounts: number[];
  /** The central-interval levels, e.g. [0.5, 0.8, 0.9, 0.98]. */
  readonly levels: number[];
  /** Per level, observed points inside [q((1 − level)/2), q((1 + level)/2)] (bounds included). */
  readonly coveredCounts: number[];
  /** Per level, Σ over observed points of the interval width (price units). */
  readonly widthSums: number[];
  /** Per level, Σ over observed points of width / ensemble median × 10,000 (basis points). */
  readonly relativeWidthSumsBps: number[];
  /**
   * CRPS of the price at each step t = 1 … nPoints − 1 (index t − 1) against the realized price,
   * divided by it and × 10,000 (basis points, as the validator normalizes `_abs`); NaN where the
   * realized price is missing.
   */
  readonly stepCrpsBps: number[];
}

/**
 * Calibration of one miner's path set against the realized path of its prompt (PIT histogram,
 * central-interval coverage and widths, CRPS per step), at every step t ≥ 1 whose realized price
 * is present (point 0 is the start, known to everyone).
 * - PIT: with M members, b members below the realized price y and e equal to it, the rank r of y
 *   is b plus, for ties, a uniform draw from 0 … e (`"randomized"`), and PIT = (r + U)/(M + 1) with
 *   U uniform in [0, 1); `"mid-rank"` uses (b + e/2 + ½)/(M + 1). A calibrated ensemble gives
 *   uniform PITs; an under-dispersed one piles them into the end bins, an over-dispersed one into
 *   the middle.
 * - Coverage: the central interval of level ℓ runs from the (1 − ℓ)/2 to the (1 + ℓ)/2 quantile of
 *   the step's members (R-7, numpy linear), bounds included. Sharpness: its width.
 * - Step CRPS: the ensemble CRPS of the step's prices (closed form, as properscoring).
 * Returns `undefined` when a simulated price is 0 or not finite (the validator scores such a miner
 * −1; its calibration means nothing). Cost: one sort of the members per step, O(steps × M).
 * Throws `RangeError` when the realized path belongs to another prompt, or for invalid options.
 * @param pathSet - the miner's path set.
 * @param realized - the realized path of the same prompt.
 * @param options - the coverage levels, PIT bins, tie rule and seed; see each field's default.
 * @example promptCalibration(pathSet, realized, { ties: "mid-rank" })?.coveredCounts
 */
export function promptCalibration(
  pathSet: PathSet,
  realized: RealizedPath,
  options: CalibrationOptions = {},
): PromptCalibration | undefined {
  checkRealizedMatches("promptCalibration", pathSet, realized);
  return calibrationOfValues(pathSet.values, pathSet.nPaths, pathSet.nPoints, {
    ...options,
    realizedPrices: realizedPricesOf(realized),
    identity: pathSet,
  });
}

/**
 * {@link promptCalibration} on raw arrays: path-major `values` (`nPaths` × `nPoints`) and the
 * realized prices (NaN = missing; points beyond its length count as missing). Used by the
 * scoring workers.
 * @param values - the miner's paths, path-major: `nPaths` × `nPoints` prices.
 * @param nPaths - the number of paths, ≥ 1.
 * @param nPoints - points per path.
 * @param options - the realized prices, the row's identity, and {@link promptCalibration}'s
 *   options.
 * @example calibrationOfValues(pathSet.values, 1000, 289, { realizedPrices, identity: pathSet })?.observedPoints // => 288
 */
export function calibrationOfValues(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  options: CalibrationOfValuesOptions,
): PromptCalibration | undefined {
  const { realizedPrices, identity } = options;
  const { levels, bins, ties, seed } = checkedOptions(options);
  if (!Number.isInteger(nPaths) || nPaths < 1 || values.length !== nPaths * nPoints) {
    throw new RangeError(
      `promptCalibration requires at least one path and values.length = nPaths × nPoints = ${nPaths} × ${nPoints}, got ${values.length} values`,
    );
  }
  // The check's loop is a function of its own, so that no code follows it (the reason is in
  // core/transpose.ts).
  if (firstPriceProblem(values) >= 0) return undefined;
  const levelCount = levels.length;
  const lowerProbabilities = levels.map((level) => (1 - level) / 2);
  const upperProbabilities = levels.map((level) => (1 + level) / 2);
  const pitCounts = new Array<number>(bins).fill(0);
  const coveredCounts = new Array<number>(levelCount).fill(0);
  const widthSums = new Array<number>(levelCount).fill(0);
  const relativeWidthSumsBps = new Array<number>(levelCount).fill(0);
  const stepCrpsBps = new Array<number>(Math.max(0, nPoints - 1)).fill(NaN);
  const members = new Float64Array(nPaths);
  const sorted = new Float64Array(nPaths);
  const uniform = uniformStream(seed, identity.minerUid, identity.startTime);
  const midRank = ties === "mid-rank";
  let observedPoints = 0;
  for (let step = 1; step < nPoints; step++) {
    const observation = step < realizedPrices.length ? realizedPrices[step] : NaN;
    if (!(observation - observation === 0)) continue;
    let low = Infinity;
    let high = -Infinity;
    for (let path = 0, index = step; path < nPaths; path++, index += nPoints) {
      const member = values[index];
      members[path] = member;
      if (member < low) low = member;
      if (member > high) high = member;
    }
    const crps = sortAndScoreMembers(members, 0, low, high, observation, sorted);
    observedPoints++;
    const below = countBelowSorted(sorted, observation);
    const tied = countAtMostSorted(sorted, observation) - below;
    const pit = midRank
      ? (below + tied / 2 + 0.5) / (nPaths + 1)
      : (below + Math.floor(uniform() * (tied + 1)) + uniform()) / (nPaths + 1);
    pitCounts[Math.min(bins - 1, Math.floor(pit * bins))]++;
    const median = quantileSorted(sorted, 0.5);
    for (let level = 0; level < levelCount; level++) {
      const lower = quantileSorted(sorted, lowerProbabilities[level]);
      const upper = quantileSorted(sorted, upperProbabilities[level]);
      if (lower <= observation && observation <= upper) coveredCounts[level]++;
      widthSums[level] += upper - lower;
      relativeWidthSumsBps[level] += ((upper - lower) / median) * 10000;
    }
    stepCrpsBps[step - 1] = (crps / observation) * 10000;
  }
  return {
    minerUid: identity.minerUid,
    asset: identity.asset,
    horizon: horizonLabel((nPoints - 1) * identity.timeIncrement),
    startTime: identity.startTime,
    nPaths,
    observedPoints,
    pitCounts,
    levels: [...levels],
    coveredCounts,
    widthSums,
    relativeWidthSumsBps,
    stepCrpsBps,
  };
}

/**
 * The horizon label of a path length in seconds: `24h`, `1h`, otherwise `<seconds>s`.
 * @example horizonLabel(86400) // => "24h"
 */
export function horizonLabel(lengthSeconds: number): string {
  if (lengthSeconds === 86400) return "24h";
  if (lengthSeconds === 3600) return "1h";
  return `${lengthSeconds}s`;
}

/** Options with defaults, checked. */
function checkedOptions(options: CalibrationOptions): {
  levels: readonly number[];
  bins: number;
  ties: PitTies;
  seed: number;
} {
  const levels = options.levels ?? COVERAGE_LEVELS;
  for (const level of levels) {
    if (!(level > 0 && level < 1)) {
      throw new RangeError(`promptCalibration requires levels in (0, 1), got ${level}`);
    }
  }
  const bins = options.bins ?? PIT_BINS;
  requirePositiveInteger("promptCalibration", "bins", bins);
  const ties = options.ties ?? "randomized";
  if (ties !== "randomized" && ties !== "mid-rank") {
    throw new RangeError(
      `promptCalibration requires ties "randomized" or "mid-rank", got ${JSON.stringify(ties)}`,
    );
  }
  const seed = options.seed ?? 0;
  if (!Number.isFinite(seed)) {
    throw new RangeError(`promptCalibration requires a finite seed, got ${seed}`);
  }
  return { levels, bins, ties, seed };
}

/**
 * A deterministic stream of uniforms in [0, 1) (mulberry32) seeded from the seed, the miner and
 * the prompt's start.
 */
function uniformStream(seed: number, minerUid: number, startTime: number): () => number {
  let state = Math.imul(Math.trunc(seed) ^ 0x9e3779b9, 0x85ebca6b);
  state = Math.imul(state ^ (Math.trunc(minerUid) + 0x27d4eb2f), 0xc2b2ae35);
  state = Math.imul(state ^ (Math.trunc(startTime) >>> 0), 0x165667b1) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}
