import { describe, expect, it } from "vitest";
import {
  forecastVolatility,
  logReturn,
  pooledLogReturnVariance,
  realizedVolatility,
} from "../../src/core/volatility.ts";
import { createRandom } from "../../src/reference/random.ts";
import {
  forecastVolatility as referenceForecastVolatility,
  realizedVolatility as referenceRealizedVolatility,
} from "../../src/reference/volatility.ts";
import { numpyAvailable, runPython, toJsonNumbers } from "../reference/python.ts";
import { ENSEMBLE_SIZES, expectRelativelyClose, gbmEnsemble, randomEnsemble } from "./ensembles.ts";

/** 1-minute prices of a random walk from 68,000 with gaps (NaN), a zero and a negative price. */
function realizedPrices(seed: number, count: number): Float64Array {
  const random = createRandom(seed);
  const prices = new Float64Array(count);
  let price = 68000;
  for (let index = 0; index < count; index++) {
    price *= Math.exp(0.0008 * random.normal());
    prices[index] = price;
  }
  prices[17] = NaN;
  prices[18] = NaN;
  prices[200] = 0;
  prices[333] = -5;
  for (let index = 400; index < 430; index++) prices[index] = NaN;
  return prices;
}

describe("logReturn", () => {
  it.skipIf(!numpyAvailable)("logReturn is ln(p/q) to a few ulps (50-digit decimal check)", () => {
    const random = createRandom(31);
    const pairs: [number, number][] = [
      [101, 100],
      [68000.5, 68000],
      [68000, 68000.00000001],
      [2, 1],
      [1, 1.0199],
      [1, 1.0203],
      [100, 100],
    ];
    for (let index = 0; index < 200; index++) {
      const previous = 68000 * Math.exp(random.normal());
      pairs.push([previous * Math.exp(0.002 * random.normal()), previous]);
    }
    const expected = runPython(
      [
        "from decimal import Decimal as D, getcontext",
        "getcontext().prec = 50",
        "print(json.dumps([float((D(p) / D(q)).ln()) for p, q in data]))",
      ].join("\n"),
      pairs,
    ) as number[];
    pairs.forEach(([price, previous], at) => {
      const error = Math.abs(logReturn(price, previous) - expected[at]);
      expect(error).toBeLessThanOrEqual(4 * Number.EPSILON * Math.abs(expected[at]));
    });
  });

  it("logReturn passes non-finite and non-positive prices to Math.log", () => {
    expect(logReturn(0, 100)).toBe(-Infinity);
    expect(logReturn(100, 0)).toBe(Infinity);
    expect(logReturn(NaN, 100)).toBeNaN();
    expect(logReturn(-1, 100)).toBeNaN();
    expect(logReturn(Infinity, 100)).toBe(Infinity);
  });
});

describe("realizedVolatility", () => {
  it("realizedVolatility equals the reference: blocks of returns, remainder last, gaps left out", () => {
    const prices = realizedPrices(1, 1432);
    for (const blockSize of [1, 2, 15, 1431, 5000]) {
      const result = realizedVolatility(prices, blockSize);
      const expected = referenceRealizedVolatility(Array.from(prices), blockSize);
      expect(result.length).toBe(expected.length);
      expected.forEach((value, block) => expectRelativelyClose(result[block], value, 1e-12));
    }
    expect(realizedVolatility(prices, 15).length).toBe(96);
  });

  it.skipIf(!numpyAvailable)("realizedVolatility agrees with numpy's std(ddof=1) per block", () => {
    const prices = realizedPrices(2, 241);
    const expected = runPython(
      [
        "p = np.array(data, dtype=float)",
        "with np.errstate(all='ignore'): r = np.log(p[1:] / p[:-1])",
        "out = []",
        "for start in range(0, len(r), 15):",
        "    block = r[start:start + 15]; block = block[np.isfinite(block)]",
        "    out.append(float(np.std(block, ddof=1) * np.sqrt(525600) * 100) if len(block) >= 2 else None)",
        "print(json.dumps(out))",
      ].join("\n"),
      toJsonNumbers(Array.from(prices)),
    ) as (number | null)[];
    const result = realizedVolatility(prices, 15);
    expected.forEach((value, block) => expectRelativelyClose(result[block], value ?? NaN, 1e-12));
  });

  it("realizedVolatility of fewer than two prices is empty; a block with < 2 finite returns is NaN", () => {
    expect(realizedVolatility(Float64Array.of(100), 15).length).toBe(0);
    expect(realizedVolatility(new Float64Array(0), 15).length).toBe(0);
    const result = realizedVolatility(Float64Array.of(100, 101, NaN, 100, 101, 102), 2);
    expect(result[0]).toBeNaN(); // returns 100→101 and 101→NaN: one finite
    expect(result[1]).toBeNaN(); // NaN→100 and 100→101: one finite
    expect(result[2]).toBeNaN(); // one return in the remainder block
    expect(() => realizedVolatility(Float64Array.of(1, 2), 0)).toThrow(
      "realizedVolatility requires blockSize to be a positive integer, got 0",
    );
    expect(() => realizedVolatility(Float64Array.of(1, 2, 3), 1, new Float64Array(1))).toThrow(
      "realizedVolatility requires out of length 2, got 1",
    );
  });
});

describe("forecastVolatility", () => {
  it("forecastVolatility equals the reference per step across paths", () => {
    ENSEMBLE_SIZES.forEach(([nPaths, nPoints], index) => {
      const { rows, values } = randomEnsemble(600 + index, nPaths, nPoints);
      const result = forecastVolatility(values, nPaths, nPoints, { stepMinutes: 5 });
      const expected = referenceForecastVolatility(rows, 5);
      expect(result.length).toBe(expected.length);
      expected.forEach((value, step) => expectRelativelyClose(result[step], value, 1e-12));
    });
  });

  it("forecastVolatility on GBM recovers σ: the mean over steps lies within 3 standard errors", () => {
    const sigma = 0.5;
    const { values, nPaths, nPoints } = gbmEnsemble(3, {
      startPrice: 68000,
      annualVolatility: sigma,
      stepMinutes: 5,
      stepCount: 96,
      pathCount: 2000,
    });
    const result = forecastVolatility(values, nPaths, nPoints, { stepMinutes: 5 });
    const mean = result.reduce((sum, value) => sum + value, 0) / result.length;
    // Each step's sample std has relative standard error ≈ 1/√(2(n−1)); steps are independent.
    const standardError = (sigma * 100) / Math.sqrt(2 * (nPaths - 1) * result.length);
    expect(Math.abs(mean - sigma * 100)).toBeLessThan(3 * standardError);
  });

  it("forecastVolatility is NaN at steps with a non-finite return and everywhere for one path", () => {
    const values = Float64Array.of(100, 101, 0, 102, 100, 99, 98, 97, 100, 100.5, NaN, 101);
    const result = forecastVolatility(values, 3, 4, { stepMinutes: 5 });
    expect(result[0]).toBeGreaterThan(0);
    expect(Array.from(result.subarray(1))).toEqual([NaN, NaN]);
    expect(
      Array.from(forecastVolatility(Float64Array.of(100, 101, 102), 1, 3, { stepMinutes: 5 })),
    ).toEqual([NaN, NaN]);
    expect(
      Array.from(forecastVolatility(Float64Array.of(100, 101, 100, 99), 2, 2, { stepMinutes: -5 })),
    ).toEqual([NaN]);
    expect(() => forecastVolatility(new Float64Array(5), 2, 3, { stepMinutes: 5 })).toThrow(
      "forecastVolatility requires values.length = nPaths × nPoints = 2 × 3 = 6, got 5",
    );
  });
});

describe("pooledLogReturnVariance", () => {
  it.skipIf(!numpyAvailable)(
    "pooledLogReturnVariance equals numpy's var(ddof=1) of all log returns",
    () => {
      const { rows, values, nPaths, nPoints } = gbmEnsemble(4, {
        startPrice: 68000,
        annualVolatility: 0.6,
        stepMinutes: 5,
        stepCount: 48,
        pathCount: 300,
      });
      const expected = runPython(
        "p = np.array(data); print(json.dumps(float(np.var(np.diff(np.log(p), axis=1), ddof=1))))",
        rows,
      ) as number;
      expectRelativelyClose(pooledLogReturnVariance(values, nPaths, nPoints), expected, 1e-12);
    },
  );

  it("pooledLogReturnVariance is NaN for a non-finite return or fewer than two returns", () => {
    expect(pooledLogReturnVariance(Float64Array.of(100, 101, 100, 0), 2, 2)).toBeNaN();
    expect(pooledLogReturnVariance(Float64Array.of(100, NaN, 100, 101), 2, 2)).toBeNaN();
    expect(pooledLogReturnVariance(Float64Array.of(100, 101), 1, 2)).toBeNaN();
    expect(pooledLogReturnVariance(Float64Array.of(100, 101, 100, 99), 2, 2)).toBeGreaterThan(0);
  });
});
