/**
 * The validator's check of a miner's response (synth `validate_responses`, with the validator's dated rules):
 * `CORRECT` or the first failure, with the validator's exact reason, under the format rule of a
 * date ({@link validatorEraAt}). Read in the validator's code: `response_validation_v2.py` of
 * mode-network/synth-subnet at 22fe852 (legacy rule) and of synthdataco/synth-subnet at 6bbb152
 * (v1.10.3 rule, released 2026-07-16).
 *
 * Checks, first failure wins:
 * 1. no response (the miner timed out: `undefined`) → `time out or internal server error (process
 *    time is None)`;
 * 2. `null` or `[]` → `Response is empty`; not an array → `Response format is incorrect: expected
 *    tuple or list, got <class 'dict'>`;
 * 3. element 0 not an int → `Start time format is incorrect: expected int, got <class 'float'>`,
 *    then element 1 likewise (`Time increment format is incorrect: …`); a one-element response
 *    makes the validator's code raise, recorded as `error during validation`;
 * 4. `Start time timestamp is incorrect: expected S, got T`, `Time increment is incorrect:
 *    expected I, got J`, `Number of paths is incorrect: expected 1000, got N`;
 * 5. paths: `Path format is incorrect: expected list, got <class 'dict'>`, `Number of time points
 *    is incorrect: expected 289, got 288`, and the prices ({@link priceFormatReason}). The legacy
 *    rule checks path by path (shape, then its prices); v1.10.3 checks the shape of every path
 *    before any price.
 *
 * The response is the JSON value the validator's `validate_responses` receives, in the
 * representation of `pythonJson.ts` (`parsePythonJson` keeps int and float apart); a path may also
 * be a Float64Array, whose prices are Python floats (what a Python miner sends: `80000.0`), or a
 * {@link JsonNumberPrices}, whose prices read as `JSON.parse` numbers do (a whole one an int).
 * Not modelled: the network's transport types the response as `tuple[int | list[int | float],
 * ...]` (pydantic, lax) and keeps the raw JSON only when that fails, so on the network a response
 * whose only fault is a bool or a numeric string in a path arrives with 1/0 or a number there and
 * passes; here it fails (the stricter verdict, and the validator's own).
 *
 * Over 300 lines because this comment lists the validator's checks with their exact reasons, beside
 * the code that gives them in the same order.
 */

import { validatorEraAt, type EraSettings, type ResponseFormatRule } from "./eras.ts";
import {
  exceedsDigitLimit,
  hasAtMostEightSignificantDigits,
  pythonNumberText,
} from "./priceFormat.ts";
import { PythonFloat, isPythonInt, pythonStr, pythonTypeName } from "./pythonJson.ts";

/**
 * A path's prices as `JSON.parse` reads them, held in a Float64Array: each price is a `number`, so
 * a whole one is a Python int however it was written, as for a plain array of numbers. Checked
 * without building that array.
 * @example validateResponse([start, 300, new JsonNumberPrices(values)], prompt, { at })
 */
export class JsonNumberPrices {
  readonly values: Float64Array;
  /**
   * @param values - one path's prices, in time order.
   */
  constructor(values: Float64Array) {
    this.values = values;
  }
  get length(): number {
    return this.values.length;
  }
}

/**
 * The reason of a response that passes every check.
 * @example CORRECT_REASON // => "CORRECT"
 */
export const CORRECT_REASON = "CORRECT";

/**
 * The reason of a miner that did not answer (the validator has no process time).
 * @example NO_RESPONSE_REASON // => "time out or internal server error (process time is None)"
 */
export const NO_RESPONSE_REASON = "time out or internal server error (process time is None)";

/**
 * The reason the validator records when its check raises (a response with one element).
 * @example VALIDATION_ERROR_REASON // => "error during validation"
 */
export const VALIDATION_ERROR_REASON = "error during validation";

/**
 * The prompt a response answers: its start, step and length in seconds, and the paths it asks for.
 * @example const prompt: ValidationPrompt = { startTimeUnix: 1784160000, timeIncrement: 300, timeLength: 86400 };
 */
export interface ValidationPrompt {
  readonly startTimeUnix: number;
  readonly timeIncrement: number;
  readonly timeLength: number;
  /** Paths asked for; 1000 when omitted. */
  readonly numSimulations?: number;
}

/**
 * When the response is validated (Unix seconds: the validator checks at request time, about the
 * prompt's start) and the era settings whose `responseFormatFromUnix` dates the v1.10.3 rule.
 * @example const options: ValidationOptions = { at: 1784160000 };
 */
export interface ValidationOptions {
  /** When the response is validated, in Unix seconds (the validator checks at request time). */
  readonly at: number;
  /** The era settings, whose `responseFormatFromUnix` dates the v1.10.3 rule. */
  readonly eraSettings?: EraSettings;
}

/**
 * The validator's verdict on a miner's `response` `[start_time, time_increment, path, …]` to
 * `prompt`, under the format rule in force at `options.at`: `CORRECT` or the first failure's
 * exact reason (the checks and the representation of the response are in this file's header).
 * @param response - what the miner answered, as {@link parsePythonJson} reads it; `undefined` when
 *   it did not answer.
 * @param prompt - the prompt the response answers.
 * @param options - when the response is validated, and the era settings that date the format rules.
 * @example validateResponse(undefined, prompt, { at }) // => "time out or internal server error (process time is None)"
 * @example validateResponse([start, 300, ...paths288], prompt, { at }) // => "Number of time points is incorrect: expected 289, got 288"
 */
export function validateResponse(
  response: unknown,
  prompt: ValidationPrompt,
  options: ValidationOptions,
): string {
  return validateResponseUnderRule(
    response,
    prompt,
    validatorEraAt(options.at, options.eraSettings).responseFormat,
  );
}

/**
 * {@link validateResponse} under a given format rule rather than the rule of a date.
 * @param response - what the miner answered, as {@link parsePythonJson} reads it; `undefined` when
 *   it did not answer.
 * @param prompt - the prompt the response answers.
 * @param rule - the format rule to check prices with: `"legacy"` or `"v1.10.3"`.
 * @example validateResponseUnderRule([start, 300], prompt, "legacy") // => "Number of paths is incorrect: expected 1000, got 0"
 */
export function validateResponseUnderRule(
  response: unknown,
  prompt: ValidationPrompt,
  rule: ResponseFormatRule,
): string {
  if (response === undefined) return NO_RESPONSE_REASON;
  if (response === null) return "Response is empty";
  if (!Array.isArray(response)) {
    return `Response format is incorrect: expected tuple or list, got ${pythonTypeName(response)}`;
  }
  if (response.length === 0) return "Response is empty";
  const [startTime, timeIncrement] = response as unknown[];
  if (!isPythonIntLike(startTime)) {
    return `Start time format is incorrect: expected int, got ${pythonTypeName(startTime)}`;
  }
  if (response.length < 2) return VALIDATION_ERROR_REASON;
  if (!isPythonIntLike(timeIncrement)) {
    return `Time increment format is incorrect: expected int, got ${pythonTypeName(timeIncrement)}`;
  }
  if (!intEquals(startTime, prompt.startTimeUnix)) {
    return `Start time timestamp is incorrect: expected ${prompt.startTimeUnix}, got ${pythonStr(startTime)}`;
  }
  if (!intEquals(timeIncrement, prompt.timeIncrement)) {
    return `Time increment is incorrect: expected ${prompt.timeIncrement}, got ${pythonStr(timeIncrement)}`;
  }
  const expectedPaths = prompt.numSimulations ?? 1000;
  const pathCount = response.length - 2;
  if (pathCount !== expectedPaths) {
    return `Number of paths is incorrect: expected ${expectedPaths}, got ${pathCount}`;
  }
  const expectedPoints = Math.floor(prompt.timeLength / prompt.timeIncrement) + 1;
  if (rule === "legacy") {
    for (let index = 2; index < response.length; index++) {
      const path: unknown = response[index];
      const reason = pathShapeReason(path, expectedPoints) ?? pathPricesReason(path, rule);
      if (reason !== undefined) return reason;
    }
    return CORRECT_REASON;
  }
  for (let index = 2; index < response.length; index++) {
    const reason = pathShapeReason(response[index], expectedPoints);
    if (reason !== undefined) return reason;
  }
  for (let index = 2; index < response.length; index++) {
    const reason = pathPricesReason(response[index], rule);
    if (reason !== undefined) return reason;
  }
  return CORRECT_REASON;
}

/**
 * The validator's reason for one price under `rule`, or `undefined` when it passes.
 * - legacy: not int or float (bools are ints) → `Price format is incorrect: expected int or float,
 *   got <class 'str'>`; `len(str(price).replace(".", "")) > 8` → `… too many digits 91234.5678`.
 * - v1.10.3: not int or float, or a bool → `… expected int or float, got <class 'bool'>`; an int
 *   beyond float64 → `… too many digits N`; NaN or ±inf → `… non-finite value nan`; beyond float32
 *   → `… exceeds float32 range 1e+39`; non-zero but 0 in float32 → `… underflows float32 1e-46`;
 *   not equal to its 8-significant-digit form → `… too many digits 91234.5678`.
 * @param price - one price of a path, as read from the response: a number, bigint,
 *   {@link PythonFloat}, or anything else a miner sent.
 * @param rule - the validator's format rule: `"legacy"` or `"v1.10.3"`.
 * @example priceFormatReason(91234.5678, "v1.10.3") // => "Price format is incorrect: too many digits 91234.5678"
 * @example priceFormatReason(1e39, "legacy") // => undefined
 */
export function priceFormatReason(price: unknown, rule: ResponseFormatRule): string | undefined {
  if (typeof price === "number") {
    const isInt = isPythonInt(price);
    return rule === "legacy" ? legacyNumberReason(price, isInt) : currentReason(price, isInt);
  }
  if (price instanceof PythonFloat) {
    return rule === "legacy"
      ? legacyNumberReason(price.value, false)
      : currentReason(price.value, false);
  }
  if (typeof price === "bigint") {
    const text = price.toString();
    if (rule === "legacy") return text.length > 8 ? tooManyDigits(text) : undefined;
    const value = Number(price);
    return Number.isFinite(value) ? currentReason(value, true, text) : tooManyDigits(text);
  }
  if (typeof price === "boolean" && rule === "legacy") return undefined;
  return `Price format is incorrect: expected int or float, got ${pythonTypeName(price)}`;
}

function legacyNumberReason(price: number, isInt: boolean): string | undefined {
  return exceedsDigitLimit(price, isInt)
    ? tooManyDigits(pythonNumberText(price, isInt))
    : undefined;
}

/**
 * The v1.10.3 checks of a price whose float64 value is `value`; Python's str of the price is
 * `intText` for a big int, else {@link pythonNumberText} of (`value`, `isInt`).
 */
function currentReason(value: number, isInt: boolean, intText?: string): string | undefined {
  let problem: string | undefined;
  if (!Number.isFinite(value)) problem = "non-finite value";
  else {
    const asFloat32 = Math.fround(value);
    if (!Number.isFinite(asFloat32)) problem = "exceeds float32 range";
    else if (asFloat32 === 0 && value !== 0) problem = "underflows float32";
    else if (!hasAtMostEightSignificantDigits(value)) problem = "too many digits";
    else return undefined;
  }
  return `Price format is incorrect: ${problem} ${intText ?? pythonNumberText(value, isInt)}`;
}

function tooManyDigits(text: string): string {
  return `Price format is incorrect: too many digits ${text}`;
}

/** The first price of `path` (a list) that fails `rule`. */
function pathPricesReason(path: unknown, rule: ResponseFormatRule): string | undefined {
  if (path instanceof Float64Array) return float64PathReason(path, rule);
  if (path instanceof JsonNumberPrices) return numberPathReason(path.values, rule);
  const prices = path as readonly unknown[];
  for (let index = 0; index < prices.length; index++) {
    const reason = priceFormatReason(prices[index], rule);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** {@link pathPricesReason} for a Float64Array (every price a Python float). */
function float64PathReason(prices: Float64Array, rule: ResponseFormatRule): string | undefined {
  const count = prices.length;
  if (rule === "legacy") {
    for (let index = 0; index < count; index++) {
      const reason = legacyNumberReason(prices[index], false);
      if (reason !== undefined) return reason;
    }
    return undefined;
  }
  for (let index = 0; index < count; index++) {
    const reason = currentReason(prices[index], false);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/** {@link pathPricesReason} for {@link JsonNumberPrices}: each price as a `number` (whole: an int). */
function numberPathReason(prices: Float64Array, rule: ResponseFormatRule): string | undefined {
  for (let index = 0; index < prices.length; index++) {
    const price = prices[index];
    const isInt = isPythonInt(price);
    const reason =
      rule === "legacy" ? legacyNumberReason(price, isInt) : currentReason(price, isInt);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

function pathShapeReason(path: unknown, expectedPoints: number): string | undefined {
  if (
    !Array.isArray(path) &&
    !(path instanceof Float64Array) &&
    !(path instanceof JsonNumberPrices)
  ) {
    return `Path format is incorrect: expected list, got ${pythonTypeName(path)}`;
  }
  if (path.length !== expectedPoints) {
    return `Number of time points is incorrect: expected ${expectedPoints}, got ${path.length}`;
  }
  return undefined;
}

/** Python's `isinstance(value, int)`: ints and bools. */
function isPythonIntLike(value: unknown): boolean {
  return (
    typeof value === "boolean" ||
    typeof value === "bigint" ||
    (typeof value === "number" && isPythonInt(value))
  );
}

/** Python's `value == expected` for an int-like `value` (True == 1). */
function intEquals(value: unknown, expected: number): boolean {
  if (typeof value === "bigint") return value === BigInt(expected);
  return Number(value) === expected;
}
