import { describe, expect, it } from "vitest";
import { rangeStatistics } from "../../src/core/rangeStatistics.ts";
import { logReturn } from "../../src/core/volatility.ts";
import { isScannable, nestedRangeStatistics } from "../../src/insights/nestedRangeStatistics.ts";
import { scanPaths } from "../../src/insights/pathScan.ts";
import { randomEnsemble } from "../core/ensembles.ts";
import { gbmEnsemble } from "./gbmEnsembles.ts";

/** Each path's minimum and maximum over [0, end] the plain way (NaN when a point is not finite). */
function plainExtremes(rows: readonly (readonly number[])[], end: number) {
  const minima: number[] = [];
  const maxima: number[] = [];
  for (const row of rows) {
    const window = row.slice(0, end + 1);
    const finite = window.every(Number.isFinite);
    minima.push(finite ? Math.min(...window) : NaN);
    maxima.push(finite ? Math.max(...window) : NaN);
  }
  return { minima, maxima, finite: minima.every((value) => !Number.isNaN(value)) };
}

function rowsOf(values: Float64Array, nPaths: number, nPoints: number): number[][] {
  return Array.from({ length: nPaths }, (_, path) =>
    Array.from(values.subarray(path * nPoints, (path + 1) * nPoints)),
  );
}

describe("scanPaths", () => {
  it("scanPaths gives each path's minimum and maximum at every window end, NaN for a window with a non-finite point", () => {
    const { values, nPaths, nPoints } = randomEnsemble(21, 57, 40);
    values[5 * nPoints + 12] = NaN; // path 5 from point 12
    values[9 * nPoints + 30] = Infinity; // path 9 from point 30
    values[11 * nPoints] = -Infinity; // path 11 from its start
    const ends = Int32Array.of(0, 1, 11, 12, 29, 30, 39);
    const { extremes, ranges } = scanPaths(values, nPaths, nPoints, ends);
    expect(ranges).toBeUndefined();
    const rows = rowsOf(values, nPaths, nPoints);
    ends.forEach((end, window) => {
      const expected = plainExtremes(rows, end);
      expect(Array.from(extremes[window].minima), `window ${end}`).toEqual(expected.minima);
      expect(Array.from(extremes[window].maxima), `window ${end}`).toEqual(expected.maxima);
      expect(extremes[window].finite, `window ${end}`).toBe(expected.finite);
    });
    expect(extremes[3].finite).toBe(false); // point 12 of path 5 is NaN
  });

  it("scanPaths writes the block log returns block-major, as logReturn of the block's end over its start", () => {
    const { values, nPaths, nPoints } = randomEnsemble(22, 31, 26);
    for (const steps of [1, 3, 5, 25]) {
      const nBlocks = Math.floor((nPoints - 1) / steps);
      const out = new Float64Array(nBlocks * nPaths);
      scanPaths(values, nPaths, nPoints, new Int32Array(0), undefined, { steps, out });
      for (let block = 0; block < nBlocks; ++block) {
        for (let path = 0; path < nPaths; ++path) {
          const start = path * nPoints + block * steps;
          expect(out[block * nPaths + path]).toBe(logReturn(values[start + steps], values[start]));
        }
      }
    }
  });

  it("scanPaths with intervals, windows and blocks at once gives each part as alone", () => {
    const { values, nPaths, nPoints } = randomEnsemble(23, 120, 49);
    const lowers = Float64Array.of(99.5, 98, 95);
    const uppers = Float64Array.of(100.5, 102, 105);
    const intervals = { lowers, uppers, startPrice: 100 };
    const ends = Int32Array.of(10, 24, 48);
    const out = new Float64Array(16 * nPaths);
    const together = scanPaths(values, nPaths, nPoints, ends, intervals, { steps: 3, out });
    expect(together.extremes).toEqual(scanPaths(values, nPaths, nPoints, ends).extremes);
    expect(together.ranges).toEqual(
      scanPaths(values, nPaths, nPoints, new Int32Array(0), intervals).ranges,
    );
    const alone = new Float64Array(16 * nPaths);
    scanPaths(values, nPaths, nPoints, new Int32Array(0), undefined, { steps: 3, out: alone });
    expect(out).toEqual(alone);
  });

  it("scanPaths refuses shapes, window ends, interval counts and block buffers that do not fit", () => {
    const values = new Float64Array(12);
    const none = new Int32Array(0);
    expect(() => scanPaths(values, 3, 5, none)).toThrow(
      "scanPaths requires values of nPaths × nPoints = 15 numbers, got 12",
    );
    expect(() => scanPaths(values, 3, 4, Int32Array.of(2, 2))).toThrow(
      "scanPaths requires ascending window ends in [0, 3], got windowEndSteps[1] = 2",
    );
    expect(() => scanPaths(values, 3, 4, Int32Array.of(4))).toThrow(
      "scanPaths requires ascending window ends in [0, 3], got windowEndSteps[0] = 4",
    );
    const many = new Float64Array(65);
    expect(() =>
      scanPaths(values, 3, 4, none, { lowers: many, uppers: many, startPrice: 1 }),
    ).toThrow("scanPaths requires between 1 and 64 intervals, got 65");
    expect(() =>
      scanPaths(values, 3, 4, none, undefined, { steps: 2, out: new Float64Array(4) }),
    ).toThrow("scanPaths requires blocks.out of ⌊(nPoints − 1)/steps⌋ × nPaths = 3 numbers, got 4");
    expect(() =>
      scanPaths(values, 3, 4, none, undefined, { steps: 0, out: new Float64Array(0) }),
    ).toThrow("scanPaths requires a positive integer block size, got 0");
  });
});

describe("nestedRangeStatistics through the lookup table", () => {
  it("nestedRangeStatistics equals rangeStatistics when bounds share a cell of the table (then every point is compared)", () => {
    // Bounds 1e-9 apart fall in one of the 4,096 cells; points on the 0.5 tick land on them.
    const lowers = Float64Array.of(99.5, 99.5 - 1e-9, 99, 90);
    const uppers = Float64Array.of(100.5, 100.5 + 1e-9, 101, 110);
    for (const seed of [31, 32]) {
      const { values, nPaths, nPoints } = randomEnsemble(seed, 90, 33);
      expect(nestedRangeStatistics(values, nPaths, nPoints, lowers, uppers, 100, 5)).toEqual(
        rangeStatistics(values, nPaths, nPoints, {
          lowers,
          uppers,
          startPrice: 100,
          stepMinutes: 5,
        }),
      );
    }
  });

  it("nestedRangeStatistics equals rangeStatistics for points on and beyond the widest bounds, a start price outside some intervals, and negative terminal prices", () => {
    const { values, nPaths, nPoints } = randomEnsemble(33, 200, 25);
    // Widest interval (97, 103): the 0.5 tick puts many points on its bounds and beyond.
    const lowers = Float64Array.of(100.25, 99, 97);
    const uppers = Float64Array.of(101, 102.5, 103);
    expect(nestedRangeStatistics(values, nPaths, nPoints, lowers, uppers, 100, 5)).toEqual(
      rangeStatistics(values, nPaths, nPoints, { lowers, uppers, startPrice: 100, stepMinutes: 5 }),
    );
    for (let path = 0; path < nPaths; path += 7) values[path * nPoints + nPoints - 1] = -1;
    expect(nestedRangeStatistics(values, nPaths, nPoints, lowers, uppers, 100, 5)).toEqual(
      rangeStatistics(values, nPaths, nPoints, { lowers, uppers, startPrice: 100, stepMinutes: 5 }),
    );
  });

  it("nestedRangeStatistics gives rangeStatistics' impermanent losses bit for bit on a GBM ensemble", () => {
    const ensemble = gbmEnsemble({
      seed: 34,
      startPrice: 68000,
      annualVolatility: 1.2,
      horizon: "24h",
      members: 1,
      pathsPerMember: 700,
    });
    const lowers = Float64Array.from({ length: 16 }, (_, index) => 68000 * (1 - (index + 1) / 200));
    const uppers = Float64Array.from({ length: 16 }, (_, index) => 68000 * (1 + (index + 1) / 200));
    const { values, nPaths, nPoints } = ensemble;
    const nested = nestedRangeStatistics(values, nPaths, nPoints, lowers, uppers, 68000, 5);
    const general = rangeStatistics(values, nPaths, nPoints, {
      lowers,
      uppers,
      startPrice: 68000,
      stepMinutes: 5,
    });
    expect(Array.from(nested.expectedImpermanentLoss.values)).toEqual(
      Array.from(general.expectedImpermanentLoss.values),
    );
    expect(nested).toEqual(general);
  });

  it("isScannable takes nested finite intervals up to 64, and nestedRangeStatistics gives rangeStatistics' values beyond", () => {
    const lowers = Float64Array.from({ length: 65 }, (_, index) => 100 - 0.1 * (index + 1));
    const uppers = Float64Array.from({ length: 65 }, (_, index) => 100 + 0.1 * (index + 1));
    expect(isScannable(lowers.subarray(0, 64), uppers.subarray(0, 64))).toBe(true);
    expect(isScannable(lowers, uppers)).toBe(false);
    expect(isScannable(Float64Array.of(99, -Infinity), Float64Array.of(101, 102))).toBe(false);
    expect(isScannable(Float64Array.of(99, 99), Float64Array.of(101, 102))).toBe(false);
    const { values, nPaths, nPoints } = randomEnsemble(35, 40, 20);
    expect(nestedRangeStatistics(values, nPaths, nPoints, lowers, uppers, 100, 5)).toEqual(
      rangeStatistics(values, nPaths, nPoints, { lowers, uppers, startPrice: 100, stepMinutes: 5 }),
    );
  });
});
