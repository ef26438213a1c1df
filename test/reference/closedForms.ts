/**
 * Closed forms the tests compare against: the standard normal CDF (via simple-statistics' erf,
 * Numerical Recipes erfc, |relative error| < 1.2e-7) and its inverse (python's
 * statistics.NormalDist, Wichura's AS241, double precision).
 */

import { errorFunction } from "simple-statistics";
import { runPython } from "./python.ts";

/** Φ(x), standard normal CDF. */
export function normalCdf(x: number): number {
  return 0.5 * (1 + errorFunction(x / Math.SQRT2));
}

/** Φ⁻¹(p) for each p, from python's statistics.NormalDist (exact to double precision). */
export function normalQuantiles(probabilities: readonly number[]): number[] {
  return runPython(
    "from statistics import NormalDist\nprint(json.dumps([NormalDist().inv_cdf(p) for p in data]))",
    probabilities,
  ) as number[];
}
