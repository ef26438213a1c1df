/**
 * Volatility estimators: realized (blocks of 1-minute log returns), forecast (per step across
 * paths), and the pooled per-step log-return variance of an ensemble.
 */

import { requireLength, requirePathShape, requirePositiveInteger } from "./entryChecks.ts";

/** Minutes in a 365-day year: the annualization base of every volatility here. */
const MINUTES_PER_YEAR = 525600;

/**
 * The log return ln(price / previousPrice). Method: with u = (p − q)/(p + q), ln(p/q) =
 * 2·atanh(u) = 2(u + u³/3 + u⁵/5 + …); for |u| < 0.01 (moves under 2 %) five terms are exact to
 * rounding, about 3× faster than `Math.log` and more accurate for tiny moves (p − q is exact, where
 * p/q rounds). Larger moves, and non-finite or non-positive prices, go through `Math.log(p / q)`.
 * Traded clarity for speed: the plain form is in `src/reference/volatility.ts`.
 * @param price - the later price.
 * @param previousPrice - the earlier price.
 * @example logReturn(101, 100) // => 0.00995033085316808…
 */
export function logReturn(price: number, previousPrice: number): number {
  const u = (price - previousPrice) / (price + previousPrice);
  if (!(Math.abs(u) < 0.01)) return Math.log(price / previousPrice);
  const u2 = u * u;
  return 2 * u * (1 + u2 * (1 / 3 + u2 * (1 / 5 + u2 * (1 / 7 + u2 / 9))));
}

/**
 * Realized volatility per block of 1-minute prices, annualized percent. The log returns
 * rᵢ = ln(pᵢ / pᵢ₋₁), i = 1..n−1, are cut into consecutive blocks of `blockSize` returns, the last
 * block keeping the remainder (1,432 prices → 1,431 returns → 96 blocks of 15). Per block: sample
 * std (ddof 1) of its finite returns × √525600 × 100, two-pass (mean, then squared deviations).
 * Returns are `Math.log(p / q)`, as numpy's `np.log(p[1:] / p[:-1])`, not {@link logReturn}: a
 * series of 1,432 prices needs no speed, and a block of nearly equal returns then matches it to
 * the last digits.
 * A missing (NaN) or non-positive price makes the returns beside it non-finite; they are left out,
 * as realized series have gaps. A block with fewer than 2 finite returns gives NaN.
 * Throws `RangeError` unless `blockSize` is a positive integer, or for an `out` of the wrong
 * length (⌈(n−1)/blockSize⌉).
 * @param prices - 1-minute prices, oldest first, NaN where missing.
 * @param blockSize - returns per block, a positive integer.
 * @param out - where to write, ⌈(n − 1)/blockSize⌉ numbers (annualized percent); a new array when
 *   omitted.
 * @example realizedVolatility(Float64Array.of(100, 101, 100, 101, 100), 2) // => [1020.18…, 1020.18…]
 */
export function realizedVolatility(
  prices: Float64Array,
  blockSize: number,
  out?: Float64Array,
): Float64Array {
  requirePositiveInteger("realizedVolatility", "blockSize", blockSize);
  const nPrices = prices.length;
  const nBlocks = nPrices < 2 ? 0 : Math.ceil((nPrices - 1) / blockSize);
  const result = out ?? new Float64Array(nBlocks);
  requireLength("realizedVolatility", "out", result.length, nBlocks);
  const scale = Math.sqrt(MINUTES_PER_YEAR) * 100;
  for (let block = 0; block < nBlocks; ++block) {
    const start = block * blockSize + 1;
    const stop = Math.min(start + blockSize, nPrices);
    let count = 0;
    let sum = 0;
    for (let index = start; index < stop; ++index) {
      const periodReturn = Math.log(prices[index] / prices[index - 1]);
      if (periodReturn - periodReturn === 0) {
        sum += periodReturn;
        ++count;
      }
    }
    if (count < 2) {
      result[block] = NaN;
      continue;
    }
    const mean = sum / count;
    let squaredDeviations = 0;
    for (let index = start; index < stop; ++index) {
      const periodReturn = Math.log(prices[index] / prices[index - 1]);
      if (periodReturn - periodReturn === 0)
        squaredDeviations += (periodReturn - mean) * (periodReturn - mean);
    }
    result[block] = Math.sqrt(squaredDeviations / (count - 1)) * scale;
  }
  return result;
}

/**
 * The realized volatility points of a volatility record from its listed returns (NaN where the
 * record has null): blocks of `blockEntries` entries aligned to the end (the first block holds the
 * remainder), at most `maxPoints` of them, the oldest; per block the sample std (ddof 1) of its
 * finite returns × √525600 × 100, two-pass; NaN below 2 returns.
 * Throws `RangeError` unless `blockEntries` and `maxPoints` are positive integers.
 * @param returns - the record's listed returns, oldest first, NaN where null.
 * @param blockEntries - returns per block, a positive integer.
 * @param maxPoints - the most blocks to keep (the latest), a positive integer.
 * @example realizedEntryVolatilities(Float64Array.of(NaN, 0.01, -0.01), 2, 31) // => [NaN, 1661.3…]
 */
export function realizedEntryVolatilities(
  returns: Float64Array,
  blockEntries: number,
  maxPoints: number,
): Float64Array {
  requirePositiveInteger("realizedEntryVolatilities", "blockEntries", blockEntries);
  requirePositiveInteger("realizedEntryVolatilities", "maxPoints", maxPoints);
  const n = returns.length;
  const firstEnd = n % blockEntries || blockEntries;
  const nBlocks = Math.min(maxPoints, n === 0 ? 0 : 1 + Math.ceil((n - firstEnd) / blockEntries));
  const result = new Float64Array(nBlocks);
  const scale = Math.sqrt(MINUTES_PER_YEAR) * 100;
  for (let block = 0, start = 0, end = firstEnd; block < nBlocks; ++block) {
    let count = 0;
    let sum = 0;
    for (let index = start; index < end; ++index) {
      const value = returns[index];
      if (value - value === 0) {
        sum += value;
        ++count;
      }
    }
    if (count < 2) {
      result[block] = NaN;
    } else {
      const mean = sum / count;
      let squaredDeviations = 0;
      for (let index = start; index < end; ++index) {
        const value = returns[index];
        if (value - value === 0) squaredDeviations += (value - mean) * (value - mean);
      }
      result[block] = Math.sqrt(squaredDeviations / (count - 1)) * scale;
    }
    start = end;
    end += blockEntries;
  }
  return result;
}

/**
 * The step length of {@link forecastVolatility}'s paths, and where it writes.
 * @example const options: ForecastVolatilityOptions = { stepMinutes: 5 };
 */
export interface ForecastVolatilityOptions {
  /** Minutes between consecutive points (positive; otherwise every entry is NaN). */
  readonly stepMinutes: number;
  /** Where to write, nPoints − 1 numbers; a new array by default. */
  readonly out?: Float64Array;
}

/**
 * Forecast volatility per step, annualized percent: for each step t ≥ 1, the sample std (ddof 1)
 * across paths of ln(p[t] / p[t−1]) ({@link logReturn}), × √(525600 / stepMinutes) × 100; entry
 * t−1 is step t.
 * Input is path-major (the ensemble's own layout): one pass accumulates, per step, the sums of the
 * returns and of their squares, each shifted by path 0's return at that step so that the one-pass
 * variance does not cancel. O(nPaths·nPoints).
 * NaN at a step where some path's return is not finite (a NaN, infinite, zero or negative price),
 * everywhere when nPaths < 2 or `stepMinutes` is not a positive finite number.
 * Throws `RangeError` for a shape mismatch or an `out` of length other than nPoints − 1.
 * @param values - the paths, path-major: `nPaths` × `nPoints` prices.
 * @param nPaths - the number of paths.
 * @param nPoints - points per path.
 * @param options - the minutes between points and the array to write.
 * @example forecastVolatility(Float64Array.of(100, 101, 100, 99), 2, 2, { stepMinutes: 5 }) // => [458.53…]
 */
export function forecastVolatility(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  options: ForecastVolatilityOptions,
): Float64Array {
  const { stepMinutes, out = new Float64Array(Math.max(nPoints - 1, 0)) } = options;
  requirePathShape("forecastVolatility", values, nPaths, nPoints);
  const nSteps = nPoints - 1;
  requireLength("forecastVolatility", "out", out.length, nSteps);
  if (nPaths < 2 || !(stepMinutes > 0 && stepMinutes < Infinity)) return out.fill(NaN);
  const shifts = new Float64Array(nSteps);
  for (let step = 1; step < nPoints; ++step)
    shifts[step - 1] = logReturn(values[step], values[step - 1]);
  const sums = new Float64Array(nSteps);
  const sumsOfSquares = new Float64Array(nSteps);
  for (let path = 1; path < nPaths; ++path) {
    const base = path * nPoints;
    for (let step = 1; step < nPoints; ++step) {
      const shifted = logReturn(values[base + step], values[base + step - 1]) - shifts[step - 1];
      sums[step - 1] += shifted;
      sumsOfSquares[step - 1] += shifted * shifted;
    }
  }
  const scale = Math.sqrt(MINUTES_PER_YEAR / stepMinutes) * 100;
  for (let step = 0; step < nSteps; ++step) {
    // Path 0 contributes a shifted return of exactly 0 to both sums, or NaN when not finite.
    const sum = sums[step] + shifts[step] * 0;
    const variance = (sumsOfSquares[step] - sum * (sum / nPaths)) / (nPaths - 1);
    out[step] = sum - sum === 0 ? Math.sqrt(variance < 0 ? 0 : variance) * scale : NaN;
  }
  return out;
}

/**
 * Pooled sample variance (ddof 1) of the per-step log returns ln(p[t] / p[t−1]) ({@link logReturn})
 * of all paths and steps: σ²Δ for one step, as {@link touchBridgeProbabilities} needs it. One pass
 * over sums shifted by the first return (returns have a spread far above their mean, so this does
 * not cancel).
 * NaN when some return is not finite or there are fewer than 2 returns.
 * Throws `RangeError` for a shape mismatch.
 * @param values - the paths, path-major: `nPaths` × `nPoints` prices.
 * @param nPaths - the number of paths.
 * @param nPoints - points per path.
 * @example pooledLogReturnVariance(Float64Array.of(100, 101, 100, 100, 99, 100), 2, 3) // => 1.33345…e-4
 */
export function pooledLogReturnVariance(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
): number {
  requirePathShape("pooledLogReturnVariance", values, nPaths, nPoints);
  const count = nPaths * (nPoints - 1);
  if (count < 2) return NaN;
  const shift = logReturn(values[1], values[0]);
  let sum = 0;
  let sumOfSquares = 0;
  for (let path = 0; path < nPaths; ++path) {
    const base = path * nPoints;
    for (let step = 1; step < nPoints; ++step) {
      const shifted = logReturn(values[base + step], values[base + step - 1]) - shift;
      sum += shifted;
      sumOfSquares += shifted * shifted;
    }
  }
  if (!(sum - sum === 0)) return NaN;
  const variance = (sumOfSquares - sum * (sum / count)) / (count - 1);
  return variance < 0 ? 0 : variance;
}
