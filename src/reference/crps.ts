/**
 * CRPS of an ensemble for one observation, two ways that share nothing with the fast core's
 * sorted closed form: the pairwise definition, O(M²), the obviously-correct form; and a faithful
 * port of properscoring's compiled loop, O(M log M), bit-identical to what the validator runs.
 */

import { requireNonEmpty } from "./validate.ts";

/**
 * Continuous ranked probability score of the ensemble `members` for one `observation`, by the
 * pairwise (energy) form of the standard, non-fair estimator, as `properscoring.crps_ensemble`:
 * CRPS = mean over i of |xᵢ − y| − ½ · mean over all M² pairs (i, j) of |xᵢ − xⱼ|.
 * Complexity O(M²). Reference: Gneiting & Raftery (2007), doi:10.1198/016214506000001437.
 * Returns NaN when any member or the observation is NaN. Throws `RangeError` for no members.
 * @example crpsPairwise([0, 0, 1], 0) // => 0.1111… (1/9)
 * @example crpsPairwise([1.2, -0.3, 2.5, 0.7, 1.9], 0.9) // => 0.316
 */
export function crpsPairwise(members: readonly number[], observation: number): number {
  requireNonEmpty("crpsPairwise", "members", members);
  const memberCount = members.length;
  let absoluteErrorSum = 0;
  for (let i = 0; i < memberCount; i++) {
    absoluteErrorSum += Math.abs(members[i] - observation);
  }
  let pairDifferenceSum = 0;
  for (let i = 0; i < memberCount; i++) {
    for (let j = 0; j < memberCount; j++) {
      pairDifferenceSum += Math.abs(members[i] - members[j]);
    }
  }
  return absoluteErrorSum / memberCount - (0.5 * pairDifferenceSum) / (memberCount * memberCount);
}

/**
 * CRPS of an ensemble for one observation, by a line-for-line port of properscoring's compiled
 * loop (`_crps_ensemble_gufunc`, the code path `properscoring.crps_ensemble` takes with numba,
 * which is what the validator runs): sort the members ascending (NaN last, as numpy sorts), then
 * integrate (F − H)² over the gaps between consecutive members, where F is the ensemble CDF
 * (advanced by 1/M per member, as properscoring accumulates it) and H the step at the observation.
 * It reproduces properscoring's floating-point operations in the same order, so its results equal
 * properscoring's bit for bit. O(M log M). Like properscoring: NaN members are ignored (all NaN
 * gives NaN) and a NaN observation gives NaN.
 * Throws `RangeError` for no members.
 * @example crpsProperscoring([1.2, -0.3, 2.5, 0.7, 1.9], 0.9) // => 0.316
 */
export function crpsProperscoring(members: ArrayLike<number>, observation: number): number {
  requireNonEmpty("crpsProperscoring", "members", members);
  if (Number.isNaN(observation)) return NaN;
  // A Float64Array sorts ascending with NaN last, as numpy.sort orders floats. It puts −0 before
  // 0, where numpy may keep either order: the integral is the same (a gap between them is ±0).
  return crpsProperscoringSorted(Float64Array.from(members).sort(), observation);
}

/**
 * The loop of {@link crpsProperscoring} on members already sorted ascending with NaN last (the
 * order of `Float64Array.prototype.sort`), for a caller that sorts its members its own way: the
 * same floating-point operations in the same order, so the same bits as properscoring.
 * Throws `RangeError` for no members.
 * @example crpsProperscoringSorted(Float64Array.of(-0.3, 0.7, 1.2, 1.9, 2.5), 0.9) // => 0.316
 */
export function crpsProperscoringSorted(sorted: Float64Array, observation: number): number {
  requireNonEmpty("crpsProperscoringSorted", "sorted", sorted);
  if (Number.isNaN(observation)) return NaN;
  let totalWeight = 0;
  for (let index = 0; index < sorted.length; index++) {
    if (Number.isNaN(sorted[index])) break;
    totalWeight += 1;
  }
  let observationCdf = 0;
  let forecastCdf = 0;
  let previousForecast = 0;
  let integral = 0;
  let forecast = 0;
  for (let index = 0; index < sorted.length; index++) {
    forecast = sorted[index];
    if (Number.isNaN(forecast)) {
      if (index === 0) integral = NaN;
      forecast = previousForecast;
      break;
    }
    if (observationCdf === 0 && observation < forecast) {
      integral += (observation - previousForecast) * forecastCdf ** 2;
      integral += (forecast - observation) * (forecastCdf - 1) ** 2;
      observationCdf = 1;
    } else {
      integral += (forecast - previousForecast) * (forecastCdf - observationCdf) ** 2;
    }
    forecastCdf += 1 / totalWeight;
    previousForecast = forecast;
  }
  if (observationCdf === 0) integral += observation - forecast;
  return integral;
}
