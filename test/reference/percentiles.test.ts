import { describe, expect, it } from "vitest";
import { percentileLinear, stepPercentiles } from "../../src/reference/percentiles.ts";
import { createRandom } from "../../src/reference/random.ts";
import { normalQuantiles } from "./closedForms.ts";
import { numpyAvailable, runPython } from "./python.ts";

const SPEC_PROBABILITIES = [0.005, 0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95, 0.995];

describe("percentileLinear", () => {
  it("percentileLinear uses the R-7 method: h = (n−1)p, linear between order statistics", () => {
    // sorted [1, 2, 4, 8]: p = 0.5 → h = 1.5 → 2 + 0.5·(4 − 2) = 3; p = 0.9 → h = 2.7 → 4 + 0.7·4.
    expect(percentileLinear([8, 1, 4, 2], 0.5)).toBe(3);
    expect(percentileLinear([8, 1, 4, 2], 0.9)).toBeCloseTo(6.8, 14);
    expect(percentileLinear([8, 1, 4, 2], 0)).toBe(1);
    expect(percentileLinear([8, 1, 4, 2], 1)).toBe(8);
    expect(percentileLinear([5], 0.3)).toBe(5);
  });

  it.skipIf(!numpyAvailable)("percentileLinear equals numpy.percentile (method linear)", () => {
    const values = [3.5, -1.25, 7, 0.5, 2, 2, 9.75, -4, 6.5, 1e-3, 100.125];
    const probabilities = [...SPEC_PROBABILITIES, 0, 1, 0.9, 0.123];
    const expected = runPython(
      "print(json.dumps(np.percentile(np.array(data['v']), np.array(data['p']) * 100).tolist()))",
      { v: values, p: probabilities },
    ) as number[];
    probabilities.forEach((probability, index) => {
      expect(percentileLinear(values, probability)).toBeCloseTo(expected[index], 12);
    });
  });

  it("percentileLinear returns NaN when a value is NaN, as numpy does", () => {
    expect(percentileLinear([1, NaN, 3], 0.5)).toBeNaN();
  });

  it("percentileLinear rejects an empty array and p outside [0, 1], naming what it got", () => {
    expect(() => percentileLinear([], 0.5)).toThrow(
      "percentileLinear requires at least one value in values, got an empty array",
    );
    expect(() => percentileLinear([1], 1.5)).toThrow(
      "percentileLinear requires p in [0, 1], got 1.5",
    );
  });
});

describe("stepPercentiles", () => {
  it.skipIf(!numpyAvailable)("stepPercentiles equals numpy.percentile along the path axis", () => {
    const random = createRandom(11);
    const paths = Array.from({ length: 37 }, () =>
      Array.from({ length: 6 }, () => 100 + 10 * random.normal()),
    );
    const expected = runPython(
      "print(json.dumps(np.percentile(np.array(data['x']), np.array(data['p']) * 100, axis=0).T.tolist()))",
      { x: paths, p: SPEC_PROBABILITIES },
    ) as number[][];
    const actual = stepPercentiles(paths, SPEC_PROBABILITIES);
    expect(actual).toHaveLength(6);
    actual.forEach((row, step) =>
      row.forEach((value, k) => expect(value).toBeCloseTo(expected[step][k], 10)),
    );
  });

  it("stepPercentiles matches lognormal quantiles on a large seeded sample, within sampling error", () => {
    // ln X ~ N(μ, σ²) at every step; quantile q_p = exp(μ + σ Φ⁻¹(p)).
    // Sampling s.e. of a sample quantile: √(p(1−p)/n) / f(q_p), f the lognormal density.
    const mu = Math.log(100);
    const sigma = 0.4;
    const sampleCount = 100_000;
    const random = createRandom(2024);
    const paths = Array.from({ length: sampleCount }, () => [
      Math.exp(mu + sigma * random.normal()),
      Math.exp(mu + 2 * sigma * random.normal()),
    ]);
    const z = normalQuantiles(SPEC_PROBABILITIES);
    const result = stepPercentiles(paths, SPEC_PROBABILITIES);
    [sigma, 2 * sigma].forEach((stepSigma, step) => {
      SPEC_PROBABILITIES.forEach((p, k) => {
        const quantile = Math.exp(mu + stepSigma * z[k]);
        const density =
          Math.exp(-0.5 * z[k] * z[k]) / (quantile * stepSigma * Math.sqrt(2 * Math.PI));
        const standardError = Math.sqrt((p * (1 - p)) / sampleCount) / density;
        expect(Math.abs(result[step][k] - quantile)).toBeLessThan(4 * standardError);
      });
    });
  });

  it("stepPercentiles rejects ragged paths, naming both lengths", () => {
    expect(() => stepPercentiles([[1, 2], [3]], [0.5])).toThrow(
      "stepPercentiles requires paths of equal length: paths[0] has 2 points, paths[1] has 1",
    );
  });
});
