import { describe, expect, it } from "vitest";
import {
  exceedsDigitLimit,
  pythonNumberText,
  roundPrice,
} from "../../../src/sandbox/world/priceDigits.ts";
import { RandomStream } from "../../../src/sandbox/world/randomStream.ts";
import { numpyAvailable, runPython } from "../../reference/python.ts";

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
  return prices;
}

describe("the validator's digit limit", () => {
  it.skipIf(!numpyAvailable)(
    "exceedsDigitLimit and pythonNumberText agree with Python's len(str(p).replace('.', '')) > 8 on the JSON of the prices",
    () => {
      const prices = samplePrices();
      // The prices travel as JSON written by JavaScript, as the sandbox serves them.
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

  it("roundPrice keeps 8 significant digits from 1 on and 7 decimals below, and always passes", () => {
    for (const price of samplePrices()) {
      if (!(price > 0) || price >= 1e8) continue;
      const rounded = roundPrice(price);
      expect(exceedsDigitLimit(rounded)).toBe(false);
      const unit = price < 1 ? 1e-7 : 10 ** (Math.floor(Math.log10(price)) - 7);
      expect(Math.abs(rounded - price)).toBeLessThanOrEqual(unit / 2 + price * 1e-15);
    }
  });

  it("roundPrice leaves non-positive and non-finite values alone", () => {
    expect(roundPrice(0)).toBe(0);
    expect(Number.isNaN(roundPrice(NaN))).toBe(true);
    expect(roundPrice(-3.123456789)).toBe(-3.123456789);
  });

  it("the limit counts the leading zero of prices below 1, as the validator's string test does", () => {
    expect(exceedsDigitLimit(0.5123457)).toBe(false);
    expect(exceedsDigitLimit(0.51234567)).toBe(true);
    expect(exceedsDigitLimit(67676.123)).toBe(false);
    expect(exceedsDigitLimit(67676.1234)).toBe(true);
  });
});
