/**
 * properscoring's compiled CRPS loop, ported operation for operation, for bit-for-bit parity with
 * the validator.
 */

/**
 * CRPS of ascending `sorted` members (NaN last) for one observation, by properscoring's compiled
 * loop (`_crps_ensemble_gufunc`, properscoring 0.1, the code `properscoring.crps_ensemble` runs):
 * integrate (F − H)² over the gaps between consecutive members, F the ensemble CDF advanced by
 * wᵢ/Σw per member (1/M without weights) and H the step at the observation. Same floating-point
 * operations in the same order (a square is x·x, as numba compiles `x ** 2`), so the result equals
 * properscoring's bit for bit (with weights: when tied members carry equal weights).
 * As properscoring: NaN members are ignored (all NaN gives NaN), a NaN observation gives NaN, a
 * negative or NaN weight gives NaN. `weights`, when given, are aligned with `sorted`. O(M).
 * Throws `RangeError` for no members or weights of another length.
 * @param sorted - the ensemble members, ascending, NaN last; at least one.
 * @param observation - the observed value, in the members' units.
 * @param weights - each member's weight (≥ 0), aligned with `sorted`; equal weights when omitted.
 * @example crpsParitySorted(Float64Array.of(-0.3, 0.7, 1.2, 1.9, 2.5), 0.9) // => 0.316 (to 1e-15)
 */
export function crpsParitySorted(
  sorted: Float64Array,
  observation: number,
  weights?: Float64Array,
): number {
  const memberCount = sorted.length;
  if (memberCount === 0) {
    throw new RangeError("crpsParitySorted requires at least one member, got none");
  }
  if (weights !== undefined && weights.length !== memberCount) {
    throw new RangeError(
      `crpsParitySorted requires one weight per member: ${memberCount} members, got ${weights.length} weights`,
    );
  }
  if (observation !== observation) return NaN;
  let totalWeight = 0;
  for (let index = 0; index < memberCount; index++) {
    if (sorted[index] !== sorted[index]) break;
    const weight = weights === undefined ? 1 : weights[index];
    if (!(weight >= 0)) return NaN;
    totalWeight += weight;
  }
  let observationCdf = 0;
  let forecastCdf = 0;
  let previousForecast = 0;
  let integral = 0;
  let forecast = 0;
  for (let index = 0; index < memberCount; index++) {
    forecast = sorted[index];
    if (forecast !== forecast) {
      if (index === 0) integral = NaN;
      forecast = previousForecast;
      break;
    }
    if (observationCdf === 0 && observation < forecast) {
      const above = forecastCdf - 1;
      integral += (observation - previousForecast) * (forecastCdf * forecastCdf);
      integral += (forecast - observation) * (above * above);
      observationCdf = 1;
    } else {
      const gap = forecastCdf - observationCdf;
      integral += (forecast - previousForecast) * (gap * gap);
    }
    forecastCdf += (weights === undefined ? 1 : weights[index]) / totalWeight;
    previousForecast = forecast;
  }
  if (observationCdf === 0) integral += observation - forecast;
  return integral;
}
