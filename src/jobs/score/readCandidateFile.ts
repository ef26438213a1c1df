/**
 * Reads a candidate file in either layout (`candidateFile.ts`: a prediction-set record plus its
 * prompt, or a miner's response) and checks it with the validator's rules and reason strings,
 * then makes the path set of a file the validator accepts. A file of the common shape is read
 * straight from its bytes (`recordFileBytes.ts`), with the same result.
 */

import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { pathSetFromPrediction } from "../../paths/fromPrediction.ts";
import { PathSetError } from "../../paths/pathSetError.ts";
import { parsePythonJson, PythonFloat } from "../../domain/pythonJson.ts";
import type { PredictionSet } from "../../domain/records/prediction-set.ts";
import { CORRECT_REASON, validateResponse } from "../../domain/responseValidation.ts";
import { recordFileFromBytes } from "./recordFileBytes.ts";
import {
  CANDIDATE_MINER_UID,
  unknownPrompt,
  type CandidateFile,
  type CandidateReadOptions,
} from "./candidateFile.ts";

/**
 * Reads and validates one candidate file (either layout); the returned `file` is its name. A file
 * that cannot be read is returned with the reason (`cannot read the file: …`); nothing throws.
 * @param path - the file's path.
 * @param options - when to validate it (`atUnix`); the prompt's start by default.
 * @example const checked = await readCandidateFile("./BTC-answer.json"); checked.validation // => "CORRECT"
 */
export async function readCandidateFile(
  path: string,
  options: CandidateReadOptions = {},
): Promise<CandidateFile> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ...unknownPrompt(basename(path), undefined),
      reason: `cannot read the file: ${code ?? (error as Error).message}`,
    };
  }
  return candidateFileFromBytes(basename(path), bytes, options);
}

/**
 * Reads `bytes`, the content of the candidate file named `file`, as {@link readCandidateFile}
 * does: a file of the common shape straight from its bytes, any other as text.
 * @param file - the file's name, which names its prompt in the flat layout (`BTC-….json`).
 * @param bytes - the file's content.
 * @param options - when to validate it (`atUnix`); the prompt's start by default.
 * @example candidateFileFromBytes("BTC-a.json", Buffer.from("[]")).reason // => "Response is empty"
 */
export function candidateFileFromBytes(
  file: string,
  bytes: Buffer,
  options: CandidateReadOptions = {},
): CandidateFile {
  return (
    recordFileFromBytes(file, bytes, options) ??
    candidateFileFromText(file, bytes.toString("utf8"), options)
  );
}

/** The prompt lengths a miner response's increment implies. */
const LENGTH_OF_INCREMENT: Readonly<Record<number, number>> = { 60: 3600, 300: 86400 };

/**
 * Reads `text`, the content of the candidate file named `file`, in either layout and validates it
 * (as {@link readCandidateFile} does).
 * @param file - the file's name, which names its prompt in the flat layout (`BTC-….json`).
 * @param text - the file's content.
 * @param options - when to validate it (`atUnix`); the prompt's start by default.
 * @example candidateFileFromText("BTC-a.json", "[]").reason // => "Response is empty"
 */
export function candidateFileFromText(
  file: string,
  text: string,
  options: CandidateReadOptions = {},
): CandidateFile {
  let parsed: unknown;
  try {
    parsed = parsePythonJson(text);
  } catch (error) {
    return { ...unknownPrompt(file, undefined), reason: `not JSON: ${(error as Error).message}` };
  }
  if (Array.isArray(parsed)) return responseFile(file, parsed, options);
  if (typeof parsed !== "object" || parsed === null || parsed instanceof PythonFloat) {
    return {
      ...unknownPrompt(file, undefined),
      reason:
        "expected a JSON object (a prediction-set record) or array (a miner's response), got another value",
    };
  }
  return recordFile(file, parsed as Record<string, unknown>, options);
}

/** A file in the `response` layout: `[start_time, time_increment, path, …]`. */
function responseFile(
  file: string,
  response: unknown[],
  options: CandidateReadOptions,
): CandidateFile {
  const stem = file.replace(/\.json$/, "");
  const asset = stem.includes("-") ? stem.slice(0, stem.indexOf("-")) : stem;
  const [startTime, timeIncrement] = response;
  const startTimeUnix = unixSeconds(startTime);
  const increment = Number.isSafeInteger(timeIncrement) ? (timeIncrement as number) : undefined;
  const timeLength = increment === undefined ? undefined : LENGTH_OF_INCREMENT[increment];
  const prompt = { file, layout: "response" as const, asset, pathSet: undefined };
  if (response.length < 2 || !isInt(startTime) || !isInt(timeIncrement)) {
    // The validator's type checks come first and need no prompt.
    const noPrompt = { startTimeUnix: 0, timeIncrement: 0, timeLength: 0 };
    const reason = validateResponse(response, noPrompt, { at: options.atUnix ?? 0 });
    return { ...prompt, ...unknownPrompt(file, "response"), asset, validation: reason, reason };
  }
  if (startTimeUnix === undefined || increment === undefined || timeLength === undefined) {
    const reason =
      startTimeUnix === undefined
        ? `start time: expected Unix seconds, got ${String(startTime)}`
        : `time increment ${String(timeIncrement)}: a response answers a 1h (60) or 24h (300) prompt`;
    const known = { timeIncrement: increment, timeLength, startTimeUnix, validation: undefined };
    return { ...prompt, ...known, reason };
  }
  return validated(
    { ...prompt, timeIncrement: increment, timeLength, startTimeUnix },
    response,
    response.slice(2),
    undefined,
    options,
  );
}

/** A file in the `record` layout: the prediction-set record plus its prompt's fields. */
function recordFile(
  file: string,
  fields: Record<string, unknown>,
  options: CandidateReadOptions,
): CandidateFile {
  const asset = fields.asset;
  const timeIncrement = fields.time_increment;
  const timeLength = fields.time_length;
  const prompt = {
    file,
    layout: "record" as const,
    asset: typeof asset === "string" ? asset : undefined,
    timeIncrement: Number.isSafeInteger(timeIncrement) ? (timeIncrement as number) : undefined,
    timeLength: Number.isSafeInteger(timeLength) ? (timeLength as number) : undefined,
    startTimeUnix: unixSeconds(fields.start_time),
    validation: undefined,
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
      reason: `${missing[0] as string}: expected ${missing[2] as string}, got ${jsonText(fields[missing[0] as string])}`,
    };
  }
  if (!Array.isArray(fields.predictions)) {
    return {
      ...prompt,
      reason: `predictions: expected an array of paths, got ${jsonText(fields.predictions)}`,
    };
  }
  const paths = fields.predictions as unknown[];
  const known = {
    ...prompt,
    asset: prompt.asset as string,
    timeIncrement: prompt.timeIncrement as number,
    timeLength: prompt.timeLength as number,
    startTimeUnix: prompt.startTimeUnix as number,
  };
  return validated(
    known,
    [known.startTimeUnix, known.timeIncrement, ...paths],
    paths,
    fields.miner_uid,
    options,
  );
}

/** The validator's verdict on `response`, then the path set of a file it accepts. */
function validated(
  prompt: Omit<CandidateFile, "validation" | "reason" | "pathSet"> & {
    readonly asset: string;
    readonly timeIncrement: number;
    readonly timeLength: number;
    readonly startTimeUnix: number;
  },
  response: unknown[],
  paths: unknown[],
  minerUid: unknown,
  options: CandidateReadOptions,
): CandidateFile {
  const validation = validateResponse(
    response,
    {
      startTimeUnix: prompt.startTimeUnix,
      timeIncrement: prompt.timeIncrement,
      timeLength: prompt.timeLength,
    },
    { at: options.atUnix ?? prompt.startTimeUnix },
  );
  if (validation !== CORRECT_REASON) {
    return { ...prompt, validation, pathSet: undefined, reason: validation };
  }
  const prediction = {
    miner_uid: minerUid ?? CANDIDATE_MINER_UID,
    start_time: prompt.startTimeUnix,
    predictions: paths.map(plainPrices),
  } as PredictionSet;
  try {
    const pathSet = pathSetFromPrediction(prediction, prompt);
    return {
      ...prompt,
      validation,
      pathSet: { ...pathSet, minerUid: CANDIDATE_MINER_UID },
      reason: undefined,
    };
  } catch (error) {
    if (error instanceof PathSetError || error instanceof RangeError) {
      // pathlab's reason, without the miner it names in its messages.
      const reason = error.message.replace(/^miner -?\d+: /, "");
      return { ...prompt, validation, pathSet: undefined, reason };
    }
    throw error;
  }
}

/** A path with whole floats and big ints as plain numbers (the same array when it has none). */
function plainPrices(path: unknown): unknown {
  if (!Array.isArray(path) || path.every((price) => typeof price === "number")) return path;
  return path.map((price: unknown) =>
    price instanceof PythonFloat ? price.value : typeof price === "bigint" ? Number(price) : price,
  );
}

/** Whether Python reads `value` as an int (bools included). */
function isInt(value: unknown): boolean {
  return typeof value === "bigint" || typeof value === "boolean" || Number.isSafeInteger(value);
}

/** A JSON int of plausible Unix seconds (not milliseconds), else `undefined`. */
function unixSeconds(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && Math.abs(value as number) <= 1e11
    ? (value as number)
    : undefined;
}

/** A value as its JSON text, for reasons (whole floats as floats). */
function jsonText(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value instanceof PythonFloat) return `${value.value}.0`;
  if (typeof value === "bigint") return value.toString();
  return JSON.stringify(value) ?? String(value);
}
