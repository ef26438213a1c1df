import { describe, expect, it } from "vitest";
import { rangeStatistics } from "../../src/core/rangeStatistics.ts";
import { touchProbabilities } from "../../src/core/touchProbabilities.ts";
import { nestedRangeStatistics } from "../../src/insights/nestedRangeStatistics.ts";
import { InsightSession } from "../../src/insights/session.ts";
import { touchEstimates } from "../../src/insights/touchEstimates.ts";
import { ensembleOf } from "../../src/paths/ensemble.ts";
import { randomEnsemble } from "../core/ensembles.ts";
import { gbmEnsemble } from "./gbmEnsembles.ts";

/** Nested intervals around 100 on the 0.5 tick of `randomEnsemble`, so that points land on bounds. */
const LOWERS = Float64Array.of(99.5, 99, 98, 97.5, 95, 90);
const UPPERS = Float64Array.of(100.5, 101, 102, 102.5, 105, 110);

function sessionOf(seed: number, nPaths: number, nPoints: number): InsightSession {
  const { values } = randomEnsemble(seed, nPaths, nPoints);
  const ensemble = ensembleOf([
    { asset: "X", minerUid: 1, startTime: 0, timeIncrement: 300, nPaths, nPoints, values },
  ]);
  return new InsightSession(ensemble, { currentPrice: 100 });
}

describe("nestedRangeStatistics", () => {
  it("nestedRangeStatistics gives rangeStatistics' values and standard errors exactly, ties on the bounds included", () => {
    for (const [seed, nPaths, nPoints] of [
      [1, 1, 2],
      [2, 13, 17],
      [3, 301, 25],
      [4, 64, 289],
    ] as const) {
      const { values } = randomEnsemble(seed, nPaths, nPoints);
      const expected = rangeStatistics(values, nPaths, nPoints, {
        lowers: LOWERS,
        uppers: UPPERS,
        startPrice: 100,
        stepMinutes: 5,
      });
      const actual = nestedRangeStatistics(values, nPaths, nPoints, LOWERS, UPPERS, 100, 5);
      expect(actual).toEqual(expected);
      // With the session's running extremes instead of its own minima and maxima.
      const session = sessionOf(seed, nPaths, nPoints);
      const extremes = session.extremesAt(nPoints - 1);
      expect(
        nestedRangeStatistics(values, nPaths, nPoints, LOWERS, UPPERS, 100, 5, extremes),
      ).toEqual(expected);
    }
  });

  it("nestedRangeStatistics equals rangeStatistics on the 16 LP widths of a GBM ensemble", () => {
    const ensemble = gbmEnsemble({
      seed: 12,
      startPrice: 2000,
      annualVolatility: 0.9,
      horizon: "24h",
      members: 2,
      pathsPerMember: 500,
    });
    const lowers = Float64Array.from({ length: 16 }, (_, index) => 2000 * (1 - (index + 1) / 200));
    const uppers = Float64Array.from({ length: 16 }, (_, index) => 2000 * (1 + (index + 1) / 200));
    const { values, nPaths, nPoints } = ensemble;
    expect(nestedRangeStatistics(values, nPaths, nPoints, lowers, uppers, 2000, 5)).toEqual(
      rangeStatistics(values, nPaths, nPoints, {
        lowers,
        uppers,
        startPrice: 2000,
        stepMinutes: 5,
      }),
    );
  });

  it("nestedRangeStatistics falls back to rangeStatistics for intervals that are not nested, and is NaN for a NaN point", () => {
    const { values } = randomEnsemble(5, 20, 9);
    const lowers = Float64Array.of(99, 99.5);
    const uppers = Float64Array.of(101, 103);
    expect(nestedRangeStatistics(values, 20, 9, lowers, uppers, 100, 5)).toEqual(
      rangeStatistics(values, 20, 9, { lowers, uppers, startPrice: 100, stepMinutes: 5 }),
    );
    values[30] = NaN;
    const withNaN = nestedRangeStatistics(values, 20, 9, LOWERS, UPPERS, 100, 5);
    expect(Array.from(withNaN.probabilityToStay.values).every(Number.isNaN)).toBe(true);
    expect(withNaN).toEqual(
      rangeStatistics(values, 20, 9, {
        lowers: LOWERS,
        uppers: UPPERS,
        startPrice: 100,
        stepMinutes: 5,
      }),
    );
  });
});

describe("running extremes and discrete touches", () => {
  it("touchEstimates (discrete, from the session's running extremes) gives touchProbabilities' values exactly", () => {
    for (const [seed, nPaths, nPoints] of [
      [1, 1, 2],
      [6, 13, 17],
      [7, 301, 25],
    ] as const) {
      const session = sessionOf(seed, nPaths, nPoints);
      const levels = Float64Array.of(99.5, 100, 101, 97, NaN, 104.5, 90);
      const ends = Int32Array.of(0, 1, nPoints >> 1, nPoints - 1);
      const expected = touchProbabilities(session.ensemble.values, nPaths, nPoints, {
        levels,
        windowEndSteps: ends,
      });
      const actual = touchEstimates(session, "discrete", levels, ends);
      expect(Array.from(actual.up.values)).toEqual(Array.from(expected.up.values));
      expect(Array.from(actual.down.values)).toEqual(Array.from(expected.down.values));
      expect(Array.from(actual.up.standardErrors)).toEqual(Array.from(expected.up.standardErrors));
    }
  });

  it("InsightSession.extremesAt gives each path's minimum and maximum over [0, step], and NaN with a non-finite point", () => {
    const session = sessionOf(8, 40, 30);
    session.prepareExtremes([29, 10]);
    const { minima, maxima, finite } = session.extremesAt(10);
    expect(finite).toBe(true);
    const values = session.ensemble.values;
    for (const path of [0, 3, 39]) {
      const window = Array.from(values.subarray(path * 30, path * 30 + 11));
      expect(minima[path]).toBe(Math.min(...window));
      expect(maxima[path]).toBe(Math.max(...window));
    }
    const broken = ensembleOf([
      {
        asset: "X",
        minerUid: 1,
        startTime: 0,
        timeIncrement: 300,
        nPaths: 2,
        nPoints: 3,
        values: Float64Array.of(1, 2, NaN, 1, 0.5, 3),
      },
    ]);
    const extremes = new InsightSession(broken, { currentPrice: 1 }).extremesAt(2);
    expect(extremes.finite).toBe(false);
    expect(Array.from(extremes.minima)).toEqual([NaN, 0.5]);
  });
});
