/**
 * Volatility: forecast volatility per step across paths (path-major input, one pass) and realized
 * volatility in blocks, beside naive JS and numpy.
 */

import { forecastVolatility, realizedVolatility } from "../../src/core/volatility.ts";
import { defineSuite, MINERS, PATHS_PER_MINER, POINTS, type BenchCase } from "../harness.ts";

/** The naive JS version: per step, the returns of every path, then a two-pass sample std. */
function forecastNaive(paths: readonly number[][]): number[] {
  const result: number[] = [];
  for (let step = 1; step < POINTS; step++) {
    const returns = paths.map((path) => Math.log(path[step] / path[step - 1]));
    const mean = returns.reduce((sum, value) => sum + value, 0) / returns.length;
    const variance =
      returns.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (returns.length - 1);
    result.push(Math.sqrt(variance) * Math.sqrt(525600 / 5) * 100);
  }
  return result;
}

export const suite = defineSuite({
  name: "volatility",
  cases: (data) => {
    const nPaths = MINERS * PATHS_PER_MINER;
    const paths = Array.from({ length: nPaths }, (_, path) =>
      Array.from(data.pooled.subarray(path * POINTS, (path + 1) * POINTS)),
    );
    const out = new Float64Array(POINTS - 1);
    const cases: BenchCase[] = [
      {
        name: "forecastVolatility (every step, path-major)",
        size: "10,000 × 289",
        pathlab: () => forecastVolatility(data.pooled, nPaths, POINTS, { stepMinutes: 5, out }),
        naive: () => forecastNaive(paths),
        peer: { script: "volatility", case: "forecast" },
      },
      {
        name: "realizedVolatility (blocks of 15 returns)",
        size: "289 prices",
        pathlab: () => realizedVolatility(data.realized, 15),
        peer: { script: "volatility", case: "realized" },
      },
    ];
    return cases;
  },
});
