import { describe, expect, it } from "vitest";
import { optionPrices } from "../../src/reference/options.ts";
import { createRandom } from "../../src/reference/random.ts";
import { meanStandardError } from "../../src/reference/stderr.ts";
import { normalCdf } from "./closedForms.ts";

describe("optionPrices", () => {
  it("optionPrices reproduces the DOMAIN.md example: call 5.8333…, put 2.5 at K = 100", () => {
    const { calls, puts } = optionPrices([110, 90, 120, 100, 95, 105], [100]);
    expect(calls[0]).toBeCloseTo(35 / 6, 14);
    expect(puts[0]).toBeCloseTo(2.5, 14);
  });

  it("optionPrices satisfies put-call parity call − put = D·(mean(S_T) − K)", () => {
    const terminal = [101.5, 97.25, 99, 104.75, 88];
    const mean = terminal.reduce((sum, value) => sum + value, 0) / terminal.length;
    const strikes = [80, 95, 98.5, 100, 130];
    const { calls, puts } = optionPrices(terminal, strikes, 0.97);
    strikes.forEach((strike, index) => {
      expect(calls[index] - puts[index]).toBeCloseTo(0.97 * (mean - strike), 12);
    });
  });

  it("optionPrices matches Black–Scholes with r = 0 on seeded GBM terminal prices, within 3 standard errors", () => {
    // S_T = S0·exp(−σ²T/2 + σ√T Z) (a martingale); with r = 0,
    // C = S0 Φ(d1) − K Φ(d2), P = K Φ(−d2) − S0 Φ(−d1), d1,2 = (ln(S0/K) ± σ²T/2) / (σ√T).
    const startPrice = 68000;
    const sigma = 0.55;
    const years = 1 / 365;
    const volatilityRoot = sigma * Math.sqrt(years);
    const random = createRandom(77);
    const terminal = Array.from(
      { length: 200_000 },
      () =>
        startPrice *
        Math.exp(-0.5 * volatilityRoot * volatilityRoot + volatilityRoot * random.normal()),
    );
    const strikes = [64000, 66000, 67000, 68000, 69000, 70000, 72000];
    const { calls, puts } = optionPrices(terminal, strikes);
    strikes.forEach((strike, index) => {
      const d1 = (Math.log(startPrice / strike) + 0.5 * volatilityRoot ** 2) / volatilityRoot;
      const d2 = d1 - volatilityRoot;
      const call = startPrice * normalCdf(d1) - strike * normalCdf(d2);
      const put = strike * normalCdf(-d2) - startPrice * normalCdf(-d1);
      const callError = meanStandardError(terminal.map((price) => Math.max(price - strike, 0)));
      const putError = meanStandardError(terminal.map((price) => Math.max(strike - price, 0)));
      expect(Math.abs(calls[index] - call)).toBeLessThan(3 * callError);
      expect(Math.abs(puts[index] - put)).toBeLessThan(3 * putError);
    });
  });

  it("optionPrices rejects an empty sample and a non-finite discount factor", () => {
    expect(() => optionPrices([], [1])).toThrow(
      "optionPrices requires at least one value in terminal",
    );
    expect(() => optionPrices([1], [1], NaN)).toThrow(
      "optionPrices requires a finite discountFactor, got NaN",
    );
  });
});
