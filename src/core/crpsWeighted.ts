/**
 * CRPS of a weighted ensemble for one observation (properscoring.crps_ensemble with `weights`).
 */

import type { CrpsMethod } from "./crps.ts";
import { crpsParitySorted } from "./crpsParity.ts";

/**
 * CRPS of `members` with probability `weights` (non-negative, not necessarily normalized) for
 * `observation`: Σwᵢ|xᵢ − y| − ½ΣΣwᵢwⱼ|xᵢ − xⱼ| with w normalized, as properscoring.crps_ensemble
 * with weights. Closed form (default): with members ascending and Wᵢ⁻, Wᵢ⁺ the weight below and
 * above member i, ½ΣΣwᵢwⱼ|xᵢ − xⱼ| = Σwᵢxᵢ(Wᵢ⁻ − Wᵢ⁺), one pass after an O(M log M) argsort;
 * with all weights 1 it performs exactly the operations of the unweighted closed form. `"parity"`
 * runs properscoring's loop ({@link crpsParitySorted}).
 * As properscoring: NaN members are ignored with their weights; a negative or NaN weight, a zero
 * total weight, all members NaN, or a NaN observation give NaN.
 * Throws `RangeError` for no members or weights of another length.
 * @param members - the ensemble members, any order; at least one; only read.
 * @param weights - each member's weight, ≥ 0, one per member; need not add up to 1.
 * @param observation - the observed value, in the members' units.
 * @param method - `"closed"` (the closed form, default) or `"parity"` (properscoring's loop).
 * @example crpsEnsembleWeighted(Float64Array.of(0, 1), Float64Array.of(3, 1), 0) // => 0.0625
 */
export function crpsEnsembleWeighted(
  members: Float64Array,
  weights: Float64Array,
  observation: number,
  method: CrpsMethod = "closed",
): number {
  const memberCount = members.length;
  if (memberCount === 0) {
    throw new RangeError("crpsEnsembleWeighted requires at least one member, got none");
  }
  if (weights.length !== memberCount) {
    throw new RangeError(
      `crpsEnsembleWeighted requires one weight per member: ${memberCount} members, got ${weights.length} weights`,
    );
  }
  const order = new Uint32Array(memberCount);
  for (let index = 0; index < memberCount; index++) order[index] = index;
  order.sort((a, b) => compareNaNLast(members[a], members[b]));
  const sorted = new Float64Array(memberCount);
  const sortedWeights = new Float64Array(memberCount);
  for (let index = 0; index < memberCount; index++) {
    sorted[index] = members[order[index]];
    sortedWeights[index] = weights[order[index]];
  }
  if (method === "parity") return crpsParitySorted(sorted, observation, sortedWeights);
  let count = memberCount;
  while (count > 0 && sorted[count - 1] !== sorted[count - 1]) count--;
  if (count === 0 || observation !== observation) return NaN;
  let totalWeight = 0;
  for (let index = 0; index < count; index++) {
    if (!(sortedWeights[index] >= 0)) return NaN;
    totalWeight += sortedWeights[index];
  }
  if (!(totalWeight > 0)) return NaN;
  let weightBelow = 0;
  let absoluteError = 0;
  let spread = 0;
  for (let index = 0; index < count; index++) {
    const weight = sortedWeights[index];
    const difference = sorted[index] - observation;
    const weightAbove = totalWeight - weightBelow - weight;
    absoluteError += weight * Math.abs(difference);
    spread += weight * difference * (weightBelow - weightAbove);
    weightBelow += weight;
  }
  return absoluteError / totalWeight - spread / (totalWeight * totalWeight);
}

/** Ascending with NaN last, as numpy and Float64Array.prototype.sort order numbers. */
function compareNaNLast(a: number, b: number): number {
  if (a !== a) return b !== b ? 0 : 1;
  if (b !== b) return -1;
  return a < b ? -1 : a > b ? 1 : 0;
}
