import { describe, expect, it } from "vitest";
import { simulateGbmPaths } from "../../src/reference/gbm.ts";
import { createRandom } from "../../src/reference/random.ts";
import { probabilityStandardError } from "../../src/reference/stderr.ts";
import { touchProbability } from "../../src/reference/touch.ts";
import { normalCdf } from "./closedForms.ts";

describe("touchProbability", () => {
  const paths = [
    [100, 97, 99, 104],
    [100, 101, 96, 100],
    [100, 100, 100, 100],
  ];

  it("touchProbability counts a point equal to the level as a touch (≥ up, ≤ down)", () => {
    expect(touchProbability(paths, 97, "down", 0, 3)).toBeCloseTo(2 / 3, 15);
    expect(touchProbability(paths, 104, "up", 0, 3)).toBeCloseTo(1 / 3, 15);
    expect(touchProbability(paths, 100, "up", 0, 0)).toBe(1);
  });

  it("touchProbability looks only at points fromStep..toStep, both inclusive", () => {
    expect(touchProbability(paths, 97, "down", 0, 1)).toBeCloseTo(1 / 3, 15);
    expect(touchProbability(paths, 97, "down", 2, 2)).toBeCloseTo(1 / 3, 15);
    expect(touchProbability(paths, 104, "up", 0, 2)).toBe(0);
  });

  it("touchProbability rejects a window outside the paths", () => {
    expect(() => touchProbability(paths, 97, "down", 0, 4)).toThrow(
      "touchProbability requires toStep to be an integer in [0, 3], got 4",
    );
    expect(() => touchProbability(paths, 97, "down", 2, 1)).toThrow(
      "touchProbability requires toStep to be an integer in [2, 3], got 1",
    );
  });

  it("touchProbability on driftless GBM lies below the reflection-principle closed form, close to its discrete-monitoring correction", () => {
    // ln S is Brownian motion without drift when μ = σ²/2, so for a barrier at log-distance b the
    // continuously monitored touch probability is 2Φ(−|b|/(σ√T)) (reflection principle). Monitoring
    // only every 5 minutes misses crossings between points, so the estimate must be lower; the
    // Broadie–Glasserman–Kou correction (shift the barrier away by 0.5826·σ√Δt) predicts by how much.
    const sigma = 0.6;
    const stepMinutes = 5;
    const stepYears = stepMinutes / 525600;
    const horizonYears = 288 * stepYears;
    const pathCount = 40_000;
    const gbm = simulateGbmPaths(createRandom(31), {
      startPrice: 100,
      annualVolatility: sigma,
      annualDrift: (sigma * sigma) / 2,
      stepMinutes,
      stepCount: 288,
      pathCount,
    });
    const shift = 0.5826 * sigma * Math.sqrt(stepYears);
    for (const [level, direction] of [
      [97, "down"],
      [103.5, "up"],
    ] as const) {
      const distance = Math.abs(Math.log(level / 100));
      const continuous = 2 * normalCdf(-distance / (sigma * Math.sqrt(horizonYears)));
      const corrected = 2 * normalCdf(-(distance + shift) / (sigma * Math.sqrt(horizonYears)));
      const estimate = touchProbability(gbm, level, direction, 0, 288);
      const standardError = probabilityStandardError(estimate, pathCount);
      expect(continuous - estimate).toBeGreaterThan(3 * standardError);
      expect(Math.abs(estimate - corrected)).toBeLessThan(4 * standardError + 0.003);
    }
  });
});
