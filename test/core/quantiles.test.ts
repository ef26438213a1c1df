import { describe, expect, it } from "vitest";
import {
  PERCENTILE_PROBABILITIES,
  quantileSorted,
  quantilesSorted,
  stepQuantiles,
} from "../../src/core/quantiles.ts";
import { stepPercentiles } from "../../src/reference/percentiles.ts";
import { awkwardColumns, gbmStepMajor, numberMismatches } from "./generate.ts";
import { numpyAvailable, runNumpy } from "./numpy.ts";

/** numpy.quantile(paths, probabilities, axis=0) of a step-major matrix, laid out [step][prob]. */
function numpyStepQuantiles(
  stepMajor: Float64Array,
  nPaths: number,
  nPoints: number,
  probabilities: readonly number[],
): Float64Array {
  return runNumpy(
    `m = values.reshape(${nPoints}, ${nPaths}).T\nresult = np.quantile(m, probabilities, axis=0).T`,
    { values: stepMajor, probabilities: Float64Array.from(probabilities) },
  );
}

function toPathMatrix(stepMajor: Float64Array, nPaths: number, nPoints: number): number[][] {
  return Array.from({ length: nPaths }, (_, path) =>
    Array.from({ length: nPoints }, (_, step) => stepMajor[step * nPaths + path]),
  );
}

describe("stepQuantiles", () => {
  it("stepQuantiles uses the R-7 method", () => {
    // h = (n − 1)p: n = 4, p = 0.5 → h = 1.5 → 2 + 0.5·(3 − 2) = 2.5; p = 0.1 → h = 0.3 → 1.3.
    const stepMajor = Float64Array.of(4, 1, 3, 2);
    expect(Array.from(stepQuantiles(stepMajor, 4, 1, { probabilities: [0.5, 0.1, 0, 1] }))).toEqual(
      [2.5, 1.3, 1, 4],
    );
  });

  it("stepQuantiles defaults to the spec's nine percentiles, step-major [step][probability]", () => {
    const stepMajor = Float64Array.from({ length: 201 * 2 }, (_, index) => index % 201);
    const result = stepQuantiles(stepMajor, 201, 2);
    expect(result.length).toBe(2 * 9);
    // 0..200: the p-quantile is 200p exactly (h = 200p).
    const expected = PERCENTILE_PROBABILITIES.map((p) => 200 * p);
    for (let index = 0; index < 9; index++) {
      expect(result[index]).toBeCloseTo(expected[index], 12);
      expect(result[9 + index]).toBeCloseTo(expected[index], 12);
    }
  });

  it.skipIf(!numpyAvailable).each([
    [1, 2],
    [2, 2],
    [7, 5],
    [255, 9],
    [300, 11],
    [301, 7],
    [1000, 30],
    [1001, 4],
    [10000, 6],
  ])(
    "stepQuantiles equals numpy.quantile bit for bit on a GBM ensemble of %i paths × %i points",
    (nPaths, nPoints) => {
      const stepMajor = gbmStepMajor(nPaths * 31 + nPoints, nPaths, nPoints, 0.01, 5);
      const probabilities = [...PERCENTILE_PROBABILITIES, 0, 1, 0.123456789, 0.999];
      const expected = numpyStepQuantiles(stepMajor, nPaths, nPoints, probabilities);
      const actual = stepQuantiles(stepMajor, nPaths, nPoints, { probabilities });
      expect(Array.from(actual)).toEqual(Array.from(expected));
    },
  );

  it.skipIf(!numpyAvailable)(
    "stepQuantiles equals numpy.quantile bit for bit (up to the sign of zero) on awkward columns: ties, outliers, constants, ±0, infinities",
    () => {
      for (const length of [5, 300, 301, 5000]) {
        const columns = awkwardColumns(length, length);
        const stepMajor = new Float64Array(columns.length * length);
        columns.forEach((column, step) => stepMajor.set(column.values, step * length));
        const expected = numpyStepQuantiles(
          stepMajor,
          length,
          columns.length,
          PERCENTILE_PROBABILITIES,
        );
        const actual = stepQuantiles(stepMajor, length, columns.length);
        columns.forEach((column, step) => {
          const slice = (values: Float64Array) => values.subarray(step * 9, step * 9 + 9);
          expect(
            numberMismatches(slice(actual), slice(expected)),
            `${column.name}, ${length} values`,
          ).toEqual([]);
        });
      }
    },
  );

  it("stepQuantiles agrees with the reference stepPercentiles within 1e-12 relative", () => {
    const nPaths = 2000;
    const nPoints = 25;
    const stepMajor = gbmStepMajor(11, nPaths, nPoints);
    const expected = stepPercentiles(
      toPathMatrix(stepMajor, nPaths, nPoints),
      PERCENTILE_PROBABILITIES,
    );
    const actual = stepQuantiles(stepMajor, nPaths, nPoints);
    for (let step = 0; step < nPoints; step++) {
      for (let index = 0; index < 9; index++) {
        const want = expected[step][index];
        expect(Math.abs(actual[step * 9 + index] - want)).toBeLessThanOrEqual(
          1e-12 * Math.abs(want),
        );
      }
    }
  });

  it("stepQuantiles of a GBM ensemble match the lognormal quantiles within sampling error", () => {
    // S_T = 100·exp(−σ²T/2 + σ√T·Z): the p-quantile is 100·exp(−σ²T/2 + σ√T·Φ⁻¹(p)).
    const nPaths = 20000;
    const nPoints = 145;
    const sigma = 0.004;
    const stepMajor = gbmStepMajor(2024, nPaths, nPoints, sigma, 17);
    const result = stepQuantiles(stepMajor, nPaths, nPoints);
    for (const step of [1, 12, 144]) {
      const scale = sigma * Math.sqrt(step);
      PERCENTILE_PROBABILITIES.forEach((p, index) => {
        const z = inverseNormal(p);
        const quantile = 100 * Math.exp(-(scale * scale) / 2 + scale * z);
        // Asymptotic sd of a sample quantile: √(p(1−p)/n) / f(q), f the lognormal density.
        const density = Math.exp(-(z * z) / 2) / (Math.sqrt(2 * Math.PI) * quantile * scale);
        const standardError = Math.sqrt((p * (1 - p)) / nPaths) / density;
        expect(Math.abs(result[step * 9 + index] - quantile)).toBeLessThan(4.5 * standardError);
      });
    }
  });

  it("stepQuantiles gives NaN at every probability of a step holding a NaN, as numpy", () => {
    const nPaths = 1000;
    const stepMajor = gbmStepMajor(3, nPaths, 3);
    stepMajor[nPaths + 500] = NaN;
    const result = stepQuantiles(stepMajor, nPaths, 3);
    expect(Array.from(result.subarray(9, 18)).every(Number.isNaN)).toBe(true);
    expect(Array.from(result.subarray(0, 9)).some(Number.isNaN)).toBe(false);
    expect(Array.from(result.subarray(18, 27)).some(Number.isNaN)).toBe(false);
  });

  it("stepQuantiles writes into a caller's out buffer and returns it", () => {
    const out = new Float64Array(2);
    expect(stepQuantiles(Float64Array.of(1, 3, 5, 7), 2, 2, { probabilities: [0.5], out })).toBe(
      out,
    );
    expect(Array.from(out)).toEqual([2, 6]);
  });

  it("stepQuantiles rejects structural mistakes with a RangeError naming them", () => {
    const values = new Float64Array(6);
    expect(() => stepQuantiles(new Float64Array(0), 0, 3)).toThrow(
      "stepQuantiles requires at least one path (nPaths ≥ 1), got 0",
    );
    expect(() => stepQuantiles(values, 2, 0)).toThrow("stepQuantiles requires at least one point");
    expect(() => stepQuantiles(values, 4, 2)).toThrow(
      "stepQuantiles requires stepMajor.length = nPaths × nPoints = 8, got 6",
    );
    expect(() => stepQuantiles(values, 2, 3, { probabilities: [0.5, 1.5] })).toThrow(
      "stepQuantiles requires probabilities in [0, 1], got probabilities[1] = 1.5",
    );
    expect(() => stepQuantiles(values, 2, 3, { probabilities: [NaN] })).toThrow(
      "got probabilities[0] = NaN",
    );
    expect(() =>
      stepQuantiles(values, 2, 3, { probabilities: [0.5], out: new Float64Array(2) }),
    ).toThrow("stepQuantiles requires out.length = nPoints × probabilities.length = 3, got 2");
  });
});

describe("quantileSorted", () => {
  it("quantileSorted interpolates as numpy's _lerp (from the upper neighbour when g ≥ ½)", () => {
    const sorted = Float64Array.of(10, 20, 30, 40);
    expect(quantileSorted(sorted, 0.5)).toBe(25);
    expect(quantileSorted(sorted, 1)).toBe(40);
    expect(quantileSorted(sorted, 0)).toBe(10);
    expect(Array.from(quantilesSorted(sorted, [0.25, 0.75]))).toEqual([17.5, 32.5]);
  });

  it.skipIf(!numpyAvailable)("quantileSorted equals numpy.quantile bit for bit", () => {
    const sorted = gbmStepMajor(5, 997, 2, 0.05, 17).subarray(997).slice().sort();
    const probabilities = Float64Array.from({ length: 200 }, (_, index) => (index * 0.7071) % 1);
    const expected = runNumpy("result = np.quantile(values, probabilities)", {
      values: sorted,
      probabilities,
    });
    expect(Array.from(probabilities, (p) => quantileSorted(sorted, p))).toEqual(
      Array.from(expected),
    );
  });

  it("quantileSorted is NaN for an empty array, a probability outside [0, 1], or a NaN value", () => {
    expect(quantileSorted(new Float64Array(0), 0.5)).toBeNaN();
    expect(quantileSorted(Float64Array.of(1, 2), -0.1)).toBeNaN();
    expect(quantileSorted(Float64Array.of(1, 2), NaN)).toBeNaN();
    expect(quantileSorted(Float64Array.of(1, NaN), 0.1)).toBeNaN();
  });
});

/** Φ⁻¹(p): Acklam's rational approximation (relative error < 1.2e-9), plenty for a 4.5σ test. */
function inverseNormal(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972,
    -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734,
    4.374664141464968, 2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) =>
    (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
    ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}
