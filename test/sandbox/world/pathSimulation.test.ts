import { describe, expect, it } from "vitest";
import { allPositive, pathRows, pooledAnswers } from "../../../src/sandbox/world/pathRows.ts";
import type { Submission } from "../../../src/sandbox/world/submissions.ts";
import { simulatePricePaths, type PathModel } from "../../../src/sandbox/world/pathSimulation.ts";
import { RandomStream } from "../../../src/sandbox/world/randomStream.ts";
import { roundToSignificantDigits } from "../../../src/domain/priceFormat.ts";

const MODEL: PathModel = {
  startPrice: 67676.123456,
  annualVolatility: 0.6,
  annualDrift: 0.05,
  tailDegrees: 0,
  jumpsPerDay: 2,
  jumpSize: 0.01,
  stepMinutes: 5,
  pathCount: 200,
  pointCount: 289,
  significantDigits: 8,
};

describe("simulatePricePaths", () => {
  it("rounds every price of the unrounded walk, which it follows unrounded", () => {
    for (const tailDegrees of [0, 4]) {
      for (const [startPrice, significantDigits] of [
        [67676.123456, 8],
        [0.0123456789, 5],
        [3.5e9, 12],
      ]) {
        const model = { ...MODEL, tailDegrees, startPrice, significantDigits };
        const rounded = simulatePricePaths(model, new RandomStream(11));
        const walk = simulatePricePaths({ ...model, significantDigits: 0 }, new RandomStream(11));
        const differing = [...walk.keys()].filter(
          (index) =>
            !Object.is(rounded[index], roundToSignificantDigits(walk[index], significantDigits)),
        );
        expect(differing).toEqual([]);
        expect(walk[1]).not.toBe(rounded[1]); // the walk itself is unrounded
      }
    }
  });
});

describe("allPositive", () => {
  it("is false as soon as one price is not positive (zero, negative, NaN), as every(p => p > 0)", () => {
    const prices = Float64Array.of(1, 2.5, 3);
    for (const bad of [0, -0, -1, NaN, -Infinity]) {
      for (let index = 0; index < prices.length; index++) {
        const values = Float64Array.from(prices);
        values[index] = bad;
        expect(allPositive(values)).toBe(false);
        expect(allPositive(values)).toBe(values.every((price) => price > 0));
      }
    }
    expect(allPositive(prices)).toBe(true);
    expect(allPositive(Float64Array.of(Infinity))).toBe(true);
    expect(allPositive(new Float64Array(0))).toBe(true);
  });

  it("pathRows gives the rows of path-major prices", () => {
    expect(pathRows(Float64Array.of(1, 2, 3, 4, 5, 6), 2, 3)).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
  });
});

describe("pooledAnswers", () => {
  it("pools the first `limit` valid answers with positive prices, in ranking order", () => {
    const answer = (uid: number, values: Float64Array | undefined, status = "valid") =>
      ({ status, minerUid: uid, values, pathCount: 2, pointCount: 2 }) as unknown as Submission;
    const miner2 = Float64Array.of(5, 6, 7, 8);
    const answers = new Map([
      [7, answer(7, Float64Array.of(1, 2, 3, 4))],
      [3, answer(3, Float64Array.of(1, 2, 3, 4), "invalid")],
      [5, answer(5, Float64Array.of(1, 0, 3, 4))],
      [9, answer(9, undefined)],
      [2, answer(2, miner2)],
      [4, answer(4, Float64Array.of(9, 9, 9, 9))],
    ]);
    const asked: number[] = [];
    const pooled = pooledAnswers([7, 3, 5, 9, 2, 4], 2, (uid) => {
      asked.push(uid);
      return answers.get(uid)!;
    });
    expect(pooled.minerUids).toEqual([7, 2]);
    expect(pooled.paths.map((path) => Array.from(path))).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
      [7, 8],
    ]);
    // views of the miners' own arrays, not copies
    expect(pooled.paths[2].buffer).toBe(miner2.buffer);
    expect(asked).toEqual([7, 3, 5, 9, 2]); // none asked past the limit
    const short = answer(8, Float64Array.of(1, 2, 3));
    expect(() => pooledAnswers([8], 1, () => short)).toThrow(
      "pooledAnswers requires pathCount × pointCount = 4 values of miner 8, got 3",
    );
  });
});
