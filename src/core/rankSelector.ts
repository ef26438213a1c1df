/**
 * Order statistics of many equal-length columns at a fixed set of ranks, by histogram selection.
 * Over 100 lines because the method needs its workspace, one hot loop per pass and the fallbacks
 * that keep it exact for any input; the readable form is "sort a copy, read sorted[rank]".
 */

/** The most buckets a column is counted into. */
const MAX_BUCKETS = 4096;
/** The longest column that is counted; longer columns are sorted (O(n log n)). */
const MAX_COUNTED_LENGTH = 16384;
/**
 * The workspace of the counting pass, shared by all selectors: the column (copied in), two
 * bucket-count arrays (one for each element of a pair, so consecutive increments do not wait on
 * each other; only their sum is read), and each bucket's elements as a linked list (HEAD: its
 * last element's index, or −1; NEXT: the index of the element before, or −1). Module-level
 * constants on purpose: V8 embeds constant typed arrays in optimized code; with them
 * stepQuantiles on 10,000 × 289 went from ~17 to ~12 ms (bench/README.md). Safe because `select`
 * runs to completion without calling out.
 */
const COLUMN = new Float64Array(MAX_COUNTED_LENGTH);
const COUNTS = new Int32Array(MAX_BUCKETS);
const COUNTS_ODD = new Int32Array(MAX_BUCKETS);
const HEAD = new Int32Array(MAX_BUCKETS);
const NEXT = new Int32Array(MAX_COUNTED_LENGTH);
/** Below this length a column is copied and sorted: the histogram costs more than it saves. */
const SORT_BELOW_LENGTH = 256;
/** About this many elements are sampled (strided) to set the histogram's value range. */
const SAMPLE_SIZE = 512;

/**
 * Selects the values at fixed ranks (0-based positions in ascending order) of columns of one
 * length, reusing one workspace across columns. Method (a bucket selection): take the range of
 * a strided sample, count the column into ~n/4 equal-width buckets (values outside the sample's
 * range fall into the two end buckets), linking each bucket's elements into a list on the way;
 * find the bucket of each wanted rank from the cumulative counts, copy only those buckets'
 * elements by walking their lists (in column order), and sort those few. The lists replace a
 * second pass over the column (measured ~30 % less time for count and copy on 10,000 × 289;
 * bench/README.md). The bucket map x ↦ ⌊x·scale + shift⌋ is monotone, so the counts are exact
 * for any input; a bad range only makes the copied buckets larger. O(n) per column, one pass.
 * Columns shorter than 256 or longer than 16,384 values, or with infinite values, are sorted
 * instead.
 * Clarity was traded for speed here; the readable form is `sort` then `sorted[rank]`.
 * @example
 * const selector = new RankSelector(5, Int32Array.of(0, 2, 4));
 * const out = new Float64Array(3);
 * selector.select(Float64Array.of(5, 1, 4, 2, 3), out); // => true, out = [1, 3, 5]
 */
export class RankSelector {
  /** The length of every column passed to {@link RankSelector.select}. */
  readonly length: number;
  /** The wanted ranks, ascending and distinct, each in [0, length). */
  readonly ranks: Int32Array;
  private readonly bucketCount: number;
  private readonly slotBucket: Int32Array;
  private readonly slotRankBase: Int32Array;
  private readonly slotBegin: Int32Array;
  private readonly slotEnd: Int32Array;
  private readonly slotOfRank: Int32Array;
  /** The one scratch buffer: copied buckets, or the whole column when it is sorted instead. */
  private readonly scratch: Float64Array;

  /**
   * @param length - the length of every column (≥ 1).
   * @param ranks - ascending, distinct ranks in [0, length).
   * @example new RankSelector(10000, Int32Array.of(49, 50, 4999, 5000))
   */
  constructor(length: number, ranks: Int32Array) {
    if (!Number.isInteger(length) || length < 1) {
      throw new RangeError(`RankSelector requires a column length ≥ 1, got ${length}`);
    }
    for (let index = 0; index < ranks.length; index++) {
      const rank = ranks[index];
      if (rank < 0 || rank >= length || (index > 0 && rank <= ranks[index - 1])) {
        throw new RangeError(
          `RankSelector requires ascending, distinct ranks in [0, ${length}), got ranks[${index}] = ${rank}`,
        );
      }
    }
    this.length = length;
    this.ranks = ranks;
    this.bucketCount = Math.min(MAX_BUCKETS, Math.max(64, length >> 2));
    const slotCapacity = ranks.length + 1;
    this.slotBucket = new Int32Array(slotCapacity);
    this.slotRankBase = new Int32Array(slotCapacity);
    this.slotBegin = new Int32Array(slotCapacity);
    this.slotEnd = new Int32Array(slotCapacity);
    this.slotOfRank = new Int32Array(ranks.length);
    this.scratch = new Float64Array(length);
  }

  /**
   * Writes the values of `column` at the ranks into `out` (`out[i]` is the value of rank
   * `ranks[i]`). Returns false, leaving `out` unspecified, when the column holds a NaN.
   * `column` is only read.
   * @param column - the values to select from, as many as the selector was made for; only read.
   * @param out - where to write, at least one number per rank.
   * @example selector.select(column, out) // => true unless column has a NaN
   */
  select(column: Float64Array, out: Float64Array): boolean {
    const length = this.length;
    if (column.length !== length || out.length < this.ranks.length) {
      throw new RangeError(
        `RankSelector.select requires a column of ${length} values and out of ≥ ${this.ranks.length}, got ${column.length} and ${out.length}`,
      );
    }
    return this.selectAny(column, out);
  }

  private selectAny(column: Float64Array, out: Float64Array): boolean {
    const length = this.length;
    if (length < SORT_BELOW_LENGTH || length > MAX_COUNTED_LENGTH) {
      return this.selectBySort(column, out);
    }
    const stride = Math.max(1, Math.floor(length / SAMPLE_SIZE));
    let low = Infinity;
    let high = -Infinity;
    for (let index = 0; index < length; index += stride) {
      const value = column[index];
      if (value < low) low = value;
      if (value > high) high = value;
      if (value !== value) return false;
    }
    if (!(high - low > 0 && high - low < Infinity)) {
      // Degenerate sample (constant, or infinite values): take the exact range.
      low = Infinity;
      high = -Infinity;
      for (let index = 0; index < length; index++) {
        const value = column[index];
        if (value < low) low = value;
        if (value > high) high = value;
        if (value !== value) return false;
      }
      if (low === high) {
        out.fill(low, 0, this.ranks.length);
        return true;
      }
      if (!(high - low < Infinity)) return this.selectBySort(column, out);
    }
    COLUMN.set(column);
    return this.selectByBuckets(out, low, high);
  }

  private selectBySort(column: Float64Array, out: Float64Array): boolean {
    const scratch = this.scratch;
    scratch.set(column);
    scratch.sort();
    if (scratch[this.length - 1] !== scratch[this.length - 1]) return false;
    for (let index = 0; index < this.ranks.length; index++) out[index] = scratch[this.ranks[index]];
    return true;
  }

  /** Selects from the column copied into COLUMN, whose values lie in [low, high] as sampled. */
  private selectByBuckets(out: Float64Array, low: number, high: number): boolean {
    const length = this.length;
    const bucketCount = this.bucketCount;
    // Buckets 1 … top−1 span [low, high]; 0 and top take what lies outside (and NaN lands in 0).
    const scale = (bucketCount - 2) / (high - low);
    countBuckets(length, bucketCount, scale, 1 - low * scale);
    const slotCount = this.assignSlots();
    const scratch = this.scratch;
    const slotBegin = this.slotBegin;
    const slotEnd = this.slotEnd;
    copyBuckets(scratch, this.slotBucket, slotEnd, slotCount);
    let hasNaN = false;
    for (let index = slotBegin[0]; index < slotEnd[0]; index++) {
      if (scratch[index] !== scratch[index]) hasNaN = true;
    }
    for (let slot = 0; slot < slotCount; slot++) sortRange(scratch, slotBegin[slot], slotEnd[slot]);
    if (hasNaN) return false;
    const ranks = this.ranks;
    const slotOfRank = this.slotOfRank;
    const slotRankBase = this.slotRankBase;
    for (let index = 0; index < ranks.length; index++) {
      const slot = slotOfRank[index];
      out[index] = scratch[slotBegin[slot] + ranks[index] - slotRankBase[slot]];
    }
    return true;
  }

  /** Gives bucket 0 (NaN's bucket) and every bucket holding a wanted rank a copy region. */
  private assignSlots(): number {
    const ranks = this.ranks;
    let slotCount = 0;
    let cumulative = 0;
    let next = 0;
    let offset = 0;
    for (let bucket = 0; next < ranks.length || bucket === 0; bucket++) {
      const count = COUNTS[bucket] + COUNTS_ODD[bucket];
      if (bucket === 0 || ranks[next] < cumulative + count) {
        this.slotBucket[slotCount] = bucket;
        this.slotRankBase[slotCount] = cumulative;
        this.slotBegin[slotCount] = offset;
        offset += count;
        this.slotEnd[slotCount] = offset;
        while (next < ranks.length && ranks[next] < cumulative + count) {
          this.slotOfRank[next++] = slotCount;
        }
        slotCount++;
      }
      cumulative += count;
    }
    return slotCount;
  }
}

/**
 * Counts the first `length` values of COLUMN into COUNTS and COUNTS_ODD (the first and the second
 * of each pair; an odd length's first value alone into COUNTS), bucket x ↦ ⌊x·scale + shift⌋
 * clamped to [0, bucketCount − 1], and links each value
 * into its bucket's list (HEAD, NEXT: the lists run from the last index to the first). The hot
 * loops are plain functions of their own, not methods: a method holding them was compiled
 * on-stack while its later code had no type feedback, and fell back to the interpreter at that
 * code on ~1 call in 80 (a deoptimization loop, seen with --trace-deopt).
 */
function countBuckets(length: number, bucketCount: number, scale: number, shift: number): void {
  const top = bucketCount - 1;
  COUNTS.fill(0, 0, bucketCount);
  COUNTS_ODD.fill(0, 0, bucketCount);
  HEAD.fill(-1, 0, bucketCount);
  let index = 0;
  if (length % 2 === 1) {
    // An odd length: the first value alone, so that no code follows the hot loop below (the
    // reason is in transpose.ts). The lists still run from the last index to the first.
    const position = COLUMN[0] * scale + shift;
    const bucket = position < 0 ? 0 : position > top ? top : position | 0;
    NEXT[0] = HEAD[bucket];
    HEAD[bucket] = 0;
    COUNTS[bucket]++;
    index = 1;
  }
  for (; index + 1 < length; index += 2) {
    const position = COLUMN[index] * scale + shift;
    const bucket = position < 0 ? 0 : position > top ? top : position | 0;
    const positionOdd = COLUMN[index + 1] * scale + shift;
    const bucketOdd = positionOdd < 0 ? 0 : positionOdd > top ? top : positionOdd | 0;
    NEXT[index] = HEAD[bucket];
    HEAD[bucket] = index;
    COUNTS[bucket]++;
    NEXT[index + 1] = HEAD[bucketOdd];
    HEAD[bucketOdd] = index + 1;
    COUNTS_ODD[bucketOdd]++;
  }
}

/**
 * Copies the values of COLUMN in each slot's bucket (`slotBucket`) to `scratch`, filling the
 * slot from its end (`slotEnd`) back to its beginning: the bucket's list runs from the last index
 * to the first, so the slot holds its values in column order.
 */
function copyBuckets(
  scratch: Float64Array,
  slotBucket: Int32Array,
  slotEnd: Int32Array,
  slotCount: number,
): void {
  for (let slot = 0; slot < slotCount; slot++) {
    let at = slotEnd[slot];
    for (let index = HEAD[slotBucket[slot]]; index >= 0; index = NEXT[index]) {
      scratch[--at] = COLUMN[index];
    }
  }
}

/** Sorts `values[begin, end)` ascending in place: insertion sort when short. */
function sortRange(values: Float64Array, begin: number, end: number): void {
  if (end - begin > 32) {
    values.subarray(begin, end).sort();
    return;
  }
  for (let index = begin + 1; index < end; index++) {
    const value = values[index];
    let hole = index - 1;
    while (hole >= begin && values[hole] > value) {
      values[hole + 1] = values[hole];
      hole--;
    }
    values[hole + 1] = value;
  }
}
