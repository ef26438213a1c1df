/**
 * The user's own model for `pathlab score --candidate DIR`: every `*.json` file of the folder is
 * one prediction set, validated with the validator's rules and reason strings.
 *
 * Layout of a file: the spec's prediction-set record plus the prompt it answers,
 * `{ "asset": "BTC", "time_increment": 300, "time_length": 86400, "start_time": 1772063100,
 * "miner_uid": -1, "predictions": [[…289 prices…], …1000 paths…] }` (`miner_uid` optional).
 */

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathSetFromPrediction } from "../paths/fromPrediction.ts";
import type { PathSet } from "../paths/pathSet.ts";
import { PathSetError } from "../paths/pathSetError.ts";
import type { PredictionSet } from "../spec/records/prediction-set.ts";

/**
 * The `miner_uid` a candidate's path sets carry in pathlab's results and store.
 * @example CANDIDATE_MINER_UID // => -1
 */
export const CANDIDATE_MINER_UID = -1;

/**
 * One file of a candidate folder: the prompt it answers and either its path set or the reason it
 * was rejected (the validator's words, e.g. `Number of paths is incorrect: expected 1000, got 999`).
 * @example const file: CandidateFile = { file: "btc.json", asset: "BTC", timeIncrement: 300, timeLength: 86400, startTimeUnix: 1772063100, pathSet: undefined, reason: "…" };
 */
export interface CandidateFile {
  readonly file: string;
  readonly asset: string | undefined;
  readonly timeIncrement: number | undefined;
  readonly timeLength: number | undefined;
  readonly startTimeUnix: number | undefined;
  readonly pathSet: PathSet | undefined;
  /** Why the file is not a valid path set; `undefined` when it is. */
  readonly reason: string | undefined;
}

/**
 * Reads every `*.json` file of `folder` (sorted by name) as a candidate prediction set. A file that
 * is not JSON, lacks a prompt field or fails validation is returned with its `reason`; only a
 * folder that cannot be read throws (an Error naming it).
 * @example const files = await readCandidateFolder("./my-model"); files.filter((file) => file.reason)
 */
export async function readCandidateFolder(folder: string): Promise<CandidateFile[]> {
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => name.endsWith(".json")).sort();
  } catch (error) {
    throw new Error(
      `score: --candidate: cannot read the folder ${JSON.stringify(folder)}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return Promise.all(
    names.map(async (name) => candidateFile(name, await readFile(join(folder, name), "utf8"))),
  );
}

function candidateFile(file: string, text: string): CandidateFile {
  const empty = {
    file,
    asset: undefined,
    timeIncrement: undefined,
    timeLength: undefined,
    startTimeUnix: undefined,
    pathSet: undefined,
  };
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (error) {
    return { ...empty, reason: `not JSON: ${(error as Error).message}` };
  }
  if (typeof record !== "object" || record === null || Array.isArray(record)) {
    return {
      ...empty,
      reason: "expected a JSON object (a prediction-set record), got another value",
    };
  }
  const fields = record as Record<string, unknown>;
  const asset = fields.asset;
  const timeIncrement = fields.time_increment;
  const timeLength = fields.time_length;
  const startTime = fields.start_time;
  const prompt = {
    file,
    asset: typeof asset === "string" ? asset : undefined,
    timeIncrement: Number.isInteger(timeIncrement) ? (timeIncrement as number) : undefined,
    timeLength: Number.isInteger(timeLength) ? (timeLength as number) : undefined,
    startTimeUnix: Number.isInteger(startTime) ? (startTime as number) : undefined,
    pathSet: undefined,
  };
  const missing = [
    ["asset", prompt.asset, "a string"],
    ["time_increment", prompt.timeIncrement, "a whole number of seconds"],
    ["time_length", prompt.timeLength, "a whole number of seconds"],
    ["start_time", prompt.startTimeUnix, "a whole number of Unix seconds"],
  ].find(([, value]) => value === undefined);
  if (missing !== undefined) {
    return {
      ...prompt,
      reason: `${missing[0] as string}: expected ${missing[2] as string}, got ${JSON.stringify(fields[missing[0] as string]) ?? "nothing"}`,
    };
  }
  if (!Array.isArray(fields.predictions)) {
    return {
      ...prompt,
      reason: `predictions: expected an array of paths, got ${JSON.stringify(fields.predictions) ?? "nothing"}`,
    };
  }
  const prediction = {
    miner_uid: fields.miner_uid ?? CANDIDATE_MINER_UID,
    start_time: startTime,
    predictions: fields.predictions,
  } as PredictionSet;
  try {
    const pathSet = pathSetFromPrediction(prediction, {
      asset: prompt.asset as string,
      timeIncrement: prompt.timeIncrement as number,
      timeLength: prompt.timeLength as number,
    });
    return { ...prompt, pathSet: { ...pathSet, minerUid: CANDIDATE_MINER_UID }, reason: undefined };
  } catch (error) {
    if (error instanceof PathSetError || error instanceof RangeError) {
      // The validator's reason string, without the miner pathlab names in its messages.
      return { ...prompt, reason: error.message.replace(/^miner -?\d+: /, "") };
    }
    throw error;
  }
}
