/**
 * CRPS of one ensemble against many observations: sort and prefix-sum the members once, then
 * O(log M) per observation.
 */

import { sortFloat64 } from "./sortFloat64.ts";

/**
 * An ensemble prepared for CRPS against many observations (standard estimator, as
 * properscoring.crps_ensemble). Method: members sorted once, prefix sums Pₖ = Σᵢ₍<ₖ₎(x₍ᵢ₎ − c) around
 * the median c, and the pair term S = Σ(2i − M − 1)·x₍ᵢ₎; per observation y a binary search finds
 * k = #{x < y}, then Σ|x − y| = k·e − Pₖ + (P_M − Pₖ) − (M − k)·e with e = y − c, and
 * CRPS = Σ|x − y|/M − S/M². O(M log M) to prepare, O(log M) per observation.
 * NaN members are ignored (as properscoring); all NaN or a NaN observation gives NaN.
 * @example
 * const prepared = new CrpsPrepared(Float64Array.of(1.2, -0.3, 2.5, 0.7, 1.9));
 * prepared.crps(0.9); // => 0.316
 */
export class CrpsPrepared {
  /** The non-NaN members, ascending. */
  readonly sorted: Float64Array;
  private readonly center: number;
  private readonly prefixSums: Float64Array;
  private readonly pairTerm: number;

  /**
   * Copies and sorts `members`. Throws `RangeError` for no members.
   * @param members - the ensemble members, any order; at least one; copied.
   * @example new CrpsPrepared(Float64Array.of(0, 0, 1))
   */
  constructor(members: Float64Array) {
    if (members.length === 0) {
      throw new RangeError("CrpsPrepared requires at least one member, got none");
    }
    const all = sortFloat64(members, new Float64Array(members.length));
    let memberCount = all.length;
    while (memberCount > 0 && all[memberCount - 1] !== all[memberCount - 1]) memberCount--;
    this.sorted = all.subarray(0, memberCount);
    this.center = memberCount > 0 ? this.sorted[memberCount >> 1] : NaN;
    this.prefixSums = new Float64Array(memberCount + 1);
    let pairTerm = 0;
    for (let index = 0; index < memberCount; index++) {
      const centered = this.sorted[index] - this.center;
      this.prefixSums[index + 1] = this.prefixSums[index] + centered;
      pairTerm += (2 * index + 1 - memberCount) * centered;
    }
    this.pairTerm = pairTerm;
  }

  /**
   * CRPS of the prepared members for `observation`, O(log M).
   * @param observation - the observed value, in the members' units.
   * @example new CrpsPrepared(Float64Array.of(0, 1)).crps(2) // => 1.25
   */
  crps(observation: number): number {
    const sorted = this.sorted;
    const memberCount = sorted.length;
    if (memberCount === 0 || observation !== observation) return NaN;
    let below = 0;
    let upper = memberCount;
    while (below < upper) {
      const middle = (below + upper) >>> 1;
      if (sorted[middle] < observation) below = middle + 1;
      else upper = middle;
    }
    const offset = observation - this.center;
    const prefix = this.prefixSums[below];
    const total = this.prefixSums[memberCount];
    const absoluteError =
      below * offset - prefix + (total - prefix) - (memberCount - below) * offset;
    return absoluteError / memberCount - this.pairTerm / (memberCount * memberCount);
  }

  /**
   * {@link CrpsPrepared.crps} for each of `observations`, written into `out`.
   * @param observations - the observed values, in the members' units.
   * @param out - where to write, one number per observation; a new array by default.
   * @example prepared.crpsMany(Float64Array.of(0, 0.5, 1))
   */
  crpsMany(
    observations: Float64Array,
    out: Float64Array = new Float64Array(observations.length),
  ): Float64Array {
    if (out.length !== observations.length) {
      throw new RangeError(
        `CrpsPrepared.crpsMany requires out of ${observations.length} numbers, got ${out.length}`,
      );
    }
    for (let index = 0; index < observations.length; index++) {
      out[index] = this.crps(observations[index]);
    }
    return out;
  }
}
