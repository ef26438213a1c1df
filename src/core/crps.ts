/**
 * CRPS of an ensemble for one observation: the standard (non-fair) estimator of
 * `properscoring.crps_ensemble`, by a sorted closed form or by properscoring's own loop.
 */

import { sortFloat64 } from "./sortFloat64.ts";
import { crpsParitySorted } from "./crpsParity.ts";

/**
 * How a CRPS is computed: `"closed"`, the sorted closed form (agrees with properscoring to
 * ~1e-13 relative), or `"parity"`, properscoring's loop ({@link crpsParitySorted}, bit for bit).
 * @example const method: CrpsMethod = "parity";
 */
export type CrpsMethod = "closed" | "parity";

/**
 * CRPS of ascending `sorted` members (NaN last) for `observation`: mean|x − y| − ½·mean|x − x′|
 * over all M² pairs (properscoring.crps_ensemble). Method: with members ascending,
 * ½ΣΣ|xᵢ − xⱼ| = Σ(2i − M − 1)·x₍ᵢ₎ (i from 1), so one O(M) pass; both sums use dᵢ = xᵢ − y
 * (the weights of the second sum add up to 0), which keeps the rounding at the ensemble's scale.
 * Reference: Gneiting & Raftery (2007), doi:10.1198/016214506000001437.
 * As properscoring: NaN members are ignored (all NaN gives NaN); a NaN observation gives NaN.
 * Throws `RangeError` for no members.
 * @param sorted - the ensemble members, ascending, NaN last; at least one.
 * @param observation - the observed value, in the members' units.
 * @example crpsEnsembleSorted(Float64Array.of(0, 0, 1), 0) // => 0.1111… (1/9)
 */
export function crpsEnsembleSorted(sorted: Float64Array, observation: number): number {
  if (sorted.length === 0) {
    throw new RangeError("crpsEnsembleSorted requires at least one member, got none");
  }
  let memberCount = sorted.length;
  while (memberCount > 0 && sorted[memberCount - 1] !== sorted[memberCount - 1]) memberCount--;
  if (memberCount === 0 || observation !== observation) return NaN;
  let absoluteError = 0;
  let spread = 0;
  for (let index = 0; index < memberCount; index++) {
    const difference = sorted[index] - observation;
    absoluteError += Math.abs(difference);
    spread += (2 * index + 1 - memberCount) * difference;
  }
  return absoluteError / memberCount - spread / (memberCount * memberCount);
}

/**
 * CRPS of `members` (any order) for `observation`, as properscoring.crps_ensemble: sorts a copy,
 * then the closed form {@link crpsEnsembleSorted} or, with `"parity"`, properscoring's loop
 * {@link crpsParitySorted}. O(M) for smooth ensembles (radix sort, {@link sortFloat64}), O(M log M) at worst.
 * For many observations against the same members use {@link CrpsPrepared}.
 * Throws `RangeError` for no members.
 * @param members - the ensemble members, any order; at least one; only read.
 * @param observation - the observed value, in the members' units.
 * @param method - `"closed"` (the closed form, default) or `"parity"` (properscoring's loop, bit
 *   for bit).
 * @example crpsEnsemble(Float64Array.of(1.2, -0.3, 2.5, 0.7, 1.9), 0.9) // => 0.316
 * @example crpsEnsemble(Float64Array.of(0, 1), 2, "parity") // => 1.25
 */
export function crpsEnsemble(
  members: Float64Array,
  observation: number,
  method: CrpsMethod = "closed",
): number {
  if (members.length === 0) {
    throw new RangeError("crpsEnsemble requires at least one member, got none");
  }
  const sorted = sortFloat64(members, new Float64Array(members.length));
  return method === "parity"
    ? crpsParitySorted(sorted, observation)
    : crpsEnsembleSorted(sorted, observation);
}
