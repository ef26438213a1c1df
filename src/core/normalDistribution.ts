/**
 * The standard normal distribution function to double precision, for the Black–Scholes prices and
 * implied volatilities of the option charts.
 */

/**
 * erfc(x) for x ≥ 0: for x < 3, 1 − erf(x) from the series erf(x) = 2/√π · e^(−x²) ·
 * Σ 2ⁿ x^(2n+1) / (1·3···(2n+1)), whose terms are all positive (no cancellation); from 3 on, the
 * continued fraction erfc(x) = e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …)))), evaluated
 * by the modified Lentz method, which keeps the far tail's relative precision.
 */
function complementaryError(x: number): number {
  if (x < 3) {
    let term = x;
    let sum = x;
    for (let n = 1; n < 200 && term > sum * 1e-17; n += 1) {
      term *= (2 * x * x) / (2 * n + 1);
      sum += term;
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * Math.exp(-x * x) * sum;
  }
  const tiny = 1e-300;
  let fraction = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 500; n += 1) {
    const a = n / 2;
    d = x + a * d;
    d = Math.abs(d) < tiny ? tiny : d;
    c = x + a / c;
    c = Math.abs(c) < tiny ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    fraction *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / fraction;
}

/**
 * Φ(x), the standard normal distribution function, to about 1e-15 relative (the lower tail keeps
 * its relative precision: Φ(−8) ≈ 6.2e-16 comes out to 14 digits).
 * @param x - the point.
 * @example normalCdf(1) // => 0.8413447460685429
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const scaled = Math.abs(x) / Math.SQRT2;
  const tail = 0.5 * complementaryError(scaled);
  return x < 0 ? tail : 1 - tail;
}
