/**
 * The validator's rules on the text of one price (the network's competitions and the validator's dated rules), and the miners' rounding.
 *
 * - Legacy rule: a price has too many digits when `len(str(price).replace(".", "")) > 8`, a length
 *   of Python's text of the number, so the leading zero of a price below 1 counts ("0.51234567"
 *   fails) and so do the zeros of a large integer ("1000000000" fails), while "1e+39" passes.
 * - v1.10.3 rule: a price must equal its own 8-significant-digit form ({@link roundPrice}).
 */

/** 10^k for k = 0…22, all exact doubles. */
const POWERS_OF_TEN = Float64Array.from({ length: 23 }, (_, exponent) => 10 ** exponent);

/**
 * Significant digits the miners keep and the v1.10.3 rule allows.
 * @example PRICE_SIGNIFICANT_DIGITS // => 8
 */
export const PRICE_SIGNIFICANT_DIGITS = 8;

/**
 * The text Python's `str()` prints for a price. `isInt` says whether Python holds an `int` (a JSON
 * number written without fraction or exponent); by default a whole value below 10²¹ is taken as an
 * int with the digits `JSON.stringify` writes for it (the digits Python then reads). Floats print as
 * Python's repr —
 * the shortest round-trip digits (as JavaScript's), with `.0` on integral values and in scientific
 * form with a two-digit exponent when below 1e-4 or from 1e16 on; `inf`, `-inf`, `nan`.
 * @param price - the number to print, as JavaScript holds it.
 * @param isInt - whether Python holds the price as an `int`; by default, whether it is whole and
 *   below 10²¹ in magnitude.
 * @example
 * pythonNumberText(80000) // => "80000"
 * pythonNumberText(80000, false) // => "80000.0"
 * pythonNumberText(0.00001234) // => "1.234e-05"
 * pythonNumberText(1e39) // => "1e+39"
 */
export function pythonNumberText(
  price: number,
  isInt = Number.isInteger(price) && Math.abs(price) < 1e21,
): string {
  if (isInt) return Math.abs(price) < 1e21 ? String(price + 0) : BigInt(price).toString();
  if (Number.isNaN(price)) return "nan";
  if (!Number.isFinite(price)) return price > 0 ? "inf" : "-inf";
  const magnitude = Math.abs(price);
  if (magnitude !== 0 && (magnitude < 1e-4 || magnitude >= 1e16)) {
    const [mantissa, exponent] = price.toExponential().split("e");
    const sign = exponent.startsWith("-") ? "-" : "+";
    return `${mantissa}e${sign}${exponent.replace(/^[+-]/, "").padStart(2, "0")}`;
  }
  const text = Object.is(price, -0) ? "-0" : String(price);
  return Number.isInteger(price) ? `${text}.0` : text;
}

/**
 * Whether the legacy rule rejects `price` for "too many digits": `len(str(price).replace(".", ""))
 * > 8` on {@link pythonNumberText} (`isInt` as there). Fast path (no text) for the usual prices in
 * [1, 10⁷) written as floats or ints alike: there the test is exactly "the shortest decimal of
 * `price` has more than 8 significant digits" — except that an integral float costs one more
 * character (".0"), handled by the text path.
 * @param price - the price to test, as JavaScript holds it.
 * @param isInt - whether Python holds the price as an `int`; by default, whether it is whole and
 *   below 10²¹ in magnitude.
 * @example
 * exceedsDigitLimit(67676.123) // => false
 * exceedsDigitLimit(67676.1234) // => true
 * exceedsDigitLimit(0.51234567) // => true (the leading zero counts)
 * exceedsDigitLimit(1e39) // => false ("1e+39")
 */
export function exceedsDigitLimit(
  price: number,
  isInt = Number.isInteger(price) && Math.abs(price) < 1e21,
): boolean {
  if (price >= 1 && price < 1e7 && (isInt || !Number.isInteger(price))) {
    const scale = POWERS_OF_TEN[7 - decimalExponent(price)];
    return Math.round(price * scale) / scale !== price;
  }
  return pythonNumberText(price, isInt).replace(".", "").length > 8;
}

/**
 * `price` rounded to 8 significant digits as the miners do (Python's `round(price, 8 − 1 −
 * ⌊log10 |price|⌋)`: the exact binary value rounded to the nearest decimal, ties to even, then to
 * the nearest double), so that it passes the v1.10.3 rule's digit test. Zero and non-finite values
 * are returned as they are. The legacy rule still rejects some rounded prices: below 1 the leading
 * "0" costs one of its 8 characters, so 0.51234568 fails it (only 7 decimals pass there); from 10⁸
 * on every integral float has 9 or more digits; below 1e-4 the exponent ("e-05") costs 3 or 4.
 * @param price - any price; zero, NaN and ±Infinity come back unchanged.
 * @example
 * roundPrice(67676.123456) // => 67676.123
 * roundPrice(0.512345678) // => 0.51234568
 * roundPrice(1234567.25) // => 1234567.2 (a tie: to even)
 */
export function roundPrice(price: number): number {
  return roundToSignificantDigits(price, PRICE_SIGNIFICANT_DIGITS);
}

/**
 * `price` rounded to `digits` (1 to 17) significant digits, as {@link roundPrice} does for 8.
 * Fast path: one scaled `Math.round`, exact unless the scaled value lies within 10⁻⁶ of a tie or
 * the scale is not an exact double; those go through the exact decimal expansion.
 * @param price - any price; zero, NaN and ±Infinity come back unchanged.
 * @param digits - how many significant digits to keep, 1 to 17.
 * @example roundToSignificantDigits(67676.123456, 9) // => 67676.1235
 */
export function roundToSignificantDigits(price: number, digits: number): number {
  if (price === 0 || !Number.isFinite(price)) return price;
  const magnitude = Math.abs(price);
  const exponent =
    magnitude >= 1 && magnitude < 1e7
      ? decimalExponent(magnitude)
      : Math.floor(Math.log10(magnitude));
  const shift = digits - 1 - exponent;
  if (shift >= 0 && shift <= 22) {
    const scale = POWERS_OF_TEN[shift];
    const scaled = magnitude * scale;
    if (Math.abs(scaled - Math.floor(scaled) - 0.5) > 1e-6) {
      return Math.sign(price) * (Math.round(scaled) / scale);
    }
  } else if (shift < 0 && shift >= -22) {
    const unit = POWERS_OF_TEN[-shift];
    const scaled = magnitude / unit;
    if (Math.abs(scaled - Math.floor(scaled) - 0.5) > 1e-6) {
      return Math.sign(price) * (Math.round(scaled) * unit);
    }
  }
  return roundSignificantExact(price, digits);
}

/**
 * Rounds `values[start]` … `values[end − 1]` in place, each to what {@link roundToSignificantDigits}
 * gives for it. The usual prices (in [1, 10⁷), away from a tie) are rounded in the loop itself by
 * that function's own fast path, written out again here; the rest go through it. A separate loop
 * over a row of prices is about twice as fast as one call per price inside a simulation's loop,
 * where the call is not inlined; the fast path shared as a helper that answers NaN near a tie
 * measured about 1.5× slower than written out (2.9 against 4.3 ms per 289,000 prices).
 * @param values - the prices, rounded in place.
 * @param start - the index of the first price rounded.
 * @param end - the index after the last price rounded.
 * @param digits - how many significant digits to keep, 1 to 17.
 * @example
 * const row = Float64Array.of(67676.123456, 0.512345678);
 * roundRangeToSignificantDigits(row, 0, 2, 8); // row => [67676.123, 0.51234568]
 */
export function roundRangeToSignificantDigits(
  values: Float64Array,
  start: number,
  end: number,
  digits: number,
): void {
  for (let index = start; index < end; index++) {
    const value = values[index];
    if (value >= 1 && value < 1e7) {
      const shift = digits - 1 - decimalExponent(value);
      if (shift >= 0 && shift <= 22) {
        const scale = POWERS_OF_TEN[shift];
        const scaled = value * scale;
        if (Math.abs(scaled - Math.floor(scaled) - 0.5) > 1e-6) {
          values[index] = Math.round(scaled) / scale;
          continue;
        }
      }
    }
    values[index] = roundToSignificantDigits(value, digits);
  }
}

/**
 * Whether `price` equals its own 8-significant-digit form: the digit part of the v1.10.3 rule,
 * `float(f"{price:.7e}") == price`. Exact: the scaled test in [1, 10⁷) and `toExponential(7)`
 * elsewhere (which rounds exact ties up where Python rounds them to even, but a tie has 9
 * significant digits and fails either way). Zero passes; NaN fails.
 * @param price - the price to test.
 * @example
 * hasAtMostEightSignificantDigits(91234.567) // => true
 * hasAtMostEightSignificantDigits(91234.5678) // => false
 * hasAtMostEightSignificantDigits(1e9) // => true
 * hasAtMostEightSignificantDigits(0.51234567) // => true
 */
export function hasAtMostEightSignificantDigits(price: number): boolean {
  const magnitude = Math.abs(price);
  if (magnitude >= 1 && magnitude < 1e7) {
    const scale = POWERS_OF_TEN[7 - decimalExponent(magnitude)];
    return Math.round(magnitude * scale) / scale === magnitude;
  }
  return Number(price.toExponential(PRICE_SIGNIFICANT_DIGITS - 1)) === price;
}

/**
 * `value` rounded to `digits` significant digits from its exact decimal expansion, ties to even,
 * as Python's `round` does (slow: goes through text; used near ties only).
 */
function roundSignificantExact(value: number, digits: number): number {
  // toExponential(99): the exact expansion to 100 significant digits (correctly rounded there for
  // the tiny doubles with longer ones, which can only mislead within 1e-90, relative, of a tie).
  const [mantissa, exponentText] = Math.abs(value).toExponential(99).split("e");
  const exponent = Number(exponentText);
  const exact = mantissa.replace(".", "");
  const kept = exact.slice(0, digits);
  const rest = exact.slice(digits).replace(/0+$/, "");
  let roundUp = rest.length > 0 && rest[0] > "5";
  if (rest.length > 0 && rest[0] === "5") {
    roundUp = rest.length > 1 || Number(kept[kept.length - 1]) % 2 === 1;
  }
  const integer = BigInt(kept) + (roundUp ? 1n : 0n);
  const rounded = Number(`${integer.toString()}e${exponent - digits + 1}`);
  return Math.sign(value) * rounded;
}

/** ⌊log10(price)⌋ for 1 ≤ price < 10⁷, by comparisons (exact, and faster than Math.log10). */
function decimalExponent(price: number): number {
  if (price < 1e3) return price < 10 ? 0 : price < 100 ? 1 : 2;
  return price < 1e4 ? 3 : price < 1e5 ? 4 : price < 1e6 ? 5 : 6;
}
