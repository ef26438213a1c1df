/**
 * The JSON of one prediction set (`{"miner_uid":…,"start_time":…,"predictions":[[…],…]}`) written
 * byte by byte from path-major prices, the one large body the sandbox serves.
 *
 * Speed (measured on 10 sets × 1,000 paths × 289 prices of 8 significant digits, this machine):
 * `JSON.stringify` of nested arrays then `Buffer.from` ≈ 28 ms per set; this writer ≈ 7 ms per set.
 * Clarity was traded for speed here; the readable form is `JSON.stringify({ miner_uid, start_time,
 * predictions })`, which the tests compare against byte for byte.
 */

/**
 * Alterations of the body for fault injection (`faults.ts`); none by default.
 * @example const options: PredictionSetJsonOptions = { points: 288 };
 */
export interface PredictionSetJsonOptions {
  /** Points written per path (fewer than there are: the last ones are dropped). */
  readonly points?: number;
  /** Write the second point of the first path as the literal `NaN` (not JSON). */
  readonly nanPrice?: boolean;
  /** Leave out the first field, `miner_uid`. */
  readonly omitMinerUid?: boolean;
}

const POWERS_OF_TEN = Float64Array.from({ length: 23 }, (_, exponent) => 10 ** exponent);
const COMMA = 44;
const OPEN = 91;
const CLOSE = 93;
const ZERO = 48;
const POINT = 46;
/**
 * Longest `String(x)` of a double plus a comma: 25 characters ("-0.0000012345678901234567", 17
 * digits below 1e-6 written without an exponent; "-2.2250738585072014e-308" has 24).
 */
const MAX_BYTES_PER_PRICE = 26;

/**
 * The JSON text of one prediction set as UTF-8 bytes, identical to `JSON.stringify` of the record
 * `{ miner_uid, start_time, predictions }` (without options). `values` is path-major: path p,
 * point t at `p * nPoints + t`. Throws `RangeError` when `values` is shorter than nPaths × nPoints.
 * @example
 * predictionSetJson(47, 1772063100, Float64Array.of(1, 1.5, 2, 2.5), 2, 2).toString()
 * // => '{"miner_uid":47,"start_time":1772063100,"predictions":[[1,1.5],[2,2.5]]}'
 */
export function predictionSetJson(
  minerUid: number,
  startTimeUnix: number,
  values: ArrayLike<number>,
  nPaths: number,
  nPoints: number,
  options: PredictionSetJsonOptions = {},
): Buffer {
  if (values.length < nPaths * nPoints) {
    throw new RangeError(
      `predictionSetJson requires nPaths × nPoints = ${nPaths * nPoints} values, got ${values.length}`,
    );
  }
  const written = Math.min(options.points ?? nPoints, nPoints);
  const head =
    (options.omitMinerUid ? "{" : `{"miner_uid":${JSON.stringify(minerUid)},`) +
    `"start_time":${JSON.stringify(startTimeUnix)},"predictions":[`;
  const buffer = scratch(head.length + nPaths * (written * MAX_BYTES_PER_PRICE + 2) + 2);
  let position = buffer.write(head, 0, "latin1");
  for (let path = 0; path < nPaths; ++path) {
    if (path > 0) buffer[position++] = COMMA;
    buffer[position++] = OPEN;
    const base = path * nPoints;
    for (let point = 0; point < written; ++point) {
      if (point > 0) buffer[position++] = COMMA;
      if (options.nanPrice && path === 0 && point === 1) {
        position += buffer.write("NaN", position, "latin1");
      } else {
        position = writeNumber(buffer, position, values[base + point]);
      }
    }
    buffer[position++] = CLOSE;
  }
  buffer[position++] = CLOSE;
  buffer[position++] = 125; // }
  return Buffer.from(buffer.subarray(0, position));
}

let scratchBuffer = Buffer.alloc(0);

/**
 * A buffer of at least `bytes` bytes, reused from one set to the next: the bound on a set's text
 * is a few times its size (7 MB for a 24h set), and allocating it per set costs the collector
 * more than writing the set does. The written bytes are copied out, so none escape.
 */
function scratch(bytes: number): Buffer {
  if (scratchBuffer.byteLength < bytes) scratchBuffer = Buffer.allocUnsafeSlow(bytes);
  return scratchBuffer;
}

/** The two ASCII digits of 0 … 99, at 2·n and 2·n + 1. */
const DIGIT_PAIRS = Uint8Array.from({ length: 200 }, (_, index) =>
  index % 2 === 0 ? ZERO + Math.floor(index / 20) : ZERO + (((index - 1) / 2) % 10),
);

/**
 * Writes `x` as `String(x)` (JSON's form; NaN and ±Infinity as `null`, as JSON.stringify does)
 * and returns the position after it. Fast path: a positive number in [1e-6, 1e15) with at most 8
 * significant digits, whose 8-digit decimal m·10^(e−7) converts back to exactly `x` (checked with
 * one correctly rounded multiplication or division by an exact power of ten, so the digits
 * written parse back to the same double; with at most 15 significant digits no shorter decimal
 * does, so these are `String(x)`'s digits). The digits are int32 arithmetic, two at a time.
 * Anything else goes through `String(x)`.
 */
function writeNumber(buffer: Buffer, position: number, x: number): number {
  if (!(x >= 1e-6 && x < 1e15)) return writeText(buffer, position, x);
  const exponent = decimalExponent(x);
  const scale = 7 - exponent;
  let rounded: number;
  if (scale >= 0) {
    rounded = Math.round(x * POWERS_OF_TEN[scale]);
    if (rounded / POWERS_OF_TEN[scale] !== x) return writeText(buffer, position, x);
  } else {
    rounded = Math.round(x / POWERS_OF_TEN[-scale]);
    if (rounded * POWERS_OF_TEN[-scale] !== x) return writeText(buffer, position, x);
  }
  if (rounded >= 1e8 || rounded < 1e7) return writeText(buffer, position, x);
  // The 8 digits of the mantissa without its trailing zeros.
  let mantissa = rounded | 0;
  let significant = 8;
  while (significant > 1) {
    const quotient = (mantissa / 10) | 0;
    if (quotient * 10 !== mantissa) break;
    mantissa = quotient;
    --significant;
  }
  if (exponent < 0) {
    buffer[position++] = ZERO;
    buffer[position++] = POINT;
    for (let zero = -1; zero > exponent; --zero) buffer[position++] = ZERO;
    return writeDigits(buffer, position, mantissa, significant);
  }
  const integerDigits = exponent + 1;
  if (significant <= integerDigits) {
    position = writeDigits(buffer, position, mantissa, significant);
    for (let zero = significant; zero < integerDigits; ++zero) buffer[position++] = ZERO;
    return position;
  }
  const fractionDigits = significant - integerDigits;
  const divisor = POWERS_OF_TEN[fractionDigits] | 0;
  const integer = (mantissa / divisor) | 0;
  position = writeDigits(buffer, position, integer, integerDigits);
  buffer[position++] = POINT;
  return writeDigits(buffer, position, mantissa - integer * divisor, fractionDigits);
}

/** ⌊log10 x⌋ for 1e-6 ≤ x < 1e15, by comparisons (the usual prices in two or three). */
function decimalExponent(x: number): number {
  if (x >= 1) {
    if (x < 1e4) return x < 10 ? 0 : x < 100 ? 1 : x < 1e3 ? 2 : 3;
    if (x < 1e8) return x < 1e5 ? 4 : x < 1e6 ? 5 : x < 1e7 ? 6 : 7;
    let exponent = 8;
    while (exponent < 14 && x >= POWERS_OF_TEN[exponent + 1]) ++exponent;
    return exponent;
  }
  let exponent = -1;
  while (x < 1 / POWERS_OF_TEN[-exponent]) --exponent;
  return exponent;
}

/** Writes exactly `count` decimal digits of the int32 `value` (leading zeros included). */
function writeDigits(buffer: Buffer, position: number, value: number, count: number): number {
  let index = position + count;
  while (index - position >= 2) {
    const quotient = (value / 100) | 0;
    const pair = 2 * (value - quotient * 100);
    buffer[--index] = DIGIT_PAIRS[pair + 1];
    buffer[--index] = DIGIT_PAIRS[pair];
    value = quotient;
  }
  if (index > position) buffer[index - 1] = ZERO + value;
  return position + count;
}

function writeText(buffer: Buffer, position: number, x: number): number {
  return position + buffer.write(Number.isFinite(x) ? String(x) : "null", position, "latin1");
}
