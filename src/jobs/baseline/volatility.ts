/**
 * The volatility a baseline simulates with: the realized 1-minute log-return deviation over the
 * 24 hours before a prompt's start, scaled to the prompt's time increment.
 */

/** Minutes in a 365-day year, the annualization base of realized volatility (the service's insight conventions). */
const MINUTES_PER_YEAR = 525600;

/**
 * Realized 1-minute returns a volatility estimate needs (one hour's worth); with fewer, the
 * prompt is skipped rather than simulated with a guess.
 * @example MINIMUM_MINUTE_RETURNS // => 60
 */
export const MINIMUM_MINUTE_RETURNS = 60;

/**
 * A volatility estimate from minute closes.
 * @example const estimate: MinuteVolatility = { minuteVolatility: 0.0006, returns: 1440 };
 */
export interface MinuteVolatility {
  /** Sample standard deviation (ddof 1) of the 1-minute log returns; NaN with fewer than 2. */
  readonly minuteVolatility: number;
  /** Returns it was computed from (minutes whose close and previous close are both observed). */
  readonly returns: number;
}

/**
 * The sample standard deviation (ddof 1, about the sample mean, two passes) of the 1-minute log
 * returns ln(cᵢ / cᵢ₋₁) of consecutive minute closes `closes` (one per minute, NaN where the
 * candle is missing). A return beside a missing or non-positive close is left out, so a gap does
 * not become one long "minute". This is the realized-volatility estimator of the service's
 * volatility records (the service's insight conventions) over one block.
 * @example minuteVolatility(Float64Array.of(100, 101, 100, 101, 100)) // => { minuteVolatility: 0.01149…, returns: 4 }
 */
export function minuteVolatility(closes: Float64Array): MinuteVolatility {
  const n = closes.length;
  let count = 0;
  let sum = 0;
  for (let index = 1; index < n; ++index) {
    const logReturn = Math.log(closes[index] / closes[index - 1]);
    if (logReturn - logReturn === 0) {
      sum += logReturn;
      ++count;
    }
  }
  if (count < 2) return { minuteVolatility: NaN, returns: count };
  const mean = sum / count;
  let squaredDeviations = 0;
  for (let index = 1; index < n; ++index) {
    const logReturn = Math.log(closes[index] / closes[index - 1]);
    if (logReturn - logReturn === 0) squaredDeviations += (logReturn - mean) * (logReturn - mean);
  }
  return { minuteVolatility: Math.sqrt(squaredDeviations / (count - 1)), returns: count };
}

/**
 * A 1-minute log-return σ scaled to steps of `timeIncrement` seconds, by the square-root-of-time
 * rule of independent increments: σ·√(timeIncrement / 60).
 * @example stepVolatility(0.001, 300) // => 0.002236…
 */
export function stepVolatility(minuteSigma: number, timeIncrement: number): number {
  return minuteSigma * Math.sqrt(timeIncrement / 60);
}

/**
 * A 1-minute log-return σ annualized in percent (σ·√525600·100), as the service's volatility
 * records report it.
 * @example annualizedVolatilityPct(0.0006) // => 43.49…
 */
export function annualizedVolatilityPct(minuteSigma: number): number {
  return minuteSigma * Math.sqrt(MINUTES_PER_YEAR) * 100;
}
