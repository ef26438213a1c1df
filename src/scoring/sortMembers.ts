/**
 * Ascending sort of one scoring term's ensemble members within known bounds, and the term's CRPS
 * computed along the way, for prompt scoring, which sorts a thousand members 345 times per miner
 * and prompt (86,250 sorts for a 250-miner 24h prompt).
 */

import { crpsEnsembleSorted } from "../core/crps.ts";
import { KERNEL_SCRATCH, KERNEL_SCRATCH_MEMBERS } from "./kernelScratch.ts";

/** Below this length a typed-array sort is as fast. */
const RADIX_FROM = 64;
/** Up to this length the radix sort runs (its scratch buffers are this long). */
const RADIX_UP_TO = KERNEL_SCRATCH_MEMBERS;
/** Key resolution: values map to 2¹⁶ equal-width cells of [low, high], two 8-bit digits. */
const KEY_TOP = 65535;
/** Insertion moves allowed per element in the final pass before a typed-array sort takes over. */
const MOVES_PER_ELEMENT = 8;
/**
 * Scratch values, keys and digit counts, over this thread's kernel scratch (in a scoring worker,
 * buffers the pool allocated on the calling thread: `kernelScratch.ts`). Module-level constants
 * on purpose: V8 embeds constant typed arrays in optimized code (bench/README.md). Safe because
 * the sort runs to completion without calling out.
 */
const SCRATCH = new Float64Array(KERNEL_SCRATCH.values);
const KEYS = new Uint16Array(KERNEL_SCRATCH.keys);
const SCRATCH_KEYS = new Uint16Array(KERNEL_SCRATCH.scatteredKeys);
/**
 * Per digit value, how many keys have it (zero between sorts: the pass that turns them into start
 * positions clears them, instead of a fill per sort), then where those keys go next.
 */
const LOW_COUNTS = new Int32Array(KERNEL_SCRATCH.lowCounts, 0, 256);
const LOW_STARTS = new Int32Array(KERNEL_SCRATCH.lowCounts, 256 * 4, 256);
const HIGH_COUNTS = new Int32Array(KERNEL_SCRATCH.highCounts, 0, 256);
const HIGH_STARTS = new Int32Array(KERNEL_SCRATCH.highCounts, 256 * 4, 256);
/** What {@link radixScoreWithin} returns when the insertion pass ran out of moves. */
const CROWDED = -Infinity;

/**
 * Sorts the `sorted.length` members `values[from …]` ascending into `sorted` and returns their
 * CRPS for `observation` (the closed form of core's `crpsEnsembleSorted`, as
 * properscoring.crps_ensemble: mean|x − y| − ½·mean|x − x′|; NaN for a NaN observation), given
 * bounds `low` ≤ every member ≤ `high` (pass NaN for `low` when a member is NaN). Tighter bounds
 * give finer keys; bounds over many terms at once are fine while the members spread over a good
 * part of them.
 * Method: the core's two-digit LSD radix sort on the key ⌊(x − low)·65535/(high − low)⌋
 * (monotone in x, no clamping needed), the 16-bit keys computed once and carried through the two
 * scatter passes, then an insertion pass orders the few members sharing a key. The CRPS rides
 * along: the key pass adds up Σ|dᵢ| and Σdᵢ (dᵢ = xᵢ − y), the second scatter Σ pᵢ·dᵢ over the
 * positions pᵢ it gives, and each insertion move corrects that sum (a shifted member moves up one
 * place, the inserted one down by the shift), so that with members ascending
 * ½ΣΣ|xᵢ − xⱼ| = Σ(2i − M − 1)·d₍ᵢ₎ (i from 1) = 2·Σpᵢdᵢ + (1 − M)·Σdᵢ needs no pass of its
 * own (with the row gather of `promptCrpsOfValues`: 4.56 → 3.80 ms per miner and 24h prompt,
 * bench/README.md). Agrees with `crpsEnsembleSorted` of the sorted members to ~1e-15 relative
 * (other summation order).
 * O(M) for smooth data. When members crowd into few keys the insertion pass stops after 8M moves;
 * the sort is then retried once with the members' own range when that is less than half the
 * bounds, and otherwise a typed-array sort finishes and `crpsEnsembleSorted` scores (O(M log M)
 * at worst). NaN, ±Infinity, a zero range, fewer than 64 or more than 8,192 members go to the
 * typed-array sort directly (NaN last, ignored by the CRPS as by properscoring). The readable
 * form of the sort is `sorted.set(values.subarray(from, from + sorted.length)); sorted.sort()`.
 * Throws `RangeError` unless `from` is an index with `sorted.length` members of `values` from it.
 * @example sortAndScoreMembers(Float64Array.of(9, 0, 0, 1), 1, 0, 1, 0, new Float64Array(3)) // => 0.1111… (1/9), sorted [0, 0, 1]
 */
export function sortAndScoreMembers(
  values: Float64Array,
  from: number,
  low: number,
  high: number,
  observation: number,
  sorted: Float64Array,
): number {
  const length = sorted.length;
  if (!(Number.isInteger(from) && from >= 0 && from + length <= values.length)) {
    throw new RangeError(
      `sortAndScoreMembers requires ${length} members from index ${from} of ${values.length} values`,
    );
  }
  const range = high - low;
  if (length >= RADIX_FROM && length <= RADIX_UP_TO && range > 0 && range < Infinity) {
    const crps = radixScoreWithin(values, from, length, low, high, observation, sorted);
    if (crps !== CROWDED) return crps;
    const [ownLow, ownHigh] = rangeOf(values, from, length);
    if (ownHigh - ownLow < range / 2 && ownHigh - ownLow > 0) {
      const retried = radixScoreWithin(values, from, length, ownLow, ownHigh, observation, sorted);
      if (retried !== CROWDED) return retried;
    }
  }
  sorted.set(values.subarray(from, from + length));
  sorted.sort();
  return crpsEnsembleSorted(sorted, observation);
}

/**
 * The radix sort of `values[from, from + length)` into `sorted` and the closed-form CRPS summed
 * on the way; {@link CROWDED} when the insertion pass ran out of moves (`sorted` is then partly
 * sorted).
 */
function radixScoreWithin(
  values: Float64Array,
  from: number,
  length: number,
  low: number,
  high: number,
  observation: number,
  sorted: Float64Array,
): number {
  // low ≤ x ≤ high gives 0 ≤ (x − low)·scale ≤ range·scale, which rounds to at most 65535.00…
  const scale = KEY_TOP / (high - low);
  let absoluteSum = 0;
  let differenceSum = 0;
  for (let index = 0, at = from; index < length; index++, at++) {
    const value = values[at];
    const key = ((value - low) * scale) | 0;
    KEYS[index] = key;
    LOW_COUNTS[key & 255]++;
    HIGH_COUNTS[key >>> 8]++;
    const difference = value - observation;
    absoluteSum += Math.abs(difference);
    differenceSum += difference;
  }
  for (let digit = 0, lowStart = 0, highStart = 0; digit < 256; digit++) {
    LOW_STARTS[digit] = lowStart;
    lowStart += LOW_COUNTS[digit];
    LOW_COUNTS[digit] = 0;
    HIGH_STARTS[digit] = highStart;
    highStart += HIGH_COUNTS[digit];
    HIGH_COUNTS[digit] = 0;
  }
  for (let index = 0, at = from; index < length; index++, at++) {
    const key = KEYS[index];
    const position = LOW_STARTS[key & 255]++;
    SCRATCH[position] = values[at];
    SCRATCH_KEYS[position] = key;
  }
  let weightedSum = 0;
  for (let index = 0; index < length; index++) {
    const position = HIGH_STARTS[SCRATCH_KEYS[index] >>> 8]++;
    const value = SCRATCH[index];
    sorted[position] = value;
    weightedSum += position * (value - observation);
  }
  // The insertion pass, correcting Σ position·d for every move.
  const budget = length * MOVES_PER_ELEMENT;
  let moves = 0;
  let previous = sorted[0];
  for (let index = 1; index < length; index++) {
    const value = sorted[index];
    if (previous <= value) {
      previous = value;
      continue;
    }
    // previous, the largest so far, moves up to index and stays the largest.
    let hole = index - 1;
    let shiftedSum = 0;
    while (hole >= 0 && sorted[hole] > value) {
      shiftedSum += sorted[hole];
      sorted[hole + 1] = sorted[hole];
      hole--;
    }
    sorted[hole + 1] = value;
    const shift = index - 1 - hole;
    weightedSum += shiftedSum - shift * observation - shift * (value - observation);
    moves += shift;
    if (moves > budget) return CROWDED;
  }
  const spread = 2 * weightedSum + (1 - length) * differenceSum;
  return absoluteSum / length - spread / (length * length);
}

/** The smallest and largest of `values[from, from + length)`. */
function rangeOf(values: Float64Array, from: number, length: number): [number, number] {
  let low = Infinity;
  let high = -Infinity;
  for (let index = from; index < from + length; index++) {
    const value = values[index];
    if (value < low) low = value;
    if (value > high) high = value;
  }
  return [low, high];
}
