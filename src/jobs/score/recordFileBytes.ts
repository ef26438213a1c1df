/**
 * The common candidate file, read straight from its bytes: a `record` layout file whose other
 * fields (the prompt's `asset`, `time_increment`, `time_length` and `start_time`, and any others)
 * all come before its `predictions`, as `pathlab backtest` and `pathlab baseline` write it. Its prices go from the bytes
 * into the path set's Float64Array (`createPredictionSetParser`), with no `JSON.parse` and no array
 * per path.
 *
 * It answers only when its answer is the one `candidateFileFromText` gives for the same text: a
 * file the validator accepts, under the legacy rule only if Python and `JSON.parse` read every
 * price alike (a whole price written as an int, every other one as a float). For anything else (another layout, another key,
 * a key after `predictions`, a repeated key, a `miner_uid` written as a float, a price the validator
 * or the paths layer rejects) it gives `undefined`, and the
 * file is read the general way, which finds the exact reason.
 */

import { CORRECT_REASON, validateResponse } from "../../domain/responseValidation.ts";
import { validatorEraAt } from "../../domain/eras.ts";
import { isPythonInt, parsePythonJson } from "../../domain/pythonJson.ts";
import { createPredictionSetParser, pathSetOfParsed } from "../../paths/predictionBytes.ts";
import { validatorPaths } from "../sync/fetchPredictionSets.ts";
import {
  CANDIDATE_MINER_UID,
  type CandidateFile,
  type CandidateReadOptions,
} from "./candidateFile.ts";

const PREDICTIONS_KEY = Buffer.from('"predictions"');
/** The set's object as the parser reads it: the candidate's miner, then the file's own keys. */
const SET_OPENING = Buffer.from(`[{"miner_uid":${CANDIDATE_MINER_UID},`);
const SET_CLOSING = Buffer.from("]");
/** JSON's whitespace bytes: space, tab, line feed, carriage return. */
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * The checked file of `bytes`, the content of the candidate file named `file`, when it is a valid
 * record-layout file of the common shape (this module's header); `undefined` when it must be read
 * the general way.
 * @param file - the file's name.
 * @param bytes - the file's content.
 * @param options - when to validate it (`atUnix`); the prompt's start by default.
 * @example recordFileFromBytes("BTC-a.json", await readFile(path))?.validation // => "CORRECT"
 */
export function recordFileFromBytes(
  file: string,
  bytes: Uint8Array,
  options: CandidateReadOptions = {},
): CandidateFile | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const open = buffer.indexOf("{");
  const keyAt = buffer.indexOf(PREDICTIONS_KEY);
  if (open < 0 || keyAt < 0) return undefined;
  for (let index = 0; index < open; index++) if (!WHITESPACE.has(buffer[index])) return undefined;
  const head = headFields(buffer.toString("utf8", open, keyAt));
  if (head === undefined) return undefined;
  const { asset, timeIncrement, timeLength, startTimeUnix } = head;
  let set;
  try {
    const parser = createPredictionSetParser({ timeIncrement, timeLength, nPaths: 1000 });
    parser.push(SET_OPENING);
    parser.push(buffer.subarray(open + 1));
    parser.push(SET_CLOSING);
    const sets = parser.finish();
    if (sets.length !== 1) return undefined;
    set = sets[0];
  } catch {
    return undefined;
  }
  // the candidate's miner, the head's keys and `predictions`: no key after it, none repeated
  if (set.error !== undefined || set.keyCount !== head.keyCount + 2) return undefined;
  if (set.startTime !== startTimeUnix) return undefined;
  const at = options.atUnix ?? startTimeUnix;
  // Only the legacy rule's verdict depends on whether a price is an int (it counts the digits of
  // `str(price)`: 12345678.0 has nine); v1.10.3 judges the value alone.
  const legacy = validatorEraAt(at).responseFormat === "legacy";
  if (legacy && !pythonReadsAsJsonDoes(set.values, set.intLexemeIndices)) return undefined;
  const prompt = { startTimeUnix, timeIncrement, timeLength };
  const validation = validateResponse(
    [startTimeUnix, timeIncrement, ...validatorPaths(set)],
    prompt,
    { at },
  );
  if (validation !== CORRECT_REASON) return undefined;
  return {
    file,
    layout: "record",
    asset,
    timeIncrement,
    timeLength,
    startTimeUnix,
    validation,
    pathSet: pathSetOfParsed(set, { asset, timeIncrement, timeLength }),
    reason: undefined,
  };
}

/**
 * The prompt of a head `{"asset": …, …,` (up to `predictions`) and its number of keys, or
 * `undefined` if it is not one.
 */
function headFields(text: string) {
  const trimmed = text.trimEnd();
  if (!trimmed.endsWith(",")) return undefined;
  let fields: unknown;
  try {
    fields = parsePythonJson(`${trimmed.slice(0, -1)}}`);
  } catch {
    return undefined;
  }
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) return undefined;
  const record = fields as Record<string, unknown>;
  // the general reading checks a miner_uid as pathlab's paths layer does; a float there (`1.0`)
  // is one JSON.parse and the byte parser would read as an int
  if ("miner_uid" in record && !Number.isInteger(record.miner_uid)) return undefined;
  const { asset, time_increment: timeIncrement, time_length: timeLength } = record;
  const startTime = record.start_time;
  if (typeof asset !== "string") return undefined;
  if (!Number.isSafeInteger(timeIncrement) || !Number.isSafeInteger(timeLength)) return undefined;
  // Unix seconds, not milliseconds, as the general reading requires
  if (!Number.isSafeInteger(startTime) || Math.abs(startTime as number) > 1e11) return undefined;
  return {
    keyCount: Object.keys(record).length,
    asset,
    timeIncrement: timeIncrement as number,
    timeLength: timeLength as number,
    startTimeUnix: startTime as number,
  };
}

/**
 * Whether each price is an int for Python exactly when `JSON.parse` makes it one (a whole number
 * below 10²¹): written as an int (`intIndices`, ascending) if and only if it is one.
 */
function pythonReadsAsJsonDoes(values: Float64Array, intIndices: Uint32Array): boolean {
  let next = 0;
  for (let index = 0; index < values.length; index++) {
    const writtenAsInt = next < intIndices.length && intIndices[next] === index;
    if (writtenAsInt) next++;
    if (writtenAsInt !== isPythonInt(values[index])) return false;
  }
  return true;
}
