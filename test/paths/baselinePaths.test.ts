/**
 * The baseline models' generator: the normal stream's moments against the standard normal's closed
 * forms, with Monte-Carlo tolerances of 5 standard errors, and the two models' definitions.
 */

import { describe, expect, it } from "vitest";
import {
  baselineSeed,
  NormalStream,
  simulateBaselinePaths,
} from "../../src/paths/baselinePaths.ts";

describe("NormalStream", () => {
  it("draws standard normals: mean, variance, fourth moment and a quantile within 5 standard errors", () => {
    const n = 1_000_000;
    const draws = new NormalStream(20_261_121).fill(new Float64Array(n));
    let sum = 0;
    let squares = 0;
    let fourth = 0;
    let below = 0;
    for (let index = 0; index < n; ++index) {
      const z = draws[index];
      sum += z;
      squares += z * z;
      fourth += z ** 4;
      if (z < 1.959963984540054) below++;
    }
    // Standard errors for n iid N(0, 1): mean 1/√n; E[z²] √(2/n); E[z⁴] √(96/n) (Var z⁴ = 105 − 9);
    // a probability p, √(p(1 − p)/n).
    expect(Math.abs(sum / n)).toBeLessThan(5 / Math.sqrt(n));
    expect(Math.abs(squares / n - 1)).toBeLessThan(5 * Math.sqrt(2 / n));
    expect(Math.abs(fourth / n - 3)).toBeLessThan(5 * Math.sqrt(96 / n));
    expect(Math.abs(below / n - 0.975)).toBeLessThan(5 * Math.sqrt((0.975 * 0.025) / n));
  });

  it("gives the same numbers for the same seed, other numbers for another seed", () => {
    const first = new NormalStream(7).fill(new Float64Array(11));
    expect(new NormalStream(7).fill(new Float64Array(11))).toEqual(first);
    expect(new NormalStream(8).fill(new Float64Array(11))).not.toEqual(first);
    expect(first.every(Number.isFinite)).toBe(true);
    expect(() => new NormalStream(Number.NaN)).toThrow(RangeError);
  });

  it("baselineSeed depends on the seed, the asset and the start", () => {
    const seed = baselineSeed(1, "BTC", 1795251600);
    expect(baselineSeed(1, "BTC", 1795251600)).toBe(seed);
    expect(baselineSeed(2, "BTC", 1795251600)).not.toBe(seed);
    expect(baselineSeed(1, "ETH", 1795251600)).not.toBe(seed);
    expect(baselineSeed(1, "BTC", 1795251660)).not.toBe(seed);
  });
});

describe("simulateBaselinePaths", () => {
  const common = { startPrice: 2000, stepVolatility: 0.002, nPaths: 50, nPoints: 61, seed: 3 };

  it("gbm and random-walk use the same shocks: Z = (ln(S₊/S) + σ²/2)/σ = ΔS/(S0·σ)", () => {
    const gbm = simulateBaselinePaths({ ...common, model: "gbm" });
    const walk = simulateBaselinePaths({ ...common, model: "random-walk" });
    const sigma = common.stepVolatility;
    for (let path = 0; path < common.nPaths; ++path) {
      const offset = path * common.nPoints;
      expect(gbm[offset]).toBe(2000);
      expect(walk[offset]).toBe(2000);
      for (let point = 1; point < common.nPoints; ++point) {
        const index = offset + point;
        const fromGbm = (Math.log(gbm[index] / gbm[index - 1]) + (sigma * sigma) / 2) / sigma;
        const fromWalk = (walk[index] - walk[index - 1]) / (2000 * sigma);
        expect(fromGbm).toBeCloseTo(fromWalk, 9);
      }
    }
  });

  it("σ = 0 gives flat paths; the doc example holds", () => {
    const flat = simulateBaselinePaths({ ...common, model: "gbm", stepVolatility: 0 });
    expect(flat.every((price) => price === 2000)).toBe(true);
    const values = simulateBaselinePaths({
      model: "random-walk",
      startPrice: 100,
      stepVolatility: 0.01,
      nPaths: 2,
      nPoints: 3,
      seed: 1,
    });
    expect(values).toHaveLength(6);
    expect([values[0], values[3]]).toEqual([100, 100]);
  });

  it("throws RangeError for structural mistakes, naming the field", () => {
    expect(() => simulateBaselinePaths({ ...common, model: "gbm", startPrice: 0 })).toThrow(
      "simulateBaselinePaths requires a positive startPrice, got 0",
    );
    expect(() => simulateBaselinePaths({ ...common, model: "gbm", stepVolatility: -1 })).toThrow(
      RangeError,
    );
    expect(() => simulateBaselinePaths({ ...common, model: "gbm", nPoints: 1.5 })).toThrow(
      "simulateBaselinePaths requires a positive integer nPoints, got 1.5",
    );
    expect(() => simulateBaselinePaths({ ...common, model: "gbm" }, new Float64Array(10))).toThrow(
      "simulateBaselinePaths requires out.length = nPaths × nPoints = 3050, got 10",
    );
  });
});
