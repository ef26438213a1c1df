/**
 * The lexemes of the prediction-set byte parser (`predictionBytes.ts`): JSON numbers read straight
 * from UTF-8 bytes with values bit-identical to `JSON.parse`, the literal words, strings, and the
 * syntax error that names a byte offset.
 */

const ZERO = 0x30;
const NINE = 0x39;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** What {@link scanNumber} returns when the bytes end inside the number (or right after it). */
export const NUMBER_INCOMPLETE = -1;

/** What {@link scanStringEnd} returns when the bytes end inside the string. */
export const STRING_OPEN = -1;
/** What {@link scanStringEnd} returns when the bytes end inside the string, right after a backslash. */
export const STRING_OPEN_ESCAPED = -2;

/** 2^53: every integer up to it is an exact double. */
const MAX_EXACT_INTEGER = 9007199254740992;

/**
 * The exact doubles 10^0 … 10^22 (every power up to 10^22 is exactly representable).
 * @example POWERS_OF_TEN[22] // => 1e22
 */
export const POWERS_OF_TEN = Float64Array.from({ length: 23 }, (_, power) => Number(`1e${power}`));

/**
 * Where {@link scanNumber} leaves its result (one object reused for every number: no allocation).
 * @example const scan: NumberScan = { value: 0, isInt: false };
 */
export interface NumberScan {
  /** The number's value, as `JSON.parse` reads it. */
  value: number;
  /** The lexeme has neither fraction nor exponent (Python reads it as an `int`). */
  isInt: boolean;
}

/**
 * A malformed body: what was found and at which byte offset of the body (0-based).
 * @example new JsonBytesSyntaxError('Unexpected "x"', 12).message // => 'Unexpected "x" in JSON at byte offset 12'
 */
export class JsonBytesSyntaxError extends SyntaxError {
  /** Byte offset of the problem in the whole body. */
  readonly offset: number;

  constructor(problem: string, offset: number) {
    super(`${problem} in JSON at byte offset ${offset}`);
    this.name = "SyntaxError";
    this.offset = offset;
  }
}

/**
 * The syntax error for an unexpected byte at `offset`: printable ASCII quoted, others in hex.
 * @example unexpectedByte(0x78, 12).message // => 'Unexpected "x" in JSON at byte offset 12'
 */
export function unexpectedByte(byte: number, offset: number): JsonBytesSyntaxError {
  const shown =
    byte >= 0x20 && byte < 0x7f
      ? JSON.stringify(String.fromCharCode(byte))
      : `byte 0x${byte.toString(16)}`;
  return new JsonBytesSyntaxError(`Unexpected ${shown}`, offset);
}

/**
 * Whether `byte` can continue a number or literal word (`0-9 A-Z a-z + - .`): a lexeme is read to
 * the first byte that is not one, which must then be whitespace or structure.
 * @example isLexemeByte(0x65) // => true
 */
export function isLexemeByte(byte: number): boolean {
  return (
    (byte >= ZERO && byte <= NINE) ||
    ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a) ||
    byte === MINUS ||
    byte === PLUS ||
    byte === DOT
  );
}

/**
 * Reads the JSON number that starts at `bytes[start]` (strict grammar: `-? (0 | [1-9][0-9]*)
 * (. [0-9]+)? ([eE] [+-]? [0-9]+)?`) into `out`, and returns the index of the byte after it.
 * Returns {@link NUMBER_INCOMPLETE} when the number reaches `end` (the next chunk may continue
 * it), and `-2 - index` when the byte at `index` breaks the grammar.
 * Method: Clinger's exact fast path (Clinger 1990, "How to read floating point numbers
 * accurately"). The digits, without the decimal point, make an integer mantissa; up to 2^53 it is
 * an exact double (every mantissa of 15 significant digits, most of 16), and so is 10^|e| for a
 * decimal exponent |e| ≤ 22, so one IEEE multiplication or division rounds correctly, as
 * `JSON.parse` does. Any other number is read by `Number` on the text of its lexeme alone.
 * @example
 * const scan = { value: 0, isInt: false };
 * scanNumber(new TextEncoder().encode("67676.123,"), 0, 10, scan) // => 9 (scan.value 67676.123)
 */
export function scanNumber(bytes: Uint8Array, start: number, end: number, out: NumberScan): number {
  let index = start;
  let byte = bytes[index];
  const negative = byte === MINUS;
  if (negative) {
    if (++index >= end) return NUMBER_INCOMPLETE;
    byte = bytes[index];
  }
  let mantissa = 0;
  let exponent = 0;
  if (byte === ZERO) {
    if (++index >= end) return NUMBER_INCOMPLETE;
    byte = bytes[index];
    if (byte >= ZERO && byte <= NINE) return -2 - index;
  } else if (byte > ZERO && byte <= NINE) {
    do {
      mantissa = mantissa * 10 + (byte - ZERO);
      if (++index >= end) return NUMBER_INCOMPLETE;
      byte = bytes[index];
    } while (byte >= ZERO && byte <= NINE);
  } else {
    return -2 - index;
  }
  let isInt = true;
  if (byte === DOT) {
    isInt = false;
    if (++index >= end) return NUMBER_INCOMPLETE;
    byte = bytes[index];
    if (byte < ZERO || byte > NINE) return -2 - index;
    do {
      mantissa = mantissa * 10 + (byte - ZERO);
      exponent--;
      if (++index >= end) return NUMBER_INCOMPLETE;
      byte = bytes[index];
    } while (byte >= ZERO && byte <= NINE);
  }
  if (byte === LOWER_E || byte === UPPER_E) {
    isInt = false;
    if (++index >= end) return NUMBER_INCOMPLETE;
    byte = bytes[index];
    const negativeExponent = byte === MINUS;
    if (negativeExponent || byte === PLUS) {
      if (++index >= end) return NUMBER_INCOMPLETE;
      byte = bytes[index];
    }
    if (byte < ZERO || byte > NINE) return -2 - index;
    let written = 0;
    do {
      // Capped: beyond it the value is 0 or Infinity whatever the digits, and `Number` reads it.
      if (written < 100000) written = written * 10 + (byte - ZERO);
      if (++index >= end) return NUMBER_INCOMPLETE;
      byte = bytes[index];
    } while (byte >= ZERO && byte <= NINE);
    exponent += negativeExponent ? -written : written;
  }
  // Past 2^53 the accumulated mantissa may be inexact, but it stays ≥ 2^53 (rounding is monotonic).
  if (mantissa <= MAX_EXACT_INTEGER && exponent >= -22 && exponent <= 22) {
    const magnitude =
      exponent < 0 ? mantissa / POWERS_OF_TEN[-exponent] : mantissa * POWERS_OF_TEN[exponent];
    out.value = negative ? -magnitude : magnitude;
  } else {
    out.value = Number(latin1Text(bytes, start, index));
  }
  out.isInt = isInt;
  return index;
}

/**
 * The bytes `start … end` as a string, one character per byte (for ASCII lexemes).
 * @example latin1Text(Uint8Array.of(0x31, 0x65, 0x39), 0, 3) // => "1e9"
 */
export function latin1Text(bytes: Uint8Array, start: number, end: number): string {
  // One reused array of char codes: faster than concatenating characters or a subarray's apply.
  const length = end - start;
  lexemeCodes.length = length;
  for (let index = 0; index < length; index++) lexemeCodes[index] = bytes[start + index];
  return String.fromCharCode.apply(null, lexemeCodes);
}

const lexemeCodes: number[] = [];

/** The literal words, as JSON or Python's `json.loads` reads them (the last three: Python only). */
const LITERALS: readonly (readonly [string, unknown])[] = [
  ["true", true],
  ["false", false],
  ["null", null],
  ["NaN", NaN],
  ["Infinity", Infinity],
  ["-Infinity", -Infinity],
];

/**
 * The value of the literal word `bytes[start … end]` (`true`, `false`, `null`, and Python's `NaN`,
 * `Infinity`, `-Infinity`), or `undefined` when it is none.
 * @example literalValue(new TextEncoder().encode("NaN"), 0, 3) // => NaN
 */
export function literalValue(bytes: Uint8Array, start: number, end: number): unknown {
  for (let word = 0; word < LITERALS.length; word++) {
    const [text, value] = LITERALS[word];
    if (text.length !== end - start) continue;
    let index = 0;
    while (index < text.length && text.charCodeAt(index) === bytes[start + index]) index++;
    if (index === text.length) return value;
  }
  return undefined;
}

/**
 * The index after the closing quote of the string whose content continues at `bytes[start]`
 * (`escaped`: the previous byte was a backslash that escapes this one), or {@link STRING_OPEN} /
 * {@link STRING_OPEN_ESCAPED} when the bytes end first.
 * @example scanStringEnd(new TextEncoder().encode('"ab\\"c",'), 1, 8, false) // => 7
 */
export function scanStringEnd(
  bytes: Uint8Array,
  start: number,
  end: number,
  escaped: boolean,
): number {
  let pendingEscape = escaped;
  for (let index = start; index < end; index++) {
    if (pendingEscape) pendingEscape = false;
    else if (bytes[index] === BACKSLASH) pendingEscape = true;
    else if (bytes[index] === QUOTE) return index + 1;
  }
  return pendingEscape ? STRING_OPEN_ESCAPED : STRING_OPEN;
}

/**
 * The index of the first byte that makes the string `bytes[start … end]` (quotes included)
 * invalid JSON (a control character, an unknown escape, a `\u` without four hex digits), or -1.
 * @example stringFaultIndex(new TextEncoder().encode('"a\\x"'), 0, 5) // => 3
 */
export function stringFaultIndex(bytes: Uint8Array, start: number, end: number): number {
  const last = end - 1;
  for (let index = start + 1; index < last; index++) {
    const byte = bytes[index];
    if (byte < 0x20) return index;
    if (byte !== BACKSLASH) continue;
    const escape = bytes[++index];
    if (escape === 0x75) {
      for (let digit = 0; digit < 4; digit++) {
        const hex = bytes[++index];
        const letter = hex | 0x20;
        if (
          index >= last ||
          !((hex >= ZERO && hex <= NINE) || (hex >= 0x41 && letter >= 0x61 && letter <= 0x66))
        ) {
          return index;
        }
      }
    } else if (
      escape !== QUOTE &&
      escape !== BACKSLASH &&
      escape !== 0x2f &&
      escape !== 0x62 &&
      escape !== 0x66 &&
      escape !== 0x6e &&
      escape !== 0x72 &&
      escape !== 0x74
    ) {
      return index;
    }
  }
  return -1;
}

const utf8 = new TextDecoder("utf-8");

/**
 * The string value of the valid JSON string `bytes[start … end]` (quotes included).
 * @example stringValue(new TextEncoder().encode('"a\\u0062"'), 0, 9) // => "ab"
 */
export function stringValue(bytes: Uint8Array, start: number, end: number): string {
  return JSON.parse(utf8.decode(bytes.subarray(start, end))) as string;
}

/**
 * Whether the JSON string `bytes[start … end]` (quotes included) is exactly `"name"` (a key
 * written with escapes is decoded first).
 * @example stringEquals(new TextEncoder().encode('"miner_uid"'), 0, 11, "miner_uid") // => true
 */
export function stringEquals(bytes: Uint8Array, start: number, end: number, name: string): boolean {
  for (let index = start + 1; index < end - 1; index++) {
    if (bytes[index] === BACKSLASH) return stringValue(bytes, start, end) === name;
  }
  if (end - start - 2 !== name.length) return false;
  for (let index = 0; index < name.length; index++) {
    if (bytes[start + 1 + index] !== name.charCodeAt(index)) return false;
  }
  return true;
}
