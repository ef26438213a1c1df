/**
 * Realized and forecast volatility, annualized percent (the service's insight conventions), with simple-statistics'
 * sample standard deviation (ddof 1).
 */

import { sampleStandardDeviation } from "simple-statistics";
import { requireIntegerInRange, requirePathMatrix } from "./validate.ts";

/** Minutes in a 365-day year: the annualization base of every volatility here. */
const MINUTES_PER_YEAR = 525600;

/**
 * Realized volatility per block of 1-minute prices, annualized percent. The 1-minute log returns
 * rᵢ = ln(pᵢ / pᵢ₋₁), i = 1..n−1, are cut into consecutive blocks of `blockSize` returns; the last
 * block keeps the remainder and may be shorter (1,432 prices → 1,431 returns → 96 blocks of 15,
 * as the live service reports). Per block: sample std (ddof 1) of its finite returns × √525600 × 100;
 * a block with fewer than 2 finite returns gives NaN (a NaN or non-positive price makes the
 * returns beside it non-finite, so they are left out).
 * Throws `RangeError` unless `blockSize` is a positive integer.
 * @example realizedVolatility([100, 101, 100, 101, 100], 2) // => [1020.18…, 1020.18…]
 */
export function realizedVolatility(prices: readonly number[], blockSize: number): number[] {
  requireIntegerInRange("realizedVolatility", "blockSize", blockSize, 1, Number.MAX_SAFE_INTEGER);
  const returns: number[] = [];
  for (let index = 1; index < prices.length; index++) {
    returns.push(Math.log(prices[index] / prices[index - 1]));
  }
  const volatilities: number[] = [];
  for (let start = 0; start < returns.length; start += blockSize) {
    const finiteReturns = returns.slice(start, start + blockSize).filter(Number.isFinite);
    volatilities.push(
      finiteReturns.length < 2
        ? NaN
        : sampleStandardDeviation(finiteReturns) * Math.sqrt(MINUTES_PER_YEAR) * 100,
    );
  }
  return volatilities;
}

/**
 * Forecast volatility per step, annualized percent: for each step t ≥ 1, the sample std (ddof 1)
 * across paths of the log returns ln(p[t] / p[t−1]), × √(525600 / stepMinutes) × 100. Entry t−1
 * of the result is step t. Gives NaN at every step when there is only one path, and NaN at a step
 * where any path's return is not finite (NaN propagates, as in numpy).
 * Throws `RangeError` for ragged or empty paths or a non-positive `stepMinutes`.
 * @example forecastVolatility([[100, 101], [100, 99]], 5) // => [458.53…] (one step)
 */
export function forecastVolatility(
  paths: readonly (readonly number[])[],
  stepMinutes: number,
): number[] {
  const pointCount = requirePathMatrix("forecastVolatility", paths);
  if (!(stepMinutes > 0 && Number.isFinite(stepMinutes))) {
    throw new RangeError(`forecastVolatility requires a positive stepMinutes, got ${stepMinutes}`);
  }
  const volatilities: number[] = [];
  for (let step = 1; step < pointCount; step++) {
    const returns = paths.map((path) => Math.log(path[step] / path[step - 1]));
    volatilities.push(crossPathVolatility(returns, stepMinutes));
  }
  return volatilities;
}

/**
 * One step of {@link forecastVolatility}: the sample std (ddof 1) of the paths' log returns at the
 * step × √(525600 / stepMinutes) × 100; NaN for fewer than two returns or a return that is not
 * finite. For a caller that has the returns already (in any array of numbers).
 * Throws `RangeError` for a non-positive `stepMinutes`.
 * @example crossPathVolatility([Math.log(1.01), Math.log(0.99)], 5) // => 458.53…
 */
export function crossPathVolatility(
  returns: readonly number[] | Float64Array,
  stepMinutes: number,
): number {
  if (!(stepMinutes > 0 && Number.isFinite(stepMinutes))) {
    throw new RangeError(`crossPathVolatility requires a positive stepMinutes, got ${stepMinutes}`);
  }
  if (returns.length < 2) return NaN;
  for (let index = 0; index < returns.length; index++) {
    if (!Number.isFinite(returns[index])) return NaN;
  }
  const annualization = Math.sqrt(MINUTES_PER_YEAR / stepMinutes) * 100;
  // simple-statistics reads only the length and the elements, which a Float64Array has
  return sampleStandardDeviation(returns as number[]) * annualization;
}

/**
 * The realized volatility points of a volatility record from its listed returns (the `returns`
 * of `realized.prices`, null where not computable): the entries cut into blocks of `blockEntries`
 * aligned to the end (the first block holds the remainder), at most `maxPoints` blocks, the
 * oldest; per block the sample std (ddof 1) of its non-null returns × √525600 × 100, NaN below 2.
 * Throws `RangeError` unless `blockEntries` and `maxPoints` are positive integers.
 * @example realizedEntryVolatility([null, 0.01, -0.01, 0.01, -0.01], 2, 31) // => [NaN, 1661.3…, 1661.3…]
 */
export function realizedEntryVolatility(
  returns: readonly (number | null)[],
  blockEntries: number,
  maxPoints: number,
): number[] {
  const max = Number.MAX_SAFE_INTEGER;
  requireIntegerInRange("realizedEntryVolatility", "blockEntries", blockEntries, 1, max);
  requireIntegerInRange("realizedEntryVolatility", "maxPoints", maxPoints, 1, max);
  const firstBlockEnd = returns.length % blockEntries || blockEntries;
  const volatilities: number[] = [];
  for (
    let start = 0, end = firstBlockEnd;
    start < returns.length && volatilities.length < maxPoints;
    start = end, end += blockEntries
  ) {
    const block = returns.slice(start, end).filter((value): value is number => value !== null);
    volatilities.push(
      block.length < 2 ? NaN : sampleStandardDeviation(block) * Math.sqrt(MINUTES_PER_YEAR) * 100,
    );
  }
  return volatilities;
}
