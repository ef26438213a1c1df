import { describe, expect, it } from "vitest";
import { simulateGbmPaths } from "../../src/reference/gbm.ts";
import { createRandom } from "../../src/reference/random.ts";
import {
  crossPathVolatility,
  forecastVolatility,
  realizedVolatility,
} from "../../src/reference/volatility.ts";
import { numpyAvailable, runPython, toJsonNumbers } from "./python.ts";

describe("realizedVolatility", () => {
  it.skipIf(!numpyAvailable)(
    "realizedVolatility equals numpy's ddof-1 std of 1-minute log returns per block × √525600 × 100, the last block partial",
    () => {
      const random = createRandom(12);
      const prices = [100];
      for (let minute = 1; minute < 38; minute++) {
        prices.push(prices[minute - 1] * Math.exp(0.001 * random.normal()));
      }
      prices[20] = NaN; // removes returns 20 and 21 (indices 19, 20) from block 1
      const expected = runPython(
        [
          "p = np.array(data, dtype=float)",
          "r = np.log(p[1:] / p[:-1])",
          "out = []",
          "for start in range(0, len(r), 15):",
          "    block = r[start:start + 15]",
          "    block = block[np.isfinite(block)]",
          "    out.append(float(np.std(block, ddof=1) * np.sqrt(525600) * 100) if len(block) >= 2 else None)",
          "print(json.dumps(out))",
        ].join("\n"),
        toJsonNumbers(prices),
      ) as (number | null)[];
      const actual = realizedVolatility(prices, 15);
      expect(actual).toHaveLength(3); // 37 returns → 15 + 15 + 7
      actual.forEach((value, index) => expect(value).toBeCloseTo(expected[index]!, 9));
    },
  );

  it("realizedVolatility is NaN for a block with fewer than 2 finite returns", () => {
    expect(realizedVolatility([100, 101, 102, NaN, 103], 2)[1]).toBeNaN();
    expect(realizedVolatility([100, 101, 102], 1)).toEqual([NaN, NaN]); // one return per block
    expect(Number.isFinite(realizedVolatility([100, 101, 102], 3)[0])).toBe(true); // two returns
  });

  it("realizedVolatility recovers the volatility of simulated 1-minute GBM prices", () => {
    // Over 200 blocks of 15 returns, the mean of the per-block variances estimates σ² without bias;
    // its standard error is σ²·√(2/14)/√200.
    const sigma = 0.5;
    const [path] = simulateGbmPaths(createRandom(21), {
      startPrice: 100,
      annualVolatility: sigma,
      stepMinutes: 1,
      stepCount: 3000,
      pathCount: 1,
    });
    const volatilities = realizedVolatility(path, 15);
    expect(volatilities).toHaveLength(200);
    const meanVariance =
      volatilities.reduce((sum, value) => sum + (value / 100) ** 2, 0) / volatilities.length;
    expect(Math.abs(meanVariance - sigma ** 2)).toBeLessThan(
      (4 * sigma ** 2 * Math.sqrt(2 / 14)) / Math.sqrt(200),
    );
  });

  it("realizedVolatility rejects a block size that is not a positive integer", () => {
    expect(() => realizedVolatility([1, 2, 3], 0)).toThrow(
      "realizedVolatility requires blockSize to be an integer in [1, 9007199254740991], got 0",
    );
  });
});

describe("forecastVolatility", () => {
  it.skipIf(!numpyAvailable)(
    "forecastVolatility equals numpy's ddof-1 std across paths of step log returns × √(525600/step) × 100",
    () => {
      const paths = simulateGbmPaths(createRandom(5), {
        startPrice: 2500,
        annualVolatility: 0.7,
        stepMinutes: 5,
        stepCount: 6,
        pathCount: 25,
      });
      const expected = runPython(
        "x = np.array(data)\nr = np.log(x[:, 1:] / x[:, :-1])\nprint(json.dumps((np.std(r, axis=0, ddof=1) * np.sqrt(525600 / 5) * 100).tolist()))",
        paths,
      ) as number[];
      const actual = forecastVolatility(paths, 5);
      expect(actual).toHaveLength(6);
      actual.forEach((value, index) => expect(value).toBeCloseTo(expected[index], 9));
    },
  );

  it("forecastVolatility recovers the GBM volatility at every step, within sampling error", () => {
    // The sample std of n normal returns has standard error ≈ σ/√(2(n−1)).
    const sigma = 0.6;
    const pathCount = 4000;
    const paths = simulateGbmPaths(createRandom(9), {
      startPrice: 150,
      annualVolatility: sigma,
      stepMinutes: 5,
      stepCount: 12,
      pathCount,
    });
    for (const value of forecastVolatility(paths, 5)) {
      expect(Math.abs(value - 100 * sigma)).toBeLessThan(
        (4 * 100 * sigma) / Math.sqrt(2 * (pathCount - 1)),
      );
    }
  });

  it("forecastVolatility is NaN with a single path", () => {
    expect(forecastVolatility([[100, 101, 99]], 5)).toEqual([NaN, NaN]);
  });

  it("crossPathVolatility of a step's returns in a Float64Array is that step of forecastVolatility", () => {
    const paths = [
      [100, 101, 99.5],
      [100, 98, 97],
      [100, 100.5, 103],
    ];
    const [first, second] = forecastVolatility(paths, 5);
    const returnsAt = (step: number) =>
      Float64Array.from(paths, (path) => Math.log(path[step] / path[step - 1]));
    expect(Object.is(crossPathVolatility(returnsAt(1), 5), first)).toBe(true);
    expect(Object.is(crossPathVolatility(returnsAt(2), 5), second)).toBe(true);
    // the bits forecastVolatility gave before it called crossPathVolatility (commit 6f37c4c)
    expect([first, second]).toEqual([524.1953940124342, 700.1585283676876]);
    expect(crossPathVolatility(Float64Array.of(0.01, NaN, 0.02), 5)).toBeNaN();
    expect(crossPathVolatility([0.01], 5)).toBeNaN();
    expect(() => crossPathVolatility([0.01, 0.02], 0)).toThrow(/positive stepMinutes, got 0/);
  });
});
