/**
 * Ascending sort of Float64Arrays by a two-pass radix sort on quantized keys, for the CRPS kernels
 * that sort a thousand members per term.
 */

/** Below this length a plain typed-array sort is as fast. */
const RADIX_FROM = 64;
/**
 * Up to this length the radix sort runs (its scratch buffer is this long); beyond, a typed-array
 * sort. 16,384 covers the 10,000 prices of an ensemble's column (the insights' sorted terminal
 * prices: ~0.1 ms instead of ~0.6 ms with the typed-array sort).
 */
const RADIX_UP_TO = 16384;
/** Key resolution: values map to 2¹⁶ equal-width cells of [min, max], sorted as two 8-bit digits. */
const KEY_TOP = 65535;
/** Insertion moves allowed per element in the final pass before a typed-array sort takes over. */
const MOVES_PER_ELEMENT = 8;
/**
 * Scratch and digit counts. Module-level constants on purpose: V8 embeds constant typed arrays in
 * optimized code, which made the sort ~1.6× faster than with the same arrays in object fields or
 * parameters (bench/README.md). Safe because `sortFloat64` runs to completion without calling out.
 */
const SCRATCH = new Float64Array(RADIX_UP_TO);
const LOW_COUNTS = new Int32Array(257);
const HIGH_COUNTS = new Int32Array(257);

/**
 * Writes `values` sorted ascending into `out` (same length, a different buffer; NaN last, as
 * `Float64Array.prototype.sort`) and returns `out`. Method: a pass for the range; each value gets
 * the key ⌊(x − min)·65535/(max − min)⌋, monotone in x; a stable LSD radix sort on the key's two
 * bytes (one counting pass, two scatter passes, keys recomputed rather than stored); then an
 * insertion sort orders the few values sharing a key. O(n) for smooth data. When values crowd into
 * few keys (outliers stretch the range) the insertion pass stops after 8n moves and a typed-array
 * sort finishes, so O(n log n) at worst; NaN, ±Infinity, fewer than 64 or more than 16,384 values
 * go to the typed-array sort directly. Measured ~5× faster than the typed-array sort on 1,000
 * normal values (bench/README.md). The readable form is `out.set(values); out.sort()`.
 * Throws `RangeError` when `out` has another length.
 * @param values - the values to sort; only read.
 * @param out - where to write them ascending: as many numbers, another buffer than `values`.
 * @example sortFloat64(Float64Array.of(3, 1, 2), new Float64Array(3)) // => [1, 2, 3]
 */
export function sortFloat64(values: Float64Array, out: Float64Array): Float64Array {
  const length = values.length;
  if (out.length !== length) {
    throw new RangeError(
      `sortFloat64 requires out of the same length as values (${length}), got ${out.length}`,
    );
  }
  let low = Infinity;
  let high = -Infinity;
  let hasNaN = false;
  for (let index = 0; index < length; index++) {
    const value = values[index];
    if (value < low) low = value;
    if (value > high) high = value;
    if (value !== value) hasNaN = true;
  }
  if (
    length < RADIX_FROM ||
    length > RADIX_UP_TO ||
    hasNaN ||
    !(high - low > 0 && high - low < Infinity)
  ) {
    out.set(values);
    return out.sort();
  }
  const scale = KEY_TOP / (high - low);
  const shift = -low * scale;
  LOW_COUNTS.fill(0);
  HIGH_COUNTS.fill(0);
  for (let index = 0; index < length; index++) {
    const position = values[index] * scale + shift;
    const key = position < 0 ? 0 : position > KEY_TOP ? KEY_TOP : position | 0;
    LOW_COUNTS[(key & 255) + 1]++;
    HIGH_COUNTS[(key >>> 8) + 1]++;
  }
  for (let digit = 1; digit <= 256; digit++) {
    LOW_COUNTS[digit] += LOW_COUNTS[digit - 1];
    HIGH_COUNTS[digit] += HIGH_COUNTS[digit - 1];
  }
  for (let index = 0; index < length; index++) {
    const value = values[index];
    const position = value * scale + shift;
    const key = position < 0 ? 0 : position > KEY_TOP ? KEY_TOP : position | 0;
    SCRATCH[LOW_COUNTS[key & 255]++] = value;
  }
  for (let index = 0; index < length; index++) {
    const value = SCRATCH[index];
    const position = value * scale + shift;
    const key = position < 0 ? 0 : position > KEY_TOP ? KEY_TOP : position | 0;
    out[HIGH_COUNTS[key >>> 8]++] = value;
  }
  if (!insertionSortWithin(out, length * MOVES_PER_ELEMENT)) out.sort();
  return out;
}

/**
 * Insertion sort of `values` in place, the final pass of the radix sort (`scoring/sortMembers.ts`
 * has its own, which also keeps a CRPS sum up to date); false (partly sorted) once `budget` moves
 * are spent.
 */
function insertionSortWithin(values: Float64Array, budget: number): boolean {
  let moves = 0;
  for (let index = 1; index < values.length; index++) {
    const value = values[index];
    let hole = index - 1;
    if (values[hole] <= value) continue;
    while (hole >= 0 && values[hole] > value) {
      values[hole + 1] = values[hole];
      hole--;
    }
    values[hole + 1] = value;
    moves += index - 1 - hole;
    if (moves > budget) return false;
  }
  return true;
}
