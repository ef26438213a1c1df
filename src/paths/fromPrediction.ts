/**
 * A prediction set record (spec) becomes a {@link PathSet}, validated as the validator does.
 */

import type { PredictionSet } from "../domain/records/prediction-set.ts";
import { allocateValues, type PathSet, type PathSetAllocation } from "./pathSet.ts";
import { PathSetError } from "./pathSetError.ts";

/**
 * What a prediction set record does not carry: the prompt it answers.
 * @example const prompt: PredictionPrompt = { asset: "BTC", timeIncrement: 300, timeLength: 86400 };
 */
export interface PredictionPrompt {
  /** Asset symbol of the prompt. */
  readonly asset: string;
  /** Seconds between points (300 or 60). */
  readonly timeIncrement: number;
  /** Seconds covered by a path (86400 or 3600): points = timeLength / timeIncrement + 1. */
  readonly timeLength: number;
  /** Paths the prompt asks for (`num_simulations`); 1,000 by default. */
  readonly nPaths?: number;
}

/**
 * The paths and points per path a prompt asks for: `nPaths` (1,000 by default) and
 * ⌊timeLength / timeIncrement⌋ + 1. Throws `RangeError`, naming `operation`, for prompt values that
 * are not positive integers.
 * @example predictionLayout("pathSetFromPrediction", { timeIncrement: 300, timeLength: 86400 }) // => { nPaths: 1000, nPoints: 289 }
 */
export function predictionLayout(
  operation: string,
  prompt: Omit<PredictionPrompt, "asset">,
): { nPaths: number; nPoints: number } {
  const nPaths = prompt.nPaths ?? 1000;
  for (const [name, value] of [
    ["timeIncrement", prompt.timeIncrement],
    ["timeLength", prompt.timeLength],
    ["nPaths", nPaths],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) {
      throw new RangeError(`${operation} requires a positive integer ${name}, got ${value}`);
    }
  }
  return { nPaths, nPoints: Math.floor(prompt.timeLength / prompt.timeIncrement) + 1 };
}

/**
 * Builds a {@link PathSet} from a prediction set record (as JSON.parse made it) in one pass that
 * writes straight into one Float64Array (over a SharedArrayBuffer with `allocation.shared`, which
 * a scoring pool's workers read without a copy: {@link PathSetAllocation}). Validates in the
 * validator's order (first failure wins): `miner_uid` and `start_time` integers, the number of
 * paths (`Number of paths is incorrect: expected 1000, got 999`), then path by path its number of
 * points (`Number of time points is incorrect: expected 289, got 288`, with points =
 * ⌊timeLength / timeIncrement⌋ + 1) and every price a finite number other than 0 (a negative price is
 * kept: the validator accepts and scores it; a zero price scores −1). Each failure throws
 * a {@link PathSetError} naming the miner, path and point. Throws `RangeError` for prompt values
 * that are not positive integers.
 * @param record - one miner's prediction set, as `JSON.parse` made it.
 * @param prompt - the asset, time increment and time length the set answers, and the paths asked
 *   for.
 * @param allocation - where the values go: over a SharedArrayBuffer with `shared`; an ordinary
 *   array by default.
 * @example
 * const pathSet = pathSetFromPrediction(
 *   { miner_uid: 17, start_time: 1772063100, predictions: [[100, 101], [100, 99]] },
 *   { asset: "BTC", timeIncrement: 300, timeLength: 300, nPaths: 2 },
 * ); // pathSet.values => [100, 101, 100, 99]
 */
export function pathSetFromPrediction(
  record: PredictionSet,
  prompt: PredictionPrompt,
  allocation: PathSetAllocation = {},
): PathSet {
  const { nPaths, nPoints } = predictionLayout("pathSetFromPrediction", prompt);
  const minerUid: unknown = record?.miner_uid;
  if (!Number.isInteger(minerUid)) {
    throw new PathSetError({ subject: "miner_uid", expected: "an integer", got: minerUid });
  }
  const uid = minerUid as number;
  if (!Number.isInteger(record.start_time)) {
    throw new PathSetError({
      minerUid: uid,
      subject: "start_time",
      expected: "an integer (Unix seconds)",
      got: record.start_time,
    });
  }
  const predictions: unknown = record.predictions;
  if (!Array.isArray(predictions)) {
    throw new PathSetError({
      minerUid: uid,
      subject: "predictions",
      expected: "an array of paths",
      got: predictions,
    });
  }
  if (predictions.length !== nPaths) {
    throw new PathSetError({
      minerUid: uid,
      subject: "Number of paths is incorrect",
      expected: String(nPaths),
      got: predictions.length,
    });
  }
  const values = allocateValues(nPaths * nPoints, allocation.shared === true);
  copyPrices(predictions, nPaths, nPoints, uid, values);
  return {
    asset: prompt.asset,
    minerUid: uid,
    startTime: record.start_time,
    timeIncrement: prompt.timeIncrement,
    nPaths,
    nPoints,
    values,
  };
}

/**
 * Copies each path of `predictions` into `values` (path-major), checking that each is an array of
 * `nPoints` finite, non-zero numbers (a {@link PathSetError} names the first that is not). Its own
 * function, so that no code follows its loop (the reason is in core/transpose.ts).
 */
function copyPrices(
  predictions: unknown[],
  nPaths: number,
  nPoints: number,
  uid: number,
  values: Float64Array,
): void {
  for (let pathIndex = 0; pathIndex < nPaths; pathIndex++) {
    const path: unknown = predictions[pathIndex];
    if (!Array.isArray(path)) {
      throw new PathSetError({
        minerUid: uid,
        path: pathIndex,
        expected: `an array of ${nPoints} prices`,
        got: path,
      });
    }
    if (path.length !== nPoints) {
      throw new PathSetError({
        minerUid: uid,
        path: pathIndex,
        subject: "Number of time points is incorrect",
        expected: String(nPoints),
        got: path.length,
      });
    }
    const offset = pathIndex * nPoints;
    for (let point = 0; point < nPoints; point++) {
      const price: unknown = path[point];
      if (typeof price !== "number" || !(price !== 0 && Math.abs(price) < Infinity)) {
        throw new PathSetError({
          minerUid: uid,
          path: pathIndex,
          point,
          expected: "a finite non-zero price",
          got: price,
        });
      }
      values[offset + point] = price;
    }
  }
}
