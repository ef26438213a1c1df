/**
 * Black–Scholes with r = 0 against SciPy (`scipy.stats.norm.cdf` in the closed form), and its
 * inversion: the implied volatility of a Black–Scholes price is the volatility it was priced at;
 * prices no volatility gives are NaN.
 */
import { describe, expect, it } from "vitest";
import { blackScholesPrice, impliedVolatility } from "../../src/insights/impliedVolatility.ts";

const DAY = 1 / 365;

describe("blackScholesPrice", () => {
  it("matches SciPy's closed form", () => {
    const cases: [Parameters<typeof blackScholesPrice>, number][] = [
      [["call", 100, 100, 1, 0.2], 7.965567455405804],
      [["put", 68000, 66000, DAY, 0.6], 192.40814427089208],
      [["call", 68000, 71000, DAY, 0.6], 84.57822639953702],
    ];
    for (const [input, scipy] of cases) {
      const error = Math.abs(blackScholesPrice(...input) - scipy) / scipy;
      expect(error, input.join(" ")).toBeLessThan(1e-11);
    }
  });

  it("is the intrinsic value without time or volatility", () => {
    expect(blackScholesPrice("call", 110, 100, 0, 0.5)).toBe(10);
    expect(blackScholesPrice("put", 110, 100, 1, 0)).toBe(0);
  });
});

describe("impliedVolatility", () => {
  it("gives back the volatility a price was made with, calls and puts, near and far strikes", () => {
    for (const volatility of [0.05, 0.2, 0.6, 1.5]) {
      for (const strike of [60000, 66000, 68000, 70000, 76000]) {
        const option = strike < 68000 ? "put" : "call";
        const price = blackScholesPrice(option, 68000, strike, DAY, volatility);
        if (price < 1e-6 * 68000) continue; // too far out of the money to carry a volatility
        expect(
          impliedVolatility(option, price, 68000, strike, DAY),
          `${option} ${strike} at ${volatility}`,
        ).toBeCloseTo(volatility, 6);
      }
    }
  });

  it("is NaN where no volatility gives the price", () => {
    expect(impliedVolatility("call", 9.99, 110, 100, 1)).toBeNaN(); // below intrinsic
    expect(impliedVolatility("call", 110, 110, 100, 1)).toBeNaN(); // at the spot
    expect(impliedVolatility("put", 100, 110, 100, 1)).toBeNaN(); // at the strike
    expect(impliedVolatility("put", 1, 110, 100, 0)).toBeNaN(); // no time
  });
});
