import { describe, expect, it } from "vitest";
import { simulateGbmPaths } from "../../src/reference/gbm.ts";
import { createRandom } from "../../src/reference/random.ts";
import { meanStandardError } from "../../src/reference/stderr.ts";

describe("simulateGbmPaths", () => {
  it("simulateGbmPaths gives E[S_T] = S0·e^{μT} and Var[ln(S_T/S0)] = σ²T", () => {
    const [startPrice, sigma, drift] = [100, 0.8, 2];
    const stepCount = 288;
    const years = (stepCount * 5) / 525600;
    const paths = simulateGbmPaths(createRandom(17), {
      startPrice,
      annualVolatility: sigma,
      annualDrift: drift,
      stepMinutes: 5,
      stepCount,
      pathCount: 20_000,
    });
    expect(paths[0]).toHaveLength(stepCount + 1);
    expect(paths.every((path) => path[0] === startPrice)).toBe(true);
    const terminal = paths.map((path) => path[stepCount]);
    const mean = terminal.reduce((sum, value) => sum + value, 0) / terminal.length;
    expect(Math.abs(mean - startPrice * Math.exp(drift * years))).toBeLessThan(
      4 * meanStandardError(terminal),
    );
    const logReturns = terminal.map((value) => Math.log(value / startPrice));
    const logMean = logReturns.reduce((sum, value) => sum + value, 0) / logReturns.length;
    const logVariance =
      logReturns.reduce((sum, value) => sum + (value - logMean) ** 2, 0) / (logReturns.length - 1);
    // s.e. of a sample variance of normals: σ²T·√(2/(n−1)).
    expect(Math.abs(logVariance - sigma ** 2 * years)).toBeLessThan(
      4 * sigma ** 2 * years * Math.sqrt(2 / 19_999),
    );
  });

  it("simulateGbmPaths gives E[ln(S_T/S0)] = (μ − σ²/2)T over a long horizon", () => {
    const [sigma, drift] = [0.8, 0.1];
    const years = (100 * 1440) / 525600; // 100 daily steps
    const paths = simulateGbmPaths(createRandom(18), {
      startPrice: 50,
      annualVolatility: sigma,
      annualDrift: drift,
      stepMinutes: 1440,
      stepCount: 100,
      pathCount: 20_000,
    });
    const logReturns = paths.map((path) => Math.log(path[100] / 50));
    const logMean = logReturns.reduce((sum, value) => sum + value, 0) / logReturns.length;
    expect(Math.abs(logMean - (drift - sigma ** 2 / 2) * years)).toBeLessThan(
      4 * meanStandardError(logReturns),
    );
  });

  it("simulateGbmPaths rejects a non-positive start price", () => {
    expect(() =>
      simulateGbmPaths(createRandom(1), {
        startPrice: 0,
        annualVolatility: 0.5,
        stepMinutes: 5,
        stepCount: 1,
        pathCount: 1,
      }),
    ).toThrow("simulateGbmPaths requires a positive startPrice, got 0");
  });
});
