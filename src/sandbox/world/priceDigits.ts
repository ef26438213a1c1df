/**
 * The validator's limit on the digits of a price, and the miners' rounding that respects it.
 * The validator (synth `response_validation_v2.validate_path`) rejects a price when
 * `len(str(point).replace(".", "")) > 8`: a length of Python's text of the number, not a count of
 * significant digits, so leading zeros of prices below 1 count too ("0.51234567" fails).
 */

/** 10^k for k = 0…22, all exact doubles. */
const POWERS_OF_TEN = Float64Array.from({ length: 23 }, (_, exponent) => 10 ** exponent);

/**
 * The text Python prints for a price that arrived as a JSON number written by JavaScript: an
 * integral value is written without a fraction, so Python reads an `int` and prints its digits;
 * other values print as Python's float repr — the shortest round-trip digits (as JavaScript's),
 * in scientific form with a two-digit exponent when below 1e-4 or from 1e16 on.
 * @example
 * pythonNumberText(80000) // => "80000"
 * pythonNumberText(0.00001234) // => "1.234e-05"
 */
export function pythonNumberText(price: number): string {
  if (Number.isInteger(price) && Math.abs(price) < 1e21) return String(price);
  const magnitude = Math.abs(price);
  if (Number.isFinite(price) && (magnitude < 1e-4 || magnitude >= 1e16)) {
    const [mantissa, exponent] = price.toExponential().split("e");
    const sign = exponent.startsWith("-") ? "-" : "+";
    return `${mantissa}e${sign}${exponent.replace(/^[+-]/, "").padStart(2, "0")}`;
  }
  return String(price);
}

/**
 * Whether the validator rejects `price` for "too many digits": `len(str(point).replace(".", ""))
 * > 8` on {@link pythonNumberText}. Fast path (no text) for the usual prices in [1, 10⁷): there the
 * test is exactly "the shortest decimal of `price` has more than 8 significant digits", i.e.
 * rounding to 8 significant digits changes it.
 * @example
 * exceedsDigitLimit(67676.123) // => false
 * exceedsDigitLimit(67676.1234) // => true
 * exceedsDigitLimit(0.51234567) // => true (the leading zero counts)
 */
export function exceedsDigitLimit(price: number): boolean {
  if (price >= 1 && price < 1e7) {
    const scale = POWERS_OF_TEN[7 - decimalExponent(price)];
    return Math.round(price * scale) / scale !== price;
  }
  return pythonNumberText(price).replace(".", "").length > 8;
}

/**
 * `price` rounded so that the validator accepts it: 8 significant digits from 1 on (the miners'
 * convention, DOMAIN.md §1), 7 decimals below 1 (where "0." already costs one of the 8 digits).
 * Values from 10⁸ on cannot pass (they have 9 or more integer digits); they are rounded to 8
 * significant digits anyway. Non-positive or non-finite values are returned as they are.
 * @example
 * roundPrice(67676.123456) // => 67676.123
 * roundPrice(0.512345678) // => 0.5123457
 */
export function roundPrice(price: number): number {
  if (!(price > 0) || !Number.isFinite(price)) return price;
  if (price < 1) {
    return Math.round(price * POWERS_OF_TEN[7]) / POWERS_OF_TEN[7];
  }
  const exponent = price < 1e7 ? decimalExponent(price) : Math.floor(Math.log10(price));
  if (exponent <= 7) {
    const scale = POWERS_OF_TEN[7 - exponent];
    return Math.round(price * scale) / scale;
  }
  const unit = POWERS_OF_TEN[exponent - 7];
  return Math.round(price / unit) * unit;
}

/** ⌊log10(price)⌋ for 1 ≤ price < 10⁷, by comparisons (exact, and faster than Math.log10). */
function decimalExponent(price: number): number {
  if (price < 1e3) return price < 10 ? 0 : price < 100 ? 1 : 2;
  return price < 1e4 ? 3 : price < 1e5 ? 4 : price < 1e6 ? 5 : 6;
}
