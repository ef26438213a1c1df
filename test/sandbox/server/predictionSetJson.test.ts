import { describe, expect, it } from "vitest";
import { predictionSetJson } from "../../../src/sandbox/server/predictionSetJson.ts";
import { createRandom } from "../../../src/reference/random.ts";

/** Prices as miners send them: 8 significant digits, over the magnitudes of every asset. */
function samplePrices(count: number, seed: number): Float64Array {
  const random = createRandom(seed);
  const values = new Float64Array(count);
  for (let index = 0; index < count; ++index) {
    const magnitude = 10 ** Math.floor(random.uniform() * 12 - 5); // 1e-5 … 1e6
    values[index] = Number((random.uniform() * 9 * magnitude + magnitude).toPrecision(8));
  }
  return values;
}

function readable(
  minerUid: number,
  start: number,
  values: Float64Array,
  paths: number,
  points: number,
) {
  const predictions: number[][] = [];
  for (let path = 0; path < paths; ++path) {
    predictions.push(Array.from(values.subarray(path * points, (path + 1) * points)));
  }
  return JSON.stringify({ miner_uid: minerUid, start_time: start, predictions });
}

describe("predictionSetJson", () => {
  it("writes exactly what JSON.stringify writes for prices of 8 significant digits", () => {
    const values = samplePrices(200 * 61, 5);
    expect(predictionSetJson(47, 1772063100, values, 200, 61).toString("utf8")).toBe(
      readable(47, 1772063100, values, 200, 61),
    );
  });

  it("writes what JSON.stringify writes for 1 to 8 significant digits from 1e-6 to 1e15", () => {
    const random = createRandom(11);
    const values = Float64Array.from({ length: 300 * 50 }, () => {
      const magnitude = 10 ** Math.floor(random.uniform() * 21 - 6);
      const digits = 1 + Math.floor(random.uniform() * 8);
      return Number((random.uniform() * 9 * magnitude + magnitude).toPrecision(digits));
    });
    expect(predictionSetJson(3, 1772063100, values, 300, 50).toString("utf8")).toBe(
      readable(3, 1772063100, values, 300, 50),
    );
  });

  it("has room for a set of the longest texts a double has (25 characters)", () => {
    // more values than any other test of this file: the writer's reused buffer is sized for them
    const values = new Float64Array(1000 * 100).fill(-1.2345678901234567e-6);
    expect(String(values[0]).length).toBe(25);
    expect(predictionSetJson(4, 1772063100, values, 1000, 100).toString("utf8")).toBe(
      readable(4, 1772063100, values, 1000, 100),
    );
  });

  it("writes the edges of the fast path as String(x) does", () => {
    const below1e15 = 999999999999999.9; // the largest double below 1e15 is ≈ 999999999999999.875
    const values = Float64Array.of(
      1e-6,
      9.99999e-7,
      1e-5,
      0.1,
      1,
      9.9999999,
      99999999,
      999999999999999,
      below1e15,
      1e14,
      100000000000000.5,
      1e15,
      12345678.9,
      999999.99,
    );
    expect(predictionSetJson(5, 2, values, 2, 7).toString("utf8")).toBe(
      readable(5, 2, values, 2, 7),
    );
  });

  it("falls back to String(x) for other numbers (more digits, tiny, huge, integers, non-finite)", () => {
    const values = Float64Array.of(
      0.1 + 0.2,
      1e-7,
      123456789,
      1e21,
      12345678,
      100000000000000,
      0,
      -2.5,
      67676.6,
      0.05,
      NaN,
      Infinity,
    );
    expect(predictionSetJson(1, 2, values, 2, 6).toString("utf8")).toBe(
      readable(1, 2, values, 2, 6),
    );
  });

  it("writes the wrong shapes of fault injection", () => {
    const values = Float64Array.of(1, 2, 3, 4, 5, 6);
    expect(predictionSetJson(9, 10, values, 2, 3, { points: 2 }).toString()).toBe(
      '{"miner_uid":9,"start_time":10,"predictions":[[1,2],[4,5]]}',
    );
    expect(predictionSetJson(9, 10, values, 2, 3, { nanPrice: true }).toString()).toBe(
      '{"miner_uid":9,"start_time":10,"predictions":[[1,NaN,3],[4,5,6]]}',
    );
    expect(predictionSetJson(9, 10, values, 2, 3, { omitMinerUid: true }).toString()).toBe(
      '{"start_time":10,"predictions":[[1,2,3],[4,5,6]]}',
    );
  });

  it("rejects too few values", () => {
    expect(() => predictionSetJson(1, 2, new Float64Array(5), 2, 3)).toThrow(
      "predictionSetJson requires nPaths × nPoints = 6 values, got 5",
    );
  });
});
