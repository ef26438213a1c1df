import { describe, expect, it } from "vitest";
import { toArrowTable } from "../../src/paths/arrow.ts";
import { pathSetFromPrediction } from "../../src/paths/fromPrediction.ts";
import { PathSetError } from "../../src/paths/pathSetError.ts";
import type { PredictionSet } from "../../src/domain/records/prediction-set.ts";

const PROMPT_24H = { asset: "BTC", timeIncrement: 300, timeLength: 86400 };

function record(nPaths: number, nPoints: number, minerUid = 17): PredictionSet {
  return {
    miner_uid: minerUid,
    start_time: 1772063100,
    predictions: Array.from({ length: nPaths }, (_, path) =>
      Array.from({ length: nPoints }, (_, point) => 68000 + path + point / 1000),
    ),
  };
}

function errorOf(action: () => unknown): PathSetError {
  try {
    action();
  } catch (error) {
    if (error instanceof PathSetError) return error;
    throw error;
  }
  throw new Error("expected a PathSetError, nothing was thrown");
}

describe("pathSetFromPrediction", () => {
  it("pathSetFromPrediction lays the paths out path-major in one Float64Array", () => {
    const pathSet = pathSetFromPrediction(record(1000, 289), PROMPT_24H);
    expect(pathSet).toMatchObject({
      asset: "BTC",
      minerUid: 17,
      startTime: 1772063100,
      timeIncrement: 300,
      nPaths: 1000,
      nPoints: 289,
    });
    expect(pathSet.values).toBeInstanceOf(Float64Array);
    expect(pathSet.values.length).toBe(1000 * 289);
    expect(pathSet.values[3 * 289 + 288]).toBe(68000 + 3 + 0.288);
    expect(pathSet.values[999 * 289]).toBe(68999);
  });

  it("pathSetFromPrediction keeps a negative price: the validator accepts and scores it", () => {
    const negative = record(1000, 289);
    (negative.predictions[3] as number[])[288] = -5;
    expect(pathSetFromPrediction(negative, PROMPT_24H).values[3 * 289 + 288]).toBe(-5);
  });

  it("pathSetFromPrediction writes into a SharedArrayBuffer on request, the same prices", () => {
    const input = record(1000, 289);
    const plain = pathSetFromPrediction(input, PROMPT_24H);
    const shared = pathSetFromPrediction(input, PROMPT_24H, { shared: true });
    expect(shared.values.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(plain.values.buffer).toBeInstanceOf(ArrayBuffer);
    expect({ ...shared, values: Array.from(shared.values) }).toEqual({
      ...plain,
      values: Array.from(plain.values),
    });
    // Validation is the same whichever memory the prices go to.
    expect(() => pathSetFromPrediction(record(999, 289), PROMPT_24H, { shared: true })).toThrow(
      "miner 17: Number of paths is incorrect: expected 1000, got 999",
    );
    // As an Arrow table, the prices' child buffer is still the shared array itself.
    const table = toArrowTable(shared);
    expect(table.getChild("prices")!.data[0].children[0].values).toBe(shared.values);
  });

  it("pathSetFromPrediction takes the 1h shape (61 points) and a custom number of paths", () => {
    const pathSet = pathSetFromPrediction(record(5, 61), {
      asset: "ETH",
      timeIncrement: 60,
      timeLength: 3600,
      nPaths: 5,
    });
    expect([pathSet.nPaths, pathSet.nPoints, pathSet.values.length]).toEqual([5, 61, 305]);
  });

  it("pathSetFromPrediction reports a wrong number of paths in the validator's words", () => {
    const error = errorOf(() => pathSetFromPrediction(record(999, 289), PROMPT_24H));
    expect(error.message).toBe("miner 17: Number of paths is incorrect: expected 1000, got 999");
    expect([error.minerUid, error.expected, error.got]).toEqual([17, "1000", "999"]);
  });

  it("pathSetFromPrediction reports a wrong number of points in the validator's words, naming the path", () => {
    const bad = record(1000, 289);
    bad.predictions[3] = bad.predictions[3].slice(0, 288);
    const error = errorOf(() => pathSetFromPrediction(bad, PROMPT_24H));
    expect(error.message).toBe(
      "miner 17: path 3: Number of time points is incorrect: expected 289, got 288",
    );
    expect(error.path).toBe(3);
  });

  it.each([
    [NaN, "NaN"],
    [Infinity, "Infinity"],
    [-Infinity, "-Infinity"],
    [0, "0"],
    ["68000", '"68000"'],
    [null, "null"],
  ])(
    "pathSetFromPrediction rejects the price %s naming miner, path and point",
    (price, rendered) => {
      const bad = record(1000, 289);
      (bad.predictions[3] as unknown[])[288] = price;
      const error = errorOf(() => pathSetFromPrediction(bad, PROMPT_24H));
      expect(error.message).toBe(
        `miner 17: path 3, point 288: expected a finite non-zero price, got ${rendered}`,
      );
      expect([error.minerUid, error.path, error.point]).toEqual([17, 3, 288]);
    },
  );

  it("pathSetFromPrediction follows the validator's order: the first failing path wins", () => {
    const bad = record(1000, 289);
    (bad.predictions[2] as unknown[])[10] = NaN;
    bad.predictions[5] = [1, 2];
    expect(errorOf(() => pathSetFromPrediction(bad, PROMPT_24H)).message).toContain(
      "path 2, point 10",
    );
  });

  it("pathSetFromPrediction rejects a record whose fields have the wrong type", () => {
    const noPaths = { miner_uid: 4, start_time: 1, predictions: "x" } as unknown as PredictionSet;
    expect(errorOf(() => pathSetFromPrediction(noPaths, PROMPT_24H)).message).toBe(
      'miner 4: predictions: expected an array of paths, got "x"',
    );
    const badUid = { ...record(1, 2), miner_uid: 1.5 };
    expect(errorOf(() => pathSetFromPrediction(badUid, PROMPT_24H)).message).toBe(
      "miner_uid: expected an integer, got 1.5",
    );
    const badStart = { ...record(1, 2), start_time: "2026-01-01" } as unknown as PredictionSet;
    expect(errorOf(() => pathSetFromPrediction(badStart, PROMPT_24H)).message).toBe(
      'miner 17: start_time: expected an integer (Unix seconds), got "2026-01-01"',
    );
    const notAPath = record(1000, 289);
    (notAPath.predictions as unknown[])[7] = 5;
    expect(errorOf(() => pathSetFromPrediction(notAPath, PROMPT_24H)).message).toBe(
      "miner 17: path 7: expected an array of 289 prices, got 5",
    );
  });

  it("pathSetFromPrediction rejects an empty prediction set and prompt values that are not positive integers", () => {
    const empty = { miner_uid: 17, start_time: 1, predictions: [] };
    expect(errorOf(() => pathSetFromPrediction(empty, PROMPT_24H)).message).toBe(
      "miner 17: Number of paths is incorrect: expected 1000, got 0",
    );
    expect(() => pathSetFromPrediction(record(1, 2), { ...PROMPT_24H, timeIncrement: 0 })).toThrow(
      "pathSetFromPrediction requires a positive integer timeIncrement, got 0",
    );
    expect(() => pathSetFromPrediction(record(1, 2), { ...PROMPT_24H, nPaths: 0 })).toThrow(
      RangeError,
    );
  });
});
