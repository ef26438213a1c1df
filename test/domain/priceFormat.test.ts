import { describe, expect, it } from "vitest";
import {
  exceedsDigitLimit,
  hasAtMostEightSignificantDigits,
  pythonNumberText,
  roundPrice,
  roundRangeToSignificantDigits,
  roundToSignificantDigits,
} from "../../src/domain/priceFormat.ts";
import { RandomStream } from "../../src/sandbox/world/randomStream.ts";
import { numpyAvailable, runPython } from "../reference/python.ts";

/** Prices of every magnitude, unrounded and rounded several ways, plus edge cases. */
function samplePrices(): number[] {
  const stream = new RandomStream(12345);
  const prices: number[] = [];
  for (let index = 0; index < 4000; index++) {
    const price = stream.uniform() * 10 ** (stream.integer(14) - 6);
    prices.push(
      price,
      roundPrice(price),
      Number(price.toPrecision(8)),
      Number(price.toPrecision(9)),
      Math.round(price),
    );
  }
  prices.push(1, 10, 99999999, 100000000, 12345678, 123456789, 0.5, 0.00001234, 1e-7, 1e16, 2.5e17);
  prices.push(1234567.25, 12345678.5, 0.125, 2.5, 9999999.5, 99999999.5, 1e21, 1e39, 5e-324);
  return prices;
}

const skipped = numpyAvailable ? "" : " [SKIPPED: python3 with numpy missing]";

describe("the legacy digit limit", () => {
  it.skipIf(!numpyAvailable)(
    `exceedsDigitLimit and pythonNumberText agree with Python's len(str(p).replace('.', '')) > 8 on the JSON of the prices${skipped}`,
    () => {
      const prices = samplePrices();
      // The prices travel as JSON written by JavaScript: whole values below 1e21 are ints.
      const expected = runPython(
        "print(json.dumps([[len(str(p).replace('.', '')) > 8, str(p)] for p in json.loads(data)]))",
        JSON.stringify(prices),
      ) as [boolean, string][];
      for (let index = 0; index < prices.length; index++) {
        expect([exceedsDigitLimit(prices[index]), pythonNumberText(prices[index])]).toEqual(
          expected[index],
        );
      }
    },
  );

  it.skipIf(!numpyAvailable)(
    `as floats (Python's repr, whole values with .0) they agree too${skipped}`,
    () => {
      const prices = samplePrices();
      const expected = runPython(
        "print(json.dumps([[len(str(float(p)).replace('.', '')) > 8, str(float(p))] for p in json.loads(data)]))",
        JSON.stringify(prices),
      ) as [boolean, string][];
      for (let index = 0; index < prices.length; index++) {
        expect([
          exceedsDigitLimit(prices[index], false),
          pythonNumberText(prices[index], false),
        ]).toEqual(expected[index]);
      }
    },
  );

  it("the limit counts the leading zero of prices below 1, as the validator's string test does", () => {
    expect(exceedsDigitLimit(0.5123457)).toBe(false);
    expect(exceedsDigitLimit(0.51234567)).toBe(true);
    expect(exceedsDigitLimit(67676.123)).toBe(false);
    expect(exceedsDigitLimit(67676.1234)).toBe(true);
    expect(exceedsDigitLimit(12345678)).toBe(false);
    expect(exceedsDigitLimit(12345678, false)).toBe(true); // "12345678.0"
  });
});

describe("roundPrice: 8 significant digits as the miners round", () => {
  it.skipIf(!numpyAvailable)(
    `roundPrice equals Python's round(p, 8 - 1 - floor(log10(abs(p)))) and passes the v1.10.3 test float(f"{p:.7e}") == p${skipped}`,
    () => {
      const prices = samplePrices().filter((price) => price > 0 && price < 1e300);
      const expected = runPython(
        [
          "from math import floor, log10",
          "rounded = [round(p, 7 - floor(log10(abs(p)))) for p in data]",
          "print(json.dumps([[r, float('%.7e' % r) == r, float('%.7e' % p) == p] for p, r in zip(data, rounded)]))",
        ].join("\n"),
        prices,
      ) as [number, boolean, boolean][];
      for (let index = 0; index < prices.length; index++) {
        const rounded = roundPrice(prices[index]);
        expect(
          [
            rounded,
            hasAtMostEightSignificantDigits(rounded),
            hasAtMostEightSignificantDigits(prices[index]),
          ],
          String(prices[index]),
        ).toEqual(expected[index]);
      }
    },
  );

  it("ties go to even, as Python's round does", () => {
    expect(roundPrice(1234567.25)).toBe(1234567.2);
    expect(roundPrice(1234567.75)).toBe(1234567.8);
    expect(roundPrice(12345678.5)).toBe(12345678);
    expect(roundToSignificantDigits(2.5, 1)).toBe(2);
  });

  it("below 1 the 8th significant digit is kept, which the legacy rule rejects", () => {
    expect(roundPrice(0.512345678)).toBe(0.51234568);
    expect(hasAtMostEightSignificantDigits(0.51234568)).toBe(true);
    expect(exceedsDigitLimit(0.51234568)).toBe(true);
  });

  it("roundPrice leaves zero and non-finite values alone, and keeps the sign", () => {
    expect(roundPrice(0)).toBe(0);
    expect(Number.isNaN(roundPrice(NaN))).toBe(true);
    expect(roundPrice(Infinity)).toBe(Infinity);
    expect(roundPrice(-3.123456789)).toBe(-3.1234568);
  });

  it("roundRangeToSignificantDigits rounds a range in place as roundToSignificantDigits, bit for bit", () => {
    // ties and near-ties included: the loop's fast path must hand those to the exact rounding
    const prices = [
      ...samplePrices(),
      1234567.25,
      67676.1235,
      67676.12345,
      -3.123456789,
      NaN,
      0,
      -0,
      Infinity,
      -Infinity,
    ];
    for (let digits = 1; digits <= 17; digits++) {
      const row = Float64Array.from([7, ...prices, 7]);
      roundRangeToSignificantDigits(row, 1, row.length - 1, digits);
      expect(row[0]).toBe(7);
      expect(row[row.length - 1]).toBe(7);
      prices.forEach((price, index) => {
        expect(Object.is(row[index + 1], roundToSignificantDigits(price, digits))).toBe(true);
      });
    }
  });

  it("roundToSignificantDigits(…, 9) keeps one digit more", () => {
    expect(roundToSignificantDigits(67676.123456, 9)).toBe(67676.1235);
    expect(hasAtMostEightSignificantDigits(67676.1235)).toBe(false);
  });
});
