import { describe, expect, it } from "vitest";
import {
  createRangeEstimates,
  rangeEstimatesOfSums,
  rangeStatistics,
} from "../../src/core/rangeStatistics.ts";
import { impermanentLoss as coreImpermanentLoss } from "../../src/core/impermanentLoss.ts";
import { lpRangeStatistics } from "../../src/reference/lp.ts";
import { meanStandardError, probabilityStandardError } from "../../src/reference/stderr.ts";
import { ENSEMBLE_SIZES, ensembleOf, expectRelativelyClose, randomEnsemble } from "./ensembles.ts";

/** Bounds on the 0.5 tick of the random ensembles (ties), between ticks, nested and overlapping. */
const LOWERS = Float64Array.of(99, 95, 99.5, 90, 99.75, 97.5, 100, 80, 99.9);
const UPPERS = Float64Array.of(101, 105, 100.5, 110, 100.25, 101, 103, 100, 100.1);

describe("rangeStatistics", () => {
  it("rangeStatistics equals the reference for every interval: stay, time inside, impermanent loss", () => {
    ENSEMBLE_SIZES.forEach(([nPaths, nPoints], index) => {
      const { rows, values } = randomEnsemble(500 + index, nPaths, nPoints);
      const result = rangeStatistics(values, nPaths, nPoints, {
        lowers: LOWERS,
        uppers: UPPERS,
        startPrice: 100,
        stepMinutes: 5,
      });
      LOWERS.forEach((lower, at) => {
        const upper = UPPERS[at];
        const expected = lpRangeStatistics(rows, lower, upper, 5, 100);
        expect(result.probabilityToStay.values[at]).toBe(expected.probabilityToStay);
        expect(result.probabilityToStay.standardErrors[at]).toBe(
          probabilityStandardError(expected.probabilityToStay, nPaths),
        );
        expect(result.expectedTimeInsideMinutes.values[at]).toBe(
          expected.expectedTimeInsideMinutes,
        );
        // The reference's 1 − V_LP/V_HODL carries up to ~1e-13 of absolute rounding on these
        // ranges (1.2e-14 where the loss is exactly 0; more where 1/√L − 1/√U cancels in a
        // narrow range), so the two means are compared to 1e-12 relative plus that. The core's
        // loss is checked to 1e-14 relative against 50-digit decimals (impermanentLoss.test.ts);
        // the aggregation here to 1e-12 relative against the mean of its per-path losses.
        const losses = rows.map((row) => coreImpermanentLoss(100, lower, upper, row[nPoints - 1]));
        const lossMean = losses.reduce((sum, loss) => sum + loss, 0) / nPaths;
        expectRelativelyClose(result.expectedImpermanentLoss.values[at], lossMean, 1e-12);
        expect(
          Math.abs(result.expectedImpermanentLoss.values[at] - expected.expectedImpermanentLoss),
        ).toBeLessThanOrEqual(1e-12 * expected.expectedImpermanentLoss + 1e-13);
        const minutesInside = rows.map(
          (row) => 5 * row.slice(1).filter((point) => point > lower && point < upper).length,
        );
        expectRelativelyClose(
          result.expectedTimeInsideMinutes.standardErrors[at],
          meanStandardError(minutesInside),
          1e-12,
        );
        expectRelativelyClose(
          result.expectedImpermanentLoss.standardErrors[at],
          meanStandardError(losses),
          1e-12,
        );
      });
    });
  });

  it("rangeStatistics counts strict insides: touching a bound leaves the range", () => {
    const { values, nPaths, nPoints } = ensembleOf([
      [100, 101, 102, 103],
      [100, 110, 100, 100],
      [100, 95, 89, 91],
      [100, 90, 95, 96],
    ]);
    const result = rangeStatistics(values, nPaths, nPoints, {
      lowers: Float64Array.of(90),
      uppers: Float64Array.of(110),
      startPrice: 100,
      stepMinutes: 5,
    });
    expect(result.probabilityToStay.values[0]).toBe(1 / 4);
    expect(result.expectedTimeInsideMinutes.values[0]).toBe((5 * (3 + 2 + 2 + 2)) / 4);
  });

  it("rangeStatistics gives the whole horizon, 1440 minutes, to a 24h path that never leaves", () => {
    const flat = new Float64Array(289).fill(2000);
    const result = rangeStatistics(flat, 1, 289, {
      lowers: Float64Array.of(1990),
      uppers: Float64Array.of(2010),
      startPrice: 2000,
      stepMinutes: 5,
    });
    expect(result.expectedTimeInsideMinutes.values[0]).toBe(1440);
    expect(result.probabilityToStay.values[0]).toBe(1);
    expect(result.expectedImpermanentLoss.values[0]).toBe(0);
  });

  it("rangeStatistics gives NaN for non-finite points, empty ensembles and invalid intervals", () => {
    const { values, nPaths, nPoints } = ensembleOf([
      [100, 101, 102],
      [100, 99, 98],
    ]);
    const lowers = Float64Array.of(95, 102, 0, NaN, 101, 95);
    const uppers = Float64Array.of(105, 101, 105, 105, 110, Infinity);
    const result = rangeStatistics(values, nPaths, nPoints, {
      lowers,
      uppers,
      startPrice: 100,
      stepMinutes: 5,
    });
    const stay = Array.from(result.probabilityToStay.values);
    expect(stay).toEqual([1, NaN, NaN, NaN, 0, NaN]);
    // Interval 4 does not contain the start price: no impermanent loss, the rest stands.
    expect(result.expectedTimeInsideMinutes.values[4]).toBe(2.5);
    expect(result.expectedImpermanentLoss.values[4]).toBeNaN();
    expect(result.expectedImpermanentLoss.values[0]).toBeGreaterThan(0);

    const badMinutes = rangeStatistics(values, nPaths, nPoints, {
      lowers,
      uppers,
      startPrice: 100,
      stepMinutes: 0,
    });
    expect(badMinutes.expectedTimeInsideMinutes.values[0]).toBeNaN();
    expect(badMinutes.probabilityToStay.values[0]).toBe(1);

    for (const bad of [NaN, Infinity, -Infinity]) {
      const withBad = Float64Array.of(100, 101, 102, 100, bad, 98);
      const all = rangeStatistics(withBad, 2, 3, {
        lowers,
        uppers,
        startPrice: 100,
        stepMinutes: 5,
      });
      for (const estimates of Object.values(all)) {
        expect(Array.from(estimates.values)).toEqual([NaN, NaN, NaN, NaN, NaN, NaN]);
        expect(Array.from(estimates.standardErrors)).toEqual([NaN, NaN, NaN, NaN, NaN, NaN]);
      }
    }
    const negative = rangeStatistics(Float64Array.of(100, 50, -1), 1, 3, {
      lowers,
      uppers,
      startPrice: 100,
      stepMinutes: 5,
    });
    expect(negative.expectedImpermanentLoss.values[0]).toBeNaN();
    expect(negative.probabilityToStay.values[0]).toBe(0);

    const empty = rangeStatistics(new Float64Array(0), 0, 3, {
      lowers,
      uppers,
      startPrice: 100,
      stepMinutes: 5,
    });
    expect(empty.probabilityToStay.values[0]).toBeNaN();
    expect(empty.expectedTimeInsideMinutes.values[0]).toBeNaN();
  });

  it("rangeEstimatesOfSums finishes per-interval sums into means and standard errors", () => {
    // two paths: 2 and 4 points inside (10 and 20 minutes), one of them stays, losses 0.01 and 0.03
    const sums = {
      stayCounts: Float64Array.of(1),
      insideSums: Float64Array.of(6),
      insideSumsOfSquares: Float64Array.of(20),
      lossSums: Float64Array.of(0.04),
      lossSumsOfSquares: Float64Array.of(0.001),
    };
    const lowers = Float64Array.of(90);
    const uppers = Float64Array.of(110);
    const result = rangeEstimatesOfSums(sums, true, 2, {
      lowers,
      uppers,
      stepMinutes: 5,
      out: createRangeEstimates(1),
    });
    expect(result.probabilityToStay.values[0]).toBe(0.5);
    expect(result.probabilityToStay.standardErrors[0]).toBe(Math.sqrt(0.25 / 2));
    expect(result.expectedTimeInsideMinutes.values[0]).toBe(15);
    // sample std of 10 and 20 minutes, √50, over √2
    expect(result.expectedTimeInsideMinutes.standardErrors[0]).toBeCloseTo(5, 12);
    expect(result.expectedImpermanentLoss.values[0]).toBe(0.02);
    expect(result.expectedImpermanentLoss.standardErrors[0]).toBeCloseTo(0.01, 12);
    const notFinite = rangeEstimatesOfSums(sums, false, 2, {
      lowers,
      uppers,
      stepMinutes: 5,
      out: createRangeEstimates(1),
    });
    expect(notFinite.probabilityToStay.values[0]).toBeNaN();
    expect(notFinite.expectedTimeInsideMinutes.values[0]).toBeNaN();
    expect(notFinite.expectedImpermanentLoss.values[0]).toBeNaN();
  });

  it("rangeStatistics rejects mismatched lengths", () => {
    expect(() =>
      rangeStatistics(new Float64Array(4), 2, 2, {
        lowers: Float64Array.of(1, 2),
        uppers: Float64Array.of(3),
        startPrice: 2,
        stepMinutes: 5,
      }),
    ).toThrow("rangeStatistics requires uppers of length 2, got 1");
    expect(() =>
      rangeStatistics(new Float64Array(3), 2, 2, {
        lowers: Float64Array.of(1),
        uppers: Float64Array.of(3),
        startPrice: 2,
        stepMinutes: 5,
      }),
    ).toThrow("rangeStatistics requires values.length = nPaths × nPoints = 2 × 2 = 4, got 3");
  });
});
