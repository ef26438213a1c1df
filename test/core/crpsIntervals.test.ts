import { describe, expect, it } from "vitest";
import {
  crpsIntervalSum,
  crpsIntervalTerms,
  intervalChanges,
  intervalTermCount,
  type IntervalKind,
} from "../../src/core/crpsIntervals.ts";
import { simulateGbmPaths } from "../../src/reference/gbm.ts";
import { SCORING_INTERVALS_1H, SCORING_INTERVALS_24H } from "../../src/domain/intervals.ts";
import { promptCrpsDetails } from "../../src/reference/promptCrps.ts";
import { createRandom } from "../../src/reference/random.ts";

function kindOf(name: string): IntervalKind {
  return name.endsWith("_abs") ? "absolute" : name.endsWith("_gaps") ? "gaps" : "returns";
}

/** A miner's paths (path-major Float64Array and number[][]) and a realized path with gaps. */
function prompt(seed: number, nPaths: number, stepCount: number, stepMinutes: number) {
  const random = createRandom(seed);
  const parameters = { startPrice: 68000, annualVolatility: 0.5, stepMinutes, stepCount };
  const paths = simulateGbmPaths(random, { ...parameters, pathCount: nPaths }).map((path) =>
    path.map((price) => Number(price.toPrecision(8))),
  );
  const realized = simulateGbmPaths(random, { ...parameters, pathCount: 1 })[0];
  realized[5] = NaN; // a missing candle: the changes on either side are skipped
  return { paths, values: Float64Array.from(paths.flat()), realized };
}

describe("crpsIntervalSum", () => {
  it("intervalTermCount gives the validator's 345 terms for 24h prompts and 121 for 1h prompts", () => {
    const count = (intervals: Record<string, number>, nPoints: number, seconds: number) =>
      Object.entries(intervals).reduce(
        (sum, [name, length]) => sum + intervalTermCount(nPoints, length / seconds, kindOf(name)),
        0,
      );
    expect(count(SCORING_INTERVALS_24H, 289, 300)).toBe(345);
    expect(count(SCORING_INTERVALS_1H, 61, 60)).toBe(121);
    expect(intervalTermCount(1, 1, "returns")).toBe(0);
  });

  it("intervalChanges forms basis-point returns, the first gap, and end prices", () => {
    const prices = Float64Array.of(100, 102, 101, 103, 99);
    expect(Array.from(intervalChanges(prices, 2, "returns"))).toEqual([
      100,
      ((99 - 101) / 101) * 10000,
    ]);
    expect(Array.from(intervalChanges(prices, 1, "gaps"))).toEqual([200]);
    expect(Array.from(intervalChanges(prices, 4, "absolute"))).toEqual([99]);
  });

  for (const [label, intervals, nPoints, seconds] of [
    ["24h", SCORING_INTERVALS_24H, 289, 300],
    ["1h", SCORING_INTERVALS_1H, 61, 60],
  ] as const) {
    it(`crpsIntervalSum in parity mode equals the reference prompt CRPS interval by interval, bit for bit (${label})`, () => {
      const { paths, values, realized } = prompt(nPoints, 1000, nPoints - 1, seconds / 60);
      const reference = promptCrpsDetails(paths, realized, seconds, intervals);
      expect(reference.invalidReason).toBeUndefined();
      const realizedPrices = Float64Array.from(realized);
      for (const interval of reference.intervals) {
        const kind = kindOf(interval.name);
        const steps = intervals[interval.name] / seconds;
        const observed = intervalChanges(realizedPrices, steps, kind);
        const options = {
          stepsPerInterval: steps,
          kind,
          realized: observed,
          absoluteReference: realized[realized.length - 1],
        };
        const parity = crpsIntervalSum(values, 1000, nPoints, {
          ...options,
          method: "parity",
        });
        const closed = crpsIntervalSum(values, 1000, nPoints, options);
        expect(parity, interval.name).toBe(interval.crpsSum);
        expect(Math.abs(closed - interval.crpsSum), interval.name).toBeLessThanOrEqual(
          1e-12 * interval.crpsSum,
        );
      }
    });
  }

  it("crpsIntervalTerms gives NaN where the realized term is NaN, and crpsIntervalSum skips those terms", () => {
    const { values, realized } = prompt(3, 50, 12, 5);
    const observed = intervalChanges(Float64Array.from(realized), 1, "returns");
    const terms = crpsIntervalTerms(values, 50, 13, {
      stepsPerInterval: 1,
      kind: "returns",
      realized: observed,
    });
    expect([Number.isNaN(terms[4]), Number.isNaN(terms[5])]).toEqual([true, true]);
    const expected = Array.from(terms)
      .filter((term) => !Number.isNaN(term))
      .reduce((sum, term) => sum + term, 0);
    expect(
      crpsIntervalSum(values, 50, 13, { stepsPerInterval: 1, kind: "returns", realized: observed }),
    ).toBe(expected);
    expect(
      crpsIntervalSum(values, 50, 13, {
        stepsPerInterval: 1,
        kind: "returns",
        realized: new Float64Array(12).fill(NaN),
      }),
    ).toBe(0);
  });

  it("crpsIntervalTerms works for one path of two points", () => {
    const terms = crpsIntervalTerms(Float64Array.of(100, 110), 1, 2, {
      stepsPerInterval: 1,
      kind: "returns",
      realized: Float64Array.of(500),
    });
    expect(Array.from(terms)).toEqual([500]);
    const absolute = crpsIntervalTerms(Float64Array.of(100, 110), 1, 2, {
      stepsPerInterval: 1,
      kind: "absolute",
      realized: Float64Array.of(100),
      absoluteReference: 100,
    });
    expect(Array.from(absolute)).toEqual([1000]);
  });

  it("crpsIntervalTerms rejects sizes that do not match", () => {
    const values = new Float64Array(6);
    expect(() =>
      crpsIntervalTerms(values, 2, 4, {
        stepsPerInterval: 1,
        kind: "returns",
        realized: new Float64Array(3),
      }),
    ).toThrow(
      "crpsIntervalTerms requires at least one path and values.length = nPaths × nPoints = 8, got nPaths 2 and 6 values",
    );
    expect(() =>
      crpsIntervalTerms(values, 2, 3, {
        stepsPerInterval: 1,
        kind: "returns",
        realized: new Float64Array(3),
      }),
    ).toThrow("crpsIntervalTerms requires one realized term per interval term: expected 2, got 3");
    expect(() =>
      crpsIntervalTerms(values, 0, 3, {
        stepsPerInterval: 1,
        kind: "returns",
        realized: new Float64Array(2),
      }),
    ).toThrow(RangeError);
    expect(() => intervalTermCount(289, 0, "returns")).toThrow(
      "intervalTermCount requires stepsPerInterval ≥ 1, got 0",
    );
  });
});
