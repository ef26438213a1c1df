import { describe, expect, it } from "vitest";
import { touchBridgeProbabilities } from "../../src/core/touchBridgeProbabilities.ts";
import { touchProbabilities } from "../../src/core/touchProbabilities.ts";
import { pooledLogReturnVariance } from "../../src/core/volatility.ts";
import { meanStandardError } from "../../src/reference/stderr.ts";
import { normalCdf } from "../reference/closedForms.ts";
import { ensembleOf, expectRelativelyClose, gbmEnsemble, randomEnsemble } from "./ensembles.ts";

/**
 * The per-path bridge touch probability written out directly: every step of the window, every
 * level, no pruning; 1 for a path that touches at an observed point.
 */
function naiveBridge(
  row: readonly number[],
  level: number,
  direction: "up" | "down",
  fromStep: number,
  toStep: number,
  variance: number,
): number {
  let survival = 1;
  for (let step = fromStep; step <= toStep; step++) {
    if (direction === "up" ? row[step] >= level : row[step] <= level) return 1;
    if (step === fromStep) continue;
    const fromA = Math.log(row[step - 1] / level);
    const fromB = Math.log(row[step] / level);
    survival *= 1 - Math.exp((-2 * fromA * fromB) / variance);
  }
  return 1 - survival;
}

describe("touchBridgeProbabilities", () => {
  it("touchBridgeProbabilities applies exp(−2(ℓ−a)(ℓ−b)/σ²Δ) per step and multiplies the survivals", () => {
    const { values, nPaths, nPoints } = ensembleOf([[100, 101, 100.5]]);
    const variance = 1e-4;
    const level = 102;
    const step = (a: number, b: number) =>
      Math.exp((-2 * Math.log(level / a) * Math.log(level / b)) / variance);
    const expected = 1 - (1 - step(100, 101)) * (1 - step(101, 100.5));
    const result = touchBridgeProbabilities(values, nPaths, nPoints, {
      levels: Float64Array.of(level, 99),
      windowEndSteps: Int32Array.of(1, 2),
      stepLogVariance: variance,
    });
    expectRelativelyClose(result.up.values[2], expected, 1e-13);
    expectRelativelyClose(result.up.values[0], step(100, 101), 1e-13);
    const downStep = (a: number, b: number) =>
      Math.exp((-2 * Math.log(a / 99) * Math.log(b / 99)) / variance);
    expectRelativelyClose(
      result.down.values[3],
      1 - (1 - downStep(100, 101)) * (1 - downStep(101, 100.5)),
      1e-13,
    );
  });

  it("touchBridgeProbabilities equals the unpruned per-path formula averaged over paths", () => {
    const ensemble = gbmEnsemble(11, {
      startPrice: 100,
      annualVolatility: 0.8,
      stepMinutes: 5,
      stepCount: 60,
      pathCount: 400,
    });
    const { rows, values, nPaths, nPoints } = ensemble;
    const variance = pooledLogReturnVariance(values, nPaths, nPoints);
    const levels = Float64Array.of(100.2, 99.8, 101, 99, 102.5, 97.5, 100);
    const windows = Int32Array.of(5, 20, 60);
    for (const fromStep of [0, 3]) {
      const result = touchBridgeProbabilities(values, nPaths, nPoints, {
        levels,
        windowEndSteps: windows,
        stepLogVariance: variance,
        fromStep,
      });
      windows.forEach((end, window) => {
        levels.forEach((level, levelIndex) => {
          const at = window * levels.length + levelIndex;
          for (const direction of ["up", "down"] as const) {
            const perPath = rows.map((row) =>
              naiveBridge(row, level, direction, fromStep, end, variance),
            );
            const mean = perPath.reduce((sum, value) => sum + value, 0) / nPaths;
            expectRelativelyClose(result[direction].values[at], mean, 1e-12);
            expectRelativelyClose(
              result[direction].standardErrors[at],
              meanStandardError(perPath),
              1e-9,
            );
          }
        });
      });
    }
  });

  it("touchBridgeProbabilities with zero variance equals the discrete touch probabilities", () => {
    const { values, nPaths, nPoints } = randomEnsemble(5, 40, 30);
    const levels = Float64Array.of(95, 100, 103.5, 0, -2, NaN);
    const windows = Int32Array.of(3, 29);
    const bridge = touchBridgeProbabilities(values, nPaths, nPoints, {
      levels,
      windowEndSteps: windows,
      stepLogVariance: 0,
      fromStep: 1,
    });
    const discrete = touchProbabilities(values, nPaths, nPoints, {
      levels,
      windowEndSteps: windows,
      fromStep: 1,
    });
    expect(Array.from(bridge.up.values)).toEqual(Array.from(discrete.up.values));
    expect(Array.from(bridge.down.values)).toEqual(Array.from(discrete.down.values));
  });

  it("touchBridgeProbabilities on driftless log-Brownian paths matches the reflection principle where discrete monitoring falls short", () => {
    // ln S is a Brownian motion without drift (μ = σ²/2), so the continuously monitored touch
    // probability of a level at log-distance b within T is 2Φ(−b/(σ√T)). The discrete estimate
    // misses crossings between the 5-minute points; the bridge-corrected one must not.
    const sigma = 0.6;
    const stepMinutes = 5;
    const stepYears = stepMinutes / 525600;
    const { values, nPaths, nPoints } = gbmEnsemble(2024, {
      startPrice: 100,
      annualVolatility: sigma,
      annualDrift: (sigma * sigma) / 2,
      stepMinutes,
      stepCount: 288,
      pathCount: 20_000,
    });
    const levels = Float64Array.of(102, 98, 103, 97);
    const windows = Int32Array.of(72, 144, 288);
    const variance = pooledLogReturnVariance(values, nPaths, nPoints);
    expectRelativelyClose(variance, sigma * sigma * stepYears, 0.01);
    const discrete = touchProbabilities(values, nPaths, nPoints, {
      levels,
      windowEndSteps: windows,
    });
    const bridge = touchBridgeProbabilities(values, nPaths, nPoints, {
      levels,
      windowEndSteps: windows,
      stepLogVariance: variance,
    });
    windows.forEach((end, window) => {
      levels.forEach((level, levelIndex) => {
        const at = window * levels.length + levelIndex;
        const direction = level > 100 ? "up" : "down";
        const distance = Math.abs(Math.log(level / 100));
        const continuous = 2 * normalCdf(-distance / (sigma * Math.sqrt(end * stepYears)));
        const discreteEstimate = discrete[direction].values[at];
        expect(continuous - discreteEstimate).toBeGreaterThan(
          3 * discrete[direction].standardErrors[at],
        );
        const bridgeEstimate = bridge[direction].values[at];
        expect(Math.abs(bridgeEstimate - continuous)).toBeLessThan(
          3 * bridge[direction].standardErrors[at],
        );
        expect(bridgeEstimate).toBeGreaterThan(discreteEstimate);
      });
    });
  });

  it("touchBridgeProbabilities gives NaN for a bad variance, a NaN level, and windows with a non-positive or non-finite point", () => {
    const { values, nPaths, nPoints } = ensembleOf([
      [100, 99, 98, 97],
      [100, 101, 0, 103],
    ]);
    const levels = Float64Array.of(98, NaN);
    const windows = Int32Array.of(1, 3);
    const result = touchBridgeProbabilities(values, nPaths, nPoints, {
      levels,
      windowEndSteps: windows,
      stepLogVariance: 1e-4,
    });
    expect(result.down.values[0]).toBeGreaterThan(0);
    expect(Array.from(result.down.values.subarray(1))).toEqual([NaN, NaN, NaN]);
    for (const variance of [-1e-4, NaN, Infinity]) {
      const bad = touchBridgeProbabilities(values, nPaths, nPoints, {
        levels,
        windowEndSteps: windows,
        stepLogVariance: variance,
      });
      expect(Array.from(bad.up.values)).toEqual([NaN, NaN, NaN, NaN]);
      expect(Array.from(bad.up.standardErrors)).toEqual([NaN, NaN, NaN, NaN]);
    }
    const empty = touchBridgeProbabilities(new Float64Array(0), 0, 4, {
      levels,
      windowEndSteps: windows,
      stepLogVariance: 1e-4,
    });
    expect(empty.up.values[0]).toBeNaN();
  });

  it("touchBridgeProbabilities rejects a shape mismatch", () => {
    expect(() =>
      touchBridgeProbabilities(new Float64Array(5), 2, 3, {
        levels: Float64Array.of(1),
        windowEndSteps: Int32Array.of(2),
        stepLogVariance: 1e-4,
      }),
    ).toThrow(
      "touchBridgeProbabilities requires values.length = nPaths × nPoints = 2 × 3 = 6, got 5",
    );
  });
});
