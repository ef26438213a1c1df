/**
 * 95 % intervals for the calibration charts: a proportion's (Wilson), a calibrated PIT histogram's
 * band, and a mean's (Student's t). Each takes the number of independent observations, which for a forecast's
 * realized points is the number of prompts, not of points: the points of one prompt share a path
 * and are far from independent.
 */

/**
 * The standard normal quantile of 0.975: the half-width of a two-sided 95 % interval in standard
 * errors.
 * @example Z95 // => 1.959963984540054
 */
export const Z95 = 1.959963984540054;

/**
 * The Wilson score interval of a proportion `proportion` observed over `count` independent trials
 * (Wilson, 1927): (p̂ + z²/2n ± z √(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n). Unlike p̂ ± z √(p̂(1 − p̂)/n)
 * it stays inside [0, 1] and is not empty at p̂ = 0 or 1. `[NaN, NaN]` for `count` < 1 or a
 * proportion outside [0, 1].
 * @param proportion - the observed proportion p̂, in [0, 1].
 * @param count - the number of independent trials n (need not be whole: an effective count).
 * @param z - the interval's half-width in standard errors (95 % by default).
 * @example wilsonInterval(0.5, 10) // => [0.2366…, 0.7633…]
 */
export function wilsonInterval(
  proportion: number,
  count: number,
  z = Z95,
): [low: number, high: number] {
  if (!(count >= 1 && proportion >= 0 && proportion <= 1)) return [NaN, NaN];
  const z2 = z * z;
  const centre = proportion + z2 / (2 * count);
  const spread = z * Math.sqrt((proportion * (1 - proportion)) / count + z2 / (4 * count * count));
  const scale = 1 + z2 / count;
  return [Math.max(0, (centre - spread) / scale), Math.min(1, (centre + spread) / scale)];
}

/**
 * The band a calibrated PIT histogram's density stays in, bin by bin: with `bins` equal bins and
 * `count` independent observations, a bin's count is Binomial(n, 1/B), so its density (count/n · B)
 * is 1 ± z √((B − 1)/n) to the normal approximation. `[NaN, NaN]` for `count` < 1 or `bins` < 2.
 * @param bins - the histogram's number of equal bins B.
 * @param count - the number of independent observations n.
 * @param z - the band's half-width in standard errors (95 % by default).
 * @example pitDensityBand(10, 100) // => [0.4120, 1.5880] (1 ± 1.96 × 0.3)
 */
export function pitDensityBand(bins: number, count: number, z = Z95): [low: number, high: number] {
  if (!(count >= 1 && bins >= 2)) return [NaN, NaN];
  const halfWidth = z * Math.sqrt((bins - 1) / count);
  return [Math.max(0, 1 - halfWidth), 1 + halfWidth];
}

/**
 * P(|T| ≤ t) for Student's t with `degrees` (a whole number ≥ 1) degrees of freedom, t ≥ 0: the
 * finite series of Abramowitz & Stegun 26.7.3 (odd) and 26.7.4 (even) in θ = atan(t/√ν).
 */
function studentTWithin(t: number, degrees: number): number {
  const theta = Math.atan(t / Math.sqrt(degrees));
  const cosine = Math.cos(theta);
  const cos2 = cosine * cosine;
  if (degrees % 2 === 1) {
    let term = cosine;
    let sum = degrees > 1 ? cosine : 0;
    for (let k = 3; k <= degrees - 2; k += 2) {
      term *= (cos2 * (k - 1)) / k;
      sum += term;
    }
    return (2 / Math.PI) * (theta + Math.sin(theta) * sum);
  }
  let term = 1;
  let sum = 1;
  for (let k = 2; k <= degrees - 2; k += 2) {
    term *= (cos2 * (k - 1)) / k;
    sum += term;
  }
  return Math.sin(theta) * sum;
}

/**
 * The quantile of Student's t distribution at `probability` (in (0.5, 1)) with `degrees` degrees
 * of freedom (a whole number ≥ 1), found by bisection on the exact distribution function to 1e-12.
 * NaN outside those ranges.
 * @param probability - the lower-tail probability, in (0.5, 1).
 * @param degrees - the degrees of freedom, a whole number ≥ 1.
 * @example studentTQuantile(0.975, 2) // => 4.302652…
 */
export function studentTQuantile(probability: number, degrees: number): number {
  if (!(probability > 0.5 && probability < 1 && Number.isInteger(degrees) && degrees >= 1)) {
    return NaN;
  }
  const within = 2 * probability - 1;
  let high = 1;
  while (studentTWithin(high, degrees) < within) high *= 2;
  let low = 0;
  while (high - low > 1e-12 * high) {
    const middle = (low + high) / 2;
    if (studentTWithin(middle, degrees) < within) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/**
 * A mean and its 95 % interval, mean ± t · s/√n: s the sample standard deviation (ddof 1) and t
 * Student's 0.975 quantile with n − 1 degrees of freedom (4.30 at n = 3, 2.57 at n = 6, → 1.96),
 * which keeps the interval honest for the few markets that resolve at one time. Interval
 * `[NaN, NaN]` for fewer than 2 values.
 * @param values - independent observations.
 * @example meanInterval([1, 2, 3]) // => { mean: 2, low: -0.484…, high: 4.484… }
 */
export function meanInterval(values: readonly number[]): {
  mean: number;
  low: number;
  high: number;
} {
  const count = values.length;
  const mean = values.reduce((sum, value) => sum + value, 0) / count;
  if (count < 2) return { mean, low: NaN, high: NaN };
  const variance = values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (count - 1);
  const halfWidth = studentTQuantile(0.975, count - 1) * Math.sqrt(variance / count);
  return { mean, low: mean - halfWidth, high: mean + halfWidth };
}
