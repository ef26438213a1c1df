/**
 * The 95 % intervals of the calibration charts against values published or computed elsewhere:
 * Wilson intervals from Newcombe (1998, Statistics in Medicine 17, table I: 81/263 gives 0.2553 to
 * 0.3662) and the usual 0/10 and 5/10 examples; Student's t quantiles and a t interval from SciPy
 * 1.x (`scipy.stats.t.ppf`); the PIT band from the binomial's variance, by hand.
 */
import { describe, expect, it } from "vitest";
import {
  meanInterval,
  pitDensityBand,
  studentTQuantile,
  wilsonInterval,
  Z95,
} from "../../src/core/intervals.ts";

describe("wilsonInterval", () => {
  it("gives the published intervals", () => {
    const [low, high] = wilsonInterval(81 / 263, 263);
    expect(low).toBeCloseTo(0.2553, 4);
    expect(high).toBeCloseTo(0.3662, 4);
    expect(wilsonInterval(0, 10)[0]).toBe(0);
    expect(wilsonInterval(0, 10)[1]).toBeCloseTo(0.2775, 4);
    expect(wilsonInterval(0.5, 10)[0]).toBeCloseTo(0.2366, 4);
    expect(wilsonInterval(0.5, 10)[1]).toBeCloseTo(0.7634, 4);
  });

  it("is NaN without a trial or for a proportion outside [0, 1]", () => {
    expect(wilsonInterval(0.5, 0)).toEqual([NaN, NaN]);
    expect(wilsonInterval(1.5, 10)).toEqual([NaN, NaN]);
  });
});

describe("studentTQuantile", () => {
  it("matches SciPy's t.ppf", () => {
    const scipy: [number, number, number][] = [
      [0.975, 1, 12.706204736174694],
      [0.975, 2, 4.302652729749462],
      [0.975, 5, 2.5705818356363146],
      [0.975, 30, 2.0422724563012378],
      [0.99, 7, 2.9979515668685277],
      [0.6, 3, 0.2766706623326898],
    ];
    for (const [probability, degrees, expected] of scipy) {
      expect(studentTQuantile(probability, degrees), `${probability}, ${degrees}`).toBeCloseTo(
        expected,
        10,
      );
    }
    // and tends to the normal quantile
    expect(studentTQuantile(0.975, 2000)).toBeCloseTo(1.9611508260994377, 10);
    expect(studentTQuantile(0.975, 2000) - Z95).toBeLessThan(0.0012);
    expect(studentTQuantile(0.4, 3)).toBeNaN();
    expect(studentTQuantile(0.975, 2.5)).toBeNaN();
  });
});

describe("meanInterval and pitDensityBand", () => {
  it("meanInterval is mean ± t(0.975, n − 1) s/√n, as SciPy computes it", () => {
    const interval = meanInterval([0.1, 0.4, 0.35]);
    expect(interval.mean).toBeCloseTo(0.85 / 3, 15);
    expect(interval.low).toBeCloseTo(-0.11593594223887282, 10);
    expect(interval.high).toBeCloseTo(0.6826026089055395, 10);
    expect(meanInterval([0.2])).toEqual({ mean: 0.2, low: NaN, high: NaN });
  });

  it("pitDensityBand is 1 ± z √((B − 1)/n), floored at 0", () => {
    // 10 bins, 100 prompts: a bin's count has sd √(100 · 0.1 · 0.9) = 3, its density 3/100 · 10
    const [low, high] = pitDensityBand(10, 100);
    expect(low).toBeCloseTo(1 - Z95 * 0.3, 12);
    expect(high).toBeCloseTo(1 + Z95 * 0.3, 12);
    expect(pitDensityBand(10, 4)[0]).toBe(0);
    expect(pitDensityBand(1, 100)).toEqual([NaN, NaN]);
  });
});
