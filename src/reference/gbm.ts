/**
 * Geometric Brownian motion paths, simulated exactly on a grid, for closed-form tests and the
 * sandbox's synthetic miners.
 */

import type { Random } from "./random.ts";
import { requireIntegerInRange } from "./validate.ts";

/** Minutes in a 365-day year: the time unit of `annualVolatility` and `annualDrift`. */
const MINUTES_PER_YEAR = 525600;

/**
 * Parameters of {@link simulateGbmPaths}.
 * @example
 * const parameters: GbmParameters = {
 *   startPrice: 68000, annualVolatility: 0.5, stepMinutes: 5, stepCount: 288, pathCount: 1000,
 * };
 */
export interface GbmParameters {
  /** Price at point 0 of every path (> 0). */
  readonly startPrice: number;
  /** σ per √year as a fraction (0.5 = 50 % annualized volatility). */
  readonly annualVolatility: number;
  /** μ per year as a fraction; 0 (the default) gives a martingale. */
  readonly annualDrift?: number;
  /** Minutes between consecutive points (5 for 24h prompts, 1 for 1h prompts). */
  readonly stepMinutes: number;
  /** Steps after point 0: each path has stepCount + 1 points (288 for 24h at 5 minutes). */
  readonly stepCount: number;
  /** Number of paths. */
  readonly pathCount: number;
}

/**
 * Paths of geometric Brownian motion dS = μS dt + σS dW, simulated exactly on the grid
 * (no discretization error): S(t+Δ) = S(t)·exp((μ − σ²/2)Δ + σ√Δ·Z), Δ = stepMinutes / 525600
 * years, Z standard normal from `random`. Returns `paths[p][t]`, point 0 = startPrice.
 * Throws `RangeError` for a non-positive start price, step or volatility below 0, or counts that
 * are not positive integers.
 * @example
 * const paths = simulateGbmPaths(createRandom(7), {
 *   startPrice: 100, annualVolatility: 0.5, stepMinutes: 5, stepCount: 288, pathCount: 1000,
 * }); // 1000 paths of 289 points
 */
export function simulateGbmPaths(random: Random, parameters: GbmParameters): number[][] {
  const { startPrice, annualVolatility, stepMinutes, stepCount, pathCount } = parameters;
  const annualDrift = parameters.annualDrift ?? 0;
  if (!(startPrice > 0 && Number.isFinite(startPrice))) {
    throw new RangeError(`simulateGbmPaths requires a positive startPrice, got ${startPrice}`);
  }
  if (!(annualVolatility >= 0 && Number.isFinite(annualVolatility))) {
    throw new RangeError(
      `simulateGbmPaths requires a finite annualVolatility ≥ 0, got ${annualVolatility}`,
    );
  }
  if (!(stepMinutes > 0 && Number.isFinite(stepMinutes))) {
    throw new RangeError(`simulateGbmPaths requires a positive stepMinutes, got ${stepMinutes}`);
  }
  if (!Number.isFinite(annualDrift)) {
    throw new RangeError(`simulateGbmPaths requires a finite annualDrift, got ${annualDrift}`);
  }
  requireIntegerInRange("simulateGbmPaths", "stepCount", stepCount, 1, Number.MAX_SAFE_INTEGER);
  requireIntegerInRange("simulateGbmPaths", "pathCount", pathCount, 1, Number.MAX_SAFE_INTEGER);
  const stepYears = stepMinutes / MINUTES_PER_YEAR;
  const driftPerStep = (annualDrift - (annualVolatility * annualVolatility) / 2) * stepYears;
  const volatilityPerStep = annualVolatility * Math.sqrt(stepYears);
  const paths: number[][] = [];
  for (let pathIndex = 0; pathIndex < pathCount; pathIndex++) {
    const path = [startPrice];
    for (let step = 1; step <= stepCount; step++) {
      path.push(path[step - 1] * Math.exp(driftPerStep + volatilityPerStep * random.normal()));
    }
    paths.push(path);
  }
  return paths;
}
