import { describe, expect, it } from "vitest";
import { impermanentLoss, lpProbabilityLevels, lpRangeStatistics } from "../../src/reference/lp.ts";
import { createRandom } from "../../src/reference/random.ts";
import { meanStandardError } from "../../src/reference/stderr.ts";
import { numpyAvailable, runPython } from "./python.ts";

describe("impermanentLoss", () => {
  it("impermanentLoss reproduces the DOMAIN.md check values (L=1800, U=2200, P0=2000)", () => {
    expect(impermanentLoss(2000, 1800, 2200, 1500)).toBeCloseTo(0.12464992834, 11);
    expect(impermanentLoss(2000, 1800, 2200, 2100)).toBeCloseTo(0.006087450815, 11);
    expect(impermanentLoss(2000, 1800, 2200, 2500)).toBeCloseTo(0.085515083614, 11);
  });

  it("impermanentLoss is 0 at the start price and positive away from it", () => {
    expect(impermanentLoss(2000, 1800, 2200, 2000)).toBeCloseTo(0, 15);
    expect(impermanentLoss(2000, 1800, 2200, 1999)).toBeGreaterThan(0);
    expect(impermanentLoss(2000, 1800, 2200, 2001)).toBeGreaterThan(0);
  });

  it("impermanentLoss rejects a start price outside the range and an inverted range", () => {
    expect(() => impermanentLoss(2300, 1800, 2200, 2000)).toThrow(
      "impermanentLoss requires lower ≤ startPrice ≤ upper, got startPrice 2300 for [1800, 2200]",
    );
    expect(() => impermanentLoss(2000, 2200, 1800, 2000)).toThrow(
      "impermanentLoss requires 0 < lower < upper, got lower 2200 and upper 1800",
    );
  });
});

describe("lpRangeStatistics", () => {
  it("lpRangeStatistics counts strict insides: touching a bound leaves the range", () => {
    const paths = [
      [100, 101, 102, 103], // inside throughout
      [100, 110, 100, 100], // touches the upper bound 110 at point 1
      [100, 95, 89, 91], // leaves below at point 2
      [100, 90, 95, 96], // touches the lower bound 90 at point 1
    ];
    const statistics = lpRangeStatistics(paths, 90, 110, 5);
    expect(statistics.probabilityToStay).toBeCloseTo(1 / 4, 15);
    // points 1..3 inside: 3, 2, 2 and 2; × 5 minutes, mean over 4 paths.
    expect(statistics.expectedTimeInsideMinutes).toBeCloseTo((5 * (3 + 2 + 2 + 2)) / 4, 12);
    const expectedLoss =
      (impermanentLoss(100, 90, 110, 103) +
        impermanentLoss(100, 90, 110, 100) +
        impermanentLoss(100, 90, 110, 91) +
        impermanentLoss(100, 90, 110, 96)) /
      4;
    expect(statistics.expectedImpermanentLoss).toBeCloseTo(expectedLoss, 15);
  });

  it("lpRangeStatistics gives the whole horizon (1440 min) to a 24h path that never leaves", () => {
    const flat = [Array.from({ length: 289 }, () => 2000)];
    expect(lpRangeStatistics(flat, 1990, 2010, 5).expectedTimeInsideMinutes).toBe(1440);
    expect(lpRangeStatistics(flat, 1990, 2010, 5).probabilityToStay).toBe(1);
  });

  it("lpRangeStatistics' expected impermanent loss matches the lognormal integral of the loss, within 4 standard errors", () => {
    // E[IL(S_T)] = ∫ IL(s) f(s) ds with ln S_T ~ N(ln P0 − σ²/2, σ²): Simpson's rule in z = (ln s − m)/σ.
    const startPrice = 2000;
    const [lower, upper] = [1900, 2100];
    const sigma = 0.04;
    const m = Math.log(startPrice) - (sigma * sigma) / 2;
    const intervals = 4000;
    const width = 16 / intervals;
    let integral = 0;
    for (let index = 0; index <= intervals; index++) {
      const z = -8 + index * width;
      const weight = index === 0 || index === intervals ? 1 : index % 2 ? 4 : 2;
      const density = Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
      integral +=
        weight * impermanentLoss(startPrice, lower, upper, Math.exp(m + sigma * z)) * density;
    }
    integral *= width / 3;
    const random = createRandom(4);
    const paths = Array.from({ length: 40_000 }, () => [
      startPrice,
      Math.exp(m + sigma * random.normal()),
    ]);
    const estimate = lpRangeStatistics(paths, lower, upper, 1440).expectedImpermanentLoss;
    const losses = paths.map((path) => impermanentLoss(startPrice, lower, upper, path[1]));
    expect(Math.abs(estimate - integral)).toBeLessThan(4 * meanStandardError(losses));
  });
});

describe("lpProbabilityLevels", () => {
  it.skipIf(!numpyAvailable)("lpProbabilityLevels equals numpy.linspace(min, max, 11)", () => {
    const random = createRandom(3);
    const terminal = Array.from({ length: 500 }, () => 67000 * Math.exp(0.03 * random.normal()));
    const expected = runPython(
      "x = np.array(data)\nprint(json.dumps(np.linspace(x.min(), x.max(), 11).tolist()))",
      terminal,
    ) as number[];
    expect(lpProbabilityLevels(terminal)).toEqual(expected);
  });

  it("lpProbabilityLevels of a constant sample repeats the constant", () => {
    expect(lpProbabilityLevels([5, 5])).toEqual(new Array(11).fill(5));
  });
});
