import { describe, expect, it } from "vitest";
import { touchProbabilities } from "../../src/core/touchProbabilities.ts";
import { probabilityStandardError } from "../../src/reference/stderr.ts";
import { touchProbability } from "../../src/reference/touch.ts";
import { ENSEMBLE_SIZES, ensembleOf, randomEnsemble } from "./ensembles.ts";

/** Levels on the 0.5 tick of the random ensembles (ties), between ticks, and beyond every path. */
const LEVELS = Float64Array.of(100, 97.5, 103, 101.25, 99, 50, 150, 100.5, 96.5, 104.5);

describe("touchProbabilities", () => {
  it("touchProbabilities equals the reference scan for every level, direction and window", () => {
    ENSEMBLE_SIZES.forEach(([nPaths, nPoints], index) => {
      const ensemble = randomEnsemble(100 + index, nPaths, nPoints);
      const last = nPoints - 1;
      for (const fromStep of [0, Math.min(1, last)]) {
        const windowEndSteps = Int32Array.of(fromStep, Math.max(fromStep, last >> 1), last, last);
        const result = touchProbabilities(ensemble.values, nPaths, nPoints, {
          levels: LEVELS,
          windowEndSteps,
          fromStep,
        });
        windowEndSteps.forEach((end, window) => {
          LEVELS.forEach((level, levelIndex) => {
            const at = window * LEVELS.length + levelIndex;
            for (const direction of ["up", "down"] as const) {
              const expected = touchProbability(ensemble.rows, level, direction, fromStep, end);
              expect(result[direction].values[at]).toBe(expected);
              expect(result[direction].standardErrors[at]).toBe(
                probabilityStandardError(expected, nPaths),
              );
            }
          });
        });
      }
    });
  });

  it("touchProbabilities counts a point equal to the level as a touch (≥ up, ≤ down)", () => {
    const { values, nPaths, nPoints } = ensembleOf([
      [100, 97, 99, 104],
      [100, 101, 96, 100],
      [100, 100, 100, 100],
    ]);
    const result = touchProbabilities(values, nPaths, nPoints, {
      levels: Float64Array.of(97, 104, 100),
      windowEndSteps: Int32Array.of(3),
    });
    expect(Array.from(result.down.values)).toEqual([2 / 3, 1, 1]);
    expect(Array.from(result.up.values)).toEqual([1, 1 / 3, 1]);
  });

  it("touchProbabilities compares zero and negative prices as numbers", () => {
    const { values, nPaths, nPoints } = ensembleOf([
      [1, 0, 2],
      [1, -3, 1],
    ]);
    const result = touchProbabilities(values, nPaths, nPoints, {
      levels: Float64Array.of(0, -1),
      windowEndSteps: Int32Array.of(2),
    });
    expect(Array.from(result.down.values)).toEqual([1, 0.5]);
    expect(Array.from(result.up.values)).toEqual([1, 1]);
  });

  it("touchProbabilities gives NaN for a NaN level and for windows that contain a non-finite point", () => {
    for (const bad of [NaN, Infinity, -Infinity]) {
      const { values, nPaths, nPoints } = ensembleOf([
        [100, 99, 98, 97],
        [100, 101, bad, 103],
      ]);
      const result = touchProbabilities(values, nPaths, nPoints, {
        levels: Float64Array.of(98, NaN),
        windowEndSteps: Int32Array.of(1, 2, 3),
      });
      // Window [0, 1] has only finite points; windows [0, 2] and [0, 3] contain `bad`.
      expect(Array.from(result.down.values)).toEqual([0, NaN, NaN, NaN, NaN, NaN]);
      expect(Array.from(result.up.values)).toEqual([1, NaN, NaN, NaN, NaN, NaN]);
      expect(Array.from(result.down.standardErrors)).toEqual([0, NaN, NaN, NaN, NaN, NaN]);
    }
  });

  it("touchProbabilities of an empty ensemble is NaN", () => {
    const result = touchProbabilities(new Float64Array(0), 0, 3, {
      levels: Float64Array.of(100),
      windowEndSteps: Int32Array.of(2),
    });
    expect(result.up.values[0]).toBeNaN();
    expect(result.down.standardErrors[0]).toBeNaN();
  });

  it("touchProbabilities writes into a caller-owned buffer and returns it", () => {
    const { values, nPaths, nPoints } = randomEnsemble(7, 20, 9);
    const levels = Float64Array.of(99, 101);
    const windows = Int32Array.of(4, 8);
    const first = touchProbabilities(values, nPaths, nPoints, { levels, windowEndSteps: windows });
    const second = touchProbabilities(values, nPaths, nPoints, {
      levels,
      windowEndSteps: windows,
      fromStep: 0,
      out: first,
    });
    expect(second).toBe(first);
    expect(Array.from(second.up.values)).toEqual(
      Array.from(
        touchProbabilities(values, nPaths, nPoints, { levels, windowEndSteps: windows }).up.values,
      ),
    );
  });

  it("touchProbabilities rejects mismatched shapes, bad windows and a wrong-sized buffer", () => {
    const values = new Float64Array(6);
    const levels = Float64Array.of(1);
    expect(() =>
      touchProbabilities(values, 2, 4, { levels, windowEndSteps: Int32Array.of(1) }),
    ).toThrow("touchProbabilities requires values.length = nPaths × nPoints = 2 × 4 = 8, got 6");
    expect(() =>
      touchProbabilities(values, 2, 0, { levels, windowEndSteps: Int32Array.of(1) }),
    ).toThrow("touchProbabilities requires nPoints to be a positive integer, got 0");
    expect(() =>
      touchProbabilities(values, 2, 3, { levels, windowEndSteps: Int32Array.of(2, 1) }),
    ).toThrow(
      "touchProbabilities requires windowEndSteps ascending in [fromStep, nPoints − 1] = [0, 2], got windowEndSteps[1] = 1",
    );
    expect(() =>
      touchProbabilities(values, 2, 3, { levels, windowEndSteps: Int32Array.of(3) }),
    ).toThrow("got windowEndSteps[0] = 3");
    expect(() =>
      touchProbabilities(values, 2, 3, { levels, windowEndSteps: Int32Array.of(1), fromStep: 2 }),
    ).toThrow("got windowEndSteps[0] = 1");
    expect(() =>
      touchProbabilities(values, 2, 3, { levels, windowEndSteps: Int32Array.of(2), fromStep: 3 }),
    ).toThrow("touchProbabilities requires fromStep to be an integer in [0, 2], got 3");
    const wrongSize = touchProbabilities(values, 2, 3, {
      levels: Float64Array.of(1, 2, 3),
      windowEndSteps: Int32Array.of(2),
    });
    expect(() =>
      touchProbabilities(values, 2, 3, {
        levels,
        windowEndSteps: Int32Array.of(1, 2),
        fromStep: 0,
        out: wrongSize,
      }),
    ).toThrow("touchProbabilities requires out.up.values of length 2, got 3");
  });
});
