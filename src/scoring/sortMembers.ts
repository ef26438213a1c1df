/**
 * Ascending sort of one scoring term's ensemble members whose range is already known, for prompt
 * scoring, which sorts a thousand members 345 times per miner and prompt (86,250 sorts for a
 * 250-miner 24h prompt).
 */

import { insertionSortWithin } from "../core/sortFloat64.ts";

/** Below this length a typed-array sort is as fast. */
const RADIX_FROM = 64;
/** Up to this length the radix sort runs (its scratch buffers are this long). */
const RADIX_UP_TO = 8192;
/** Key resolution: values map to 2¹⁶ equal-width cells of [low, high], two 8-bit digits. */
const KEY_TOP = 65535;
/** Insertion moves allowed per element in the final pass before a typed-array sort takes over. */
const MOVES_PER_ELEMENT = 8;
/**
 * Scratch values, keys and digit counts. Module-level constants on purpose: V8 embeds constant
 * typed arrays in optimized code (bench/README.md). Safe because the sort runs to completion
 * without calling out.
 */
const SCRATCH = new Float64Array(RADIX_UP_TO);
const KEYS = new Uint16Array(RADIX_UP_TO);
const SCRATCH_KEYS = new Uint16Array(RADIX_UP_TO);
const LOW_COUNTS = new Int32Array(257);
const HIGH_COUNTS = new Int32Array(257);

/**
 * Writes `values` sorted ascending into `out` (same length, another buffer) and returns `out`,
 * given the smallest value `low` and the largest `high`, which the caller found while gathering
 * the members (pass NaN for `low` when a value is NaN). Method: the core's two-digit LSD radix
 * sort on the key ⌊(x − low)·65535/(high − low)⌋ (monotone in x, no clamping needed), with the
 * 16-bit keys computed once and carried through the two scatter passes instead of recomputed in
 * each (measured ~1.3× faster per miner on 24h prompts, bench/README.md), then an insertion sort
 * orders the few values sharing a key. O(n) for smooth data; when values crowd into few keys the
 * insertion pass stops after 8n moves and a typed-array sort finishes (O(n log n) at worst); NaN,
 * ±Infinity, a zero range, fewer than 64 or more than 8,192 values go to the typed-array sort
 * directly (NaN last). Clarity was traded for speed; the readable form is
 * `out.set(values); out.sort()`.
 * Throws `RangeError` when `out` has another length.
 * @example sortMembersWithin(Float64Array.of(3, 1, 2), 1, 3, new Float64Array(3)) // => [1, 2, 3]
 */
export function sortMembersWithin(
  values: Float64Array,
  low: number,
  high: number,
  out: Float64Array,
): Float64Array {
  const length = values.length;
  if (out.length !== length) {
    throw new RangeError(
      `sortMembersWithin requires out of the same length as values (${length}), got ${out.length}`,
    );
  }
  const range = high - low;
  if (length < RADIX_FROM || length > RADIX_UP_TO || !(range > 0 && range < Infinity)) {
    out.set(values);
    return out.sort();
  }
  // low ≤ x ≤ high gives 0 ≤ (x − low)·scale ≤ range·scale, which rounds to at most 65535.00…
  const scale = KEY_TOP / range;
  LOW_COUNTS.fill(0);
  HIGH_COUNTS.fill(0);
  for (let index = 0; index < length; index++) {
    const key = ((values[index] - low) * scale) | 0;
    KEYS[index] = key;
    LOW_COUNTS[(key & 255) + 1]++;
    HIGH_COUNTS[(key >>> 8) + 1]++;
  }
  for (let digit = 1; digit <= 256; digit++) {
    LOW_COUNTS[digit] += LOW_COUNTS[digit - 1];
    HIGH_COUNTS[digit] += HIGH_COUNTS[digit - 1];
  }
  for (let index = 0; index < length; index++) {
    const key = KEYS[index];
    const at = LOW_COUNTS[key & 255]++;
    SCRATCH[at] = values[index];
    SCRATCH_KEYS[at] = key;
  }
  for (let index = 0; index < length; index++) {
    out[HIGH_COUNTS[SCRATCH_KEYS[index] >>> 8]++] = SCRATCH[index];
  }
  if (!insertionSortWithin(out, length * MOVES_PER_ELEMENT)) out.sort();
  return out;
}
