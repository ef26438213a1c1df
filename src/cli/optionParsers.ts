/**
 * Parsers of command-line option values for commander: each returns the value or throws
 * commander's `InvalidArgumentError` naming the option, what was expected and what was got (a
 * usage error: exit code 2).
 */

import { InvalidArgumentError } from "commander";
import { parseIsoTimeMs } from "../domain/time.ts";

/**
 * A parser of whole numbers from `minimum` to `maximum`.
 * @example integerOption("--concurrency", 1, 64)("3") // => 3
 */
export function integerOption(
  name: string,
  minimum: number,
  maximum: number,
): (text: string) => number {
  return boundedOption(name, minimum, maximum, /^\s*[+-]?\d+\s*$/, "a whole number");
}

/**
 * A parser of decimal numbers from `minimum` to `maximum`.
 * @example numberOption("--requests-per-second", 0, 10_000)("2.5") // => 2.5
 */
export function numberOption(
  name: string,
  minimum: number,
  maximum: number,
): (text: string) => number {
  return boundedOption(name, minimum, maximum, /^\s*\d+(\.\d+)?\s*$/, "a number");
}

/** A parser of numbers written as `pattern` allows, from `minimum` to `maximum`. */
function boundedOption(
  name: string,
  minimum: number,
  maximum: number,
  pattern: RegExp,
  kind: string,
): (text: string) => number {
  return (text) => {
    const value = pattern.test(text) ? Number(text) : Number.NaN;
    if (!(value >= minimum && value <= maximum)) {
      throw new InvalidArgumentError(
        `${name} must be ${kind} from ${minimum} to ${maximum}, got ${JSON.stringify(text)}`,
      );
    }
    return value;
  };
}

/**
 * A parser of comma-separated lists (`BTC,ETH`): the items trimmed, empty items dropped, each
 * checked by `check` (which throws an Error whose message becomes the usage error).
 * @example listOption("--horizons", (item) => item)("24h, 1h") // => ["24h", "1h"]
 */
export function listOption<T>(name: string, check: (item: string) => T): (text: string) => T[] {
  return (text) => {
    const items = text
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item !== "");
    if (items.length === 0) {
      throw new InvalidArgumentError(
        `${name} must list at least one value, got ${JSON.stringify(text)}`,
      );
    }
    return items.map((item) => {
      try {
        return check(item);
      } catch (error) {
        throw new InvalidArgumentError((error as Error).message);
      }
    });
  };
}

/**
 * A parser of ISO 8601 times (kept as the text given).
 * @example isoTimeOption("--now")("2026-02-25T23:47:00Z") // => "2026-02-25T23:47:00Z"
 */
export function isoTimeOption(name: string): (text: string) => string {
  return (text) => {
    if (Number.isNaN(parseIsoTimeMs(text))) {
      throw new InvalidArgumentError(
        `${name} must be an ISO 8601 time such as 2026-02-25T23:47:00Z, got ${JSON.stringify(text)}`,
      );
    }
    return text;
  };
}
