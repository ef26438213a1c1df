/**
 * JSON as the validator's Python reads it (`json.loads`): a number written with a fraction or an
 * exponent is a `float` even when its value is whole (`1.0`, `1e5`), one written without is an
 * `int` of any size, `true`/`false` are `bool` (a subclass of `int`), and the non-standard tokens
 * `NaN`, `Infinity` and `-Infinity` are floats. `JSON.parse` loses the first two distinctions
 * (`1.0` → 1, big integers rounded), which change the validator's reasons (`str(1.0)` is "1.0",
 * `str(1)` is "1"); {@link parsePythonJson} keeps them.
 *
 * Representation of Python's numbers in JavaScript values:
 * - a `number` is an `int` when it is whole and below 10²¹ in magnitude (how `JSON.stringify`
 *   writes it: digits only), a `float` otherwise (`1.5`, `1e+21`, `NaN`, `Infinity`);
 * - a `bigint` is an `int` (any size, exact digits);
 * - a {@link PythonFloat} is a `float` (used for whole values, which a `number` would make ints).
 */

import { pythonNumberText } from "./priceFormat.ts";

/**
 * A Python `float` whose value a plain `number` would present as an `int`: a whole value written
 * with a fraction or exponent (`80000.0`, `1e5`).
 * @example new PythonFloat(80000).value // => 80000
 */
export class PythonFloat {
  /** The float's value. */
  readonly value: number;
  /**
   * @param value - the float's value, a whole number.
   */
  constructor(value: number) {
    this.value = value;
  }
}

/**
 * The text of a JSON number, read as Python does: `int` (a `number` when exactly representable,
 * else a `bigint`) or `float` (a {@link PythonFloat} when whole and finite, else a `number`).
 * @param text - a JSON number exactly as written, e.g. `1.0` or `12345678901234567891`.
 * @example pythonJsonNumber("1.0") // => PythonFloat { value: 1 }
 * @example pythonJsonNumber("12345678901234567891") // => 12345678901234567891n
 */
export function pythonJsonNumber(text: string): number | bigint | PythonFloat {
  if (/^-?\d+$/.test(text)) {
    const value = Number(text);
    return Number.isSafeInteger(value) ? value + 0 : BigInt(text);
  }
  const value = Number(text);
  return Number.isInteger(value) && Math.abs(value) < 1e21 ? new PythonFloat(value) : value;
}

/**
 * Traces of number lexemes whose Python reading JSON.parse does not keep: an exponent, a whole
 * fraction (`.0`), 16 digits in a row, NaN or Infinity (separate patterns: one alternation is 20×
 * slower on a 3 MB response).
 */
const PYTHON_ONLY_NUMBERS = [
  /[eE][+-]?\d/,
  /\.0+(?!\d)/,
  /\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d\d/,
  /NaN|Infinity/,
];

/**
 * Parses `text` as Python's `json.loads` does (numbers as in {@link pythonJsonNumber}; `NaN`,
 * `Infinity`, `-Infinity` accepted). Objects become plain objects, arrays arrays.
 * Throws `SyntaxError` with the offset of the first unexpected character.
 * @param text - a JSON text as Python's `json.dumps` writes it.
 * @example parsePythonJson("[1, 1.0, true]") // => [1, PythonFloat { value: 1 }, true]
 */
export function parsePythonJson(text: string): unknown {
  // Fast path: without a whole float (`1.0`, `1e5`), an int of 16 or more digits or a NaN or
  // Infinity token (or text that looks like one, even inside a string), JSON.parse reads every
  // number as Python does under the representation above.
  if (!PYTHON_ONLY_NUMBERS.some((pattern) => pattern.test(text))) {
    return JSON.parse(text) as unknown;
  }
  let position = 0;
  const fail = (): never => {
    throw new SyntaxError(
      position < text.length
        ? `Unexpected ${JSON.stringify(text[position])} in JSON at position ${position}`
        : "Unexpected end of JSON input",
    );
  };
  const skipSpace = () => {
    while (position < text.length) {
      const code = text.charCodeAt(position);
      if (code !== 32 && code !== 10 && code !== 13 && code !== 9) break;
      position++;
    }
  };
  const literal = (word: string, value: unknown): unknown => {
    if (!text.startsWith(word, position)) fail();
    position += word.length;
    return value;
  };
  // The comma-separated items of an array or object up to its `close` (the opening bracket read).
  const readItems = (close: string, readItem: () => void): void => {
    skipSpace();
    if (text[position] === close) {
      position++;
      return;
    }
    for (;;) {
      readItem();
      skipSpace();
      if (text[position] === ",") position++;
      else if (text[position] === close) {
        position++;
        return;
      } else fail();
    }
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (): unknown => {
    skipSpace();
    const character = text[position];
    if (character === "[") {
      position++;
      const items: unknown[] = [];
      readItems("]", () => {
        items.push(value());
      });
      return items;
    }
    if (character === "{") {
      position++;
      const object: Record<string, unknown> = {};
      readItems("}", () => {
        skipSpace();
        const key = value();
        if (typeof key !== "string") fail();
        skipSpace();
        if (text[position] !== ":") fail();
        position++;
        Object.defineProperty(object, key as string, {
          value: value(),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      });
      return object;
    }
    if (character === '"') {
      // Find the closing quote; JSON.parse then checks the escapes and control characters.
      const begin = position++;
      while (position < text.length && text[position] !== '"') {
        position += text[position] === "\\" ? 2 : 1;
      }
      if (position >= text.length) fail();
      position++;
      return JSON.parse(text.slice(begin, position)) as string;
    }
    if (character === "t") return literal("true", true);
    if (character === "f") return literal("false", false);
    if (character === "n") return literal("null", null);
    if (character === "N") return literal("NaN", NaN);
    if (character === "I") return literal("Infinity", Infinity);
    if (character === "-" && text.startsWith("-Infinity", position)) {
      return literal("-Infinity", -Infinity);
    }
    NUMBER.lastIndex = position;
    const match = NUMBER.exec(text) ?? fail();
    position += match[0].length;
    return pythonJsonNumber(match[0]);
  };
  const result = value();
  skipSpace();
  if (position < text.length) fail();
  return result;
}

/**
 * Python's `type(value)` as the validator prints it, for a value in the representation above:
 * `<class 'int'>`, `<class 'float'>`, `<class 'bool'>`, `<class 'str'>`, `<class 'list'>` (arrays
 * and Float64Arrays), `<class 'dict'>`, `<class 'NoneType'>` (null and undefined).
 * @param value - a value as {@link parsePythonJson} reads it.
 * @example pythonTypeName(1.5) // => "<class 'float'>"
 * @example pythonTypeName({}) // => "<class 'dict'>"
 */
export function pythonTypeName(value: unknown): string {
  return `<class '${pythonType(value)}'>`;
}

function pythonType(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "bigint") return "int";
  if (typeof value === "number") return isPythonInt(value) ? "int" : "float";
  if (value instanceof PythonFloat) return "float";
  if (typeof value === "string") return "str";
  if (Array.isArray(value) || value instanceof Float64Array) return "list";
  return "dict";
}

/**
 * Whether a `number` stands for a Python `int`: whole and below 10²¹ in magnitude.
 * @param value - a number as `JSON.parse` read it.
 * @example isPythonInt(80000) // => true
 * @example isPythonInt(1e21) // => false
 */
export function isPythonInt(value: number): boolean {
  return Number.isInteger(value) && Math.abs(value) < 1e21;
}

/**
 * Python's `str(value)` for a scalar in the representation above: ints as digits, floats as their
 * repr (`80000.0`, `1e+39`, `nan`), `True`/`False`, `None`, strings as they are.
 * @param value - a scalar as {@link parsePythonJson} reads it.
 * @example pythonStr(new PythonFloat(80000)) // => "80000.0"
 * @example pythonStr(true) // => "True"
 */
export function pythonStr(value: unknown): string {
  if (typeof value === "number") return pythonNumberText(value);
  if (typeof value === "bigint") return value.toString();
  if (value instanceof PythonFloat) return pythonNumberText(value.value, false);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value === null || value === undefined) return "None";
  return String(value);
}
