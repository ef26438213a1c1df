import { describe, expect, it } from "vitest";
import { optionPricesSorted } from "../../src/core/optionPrices.ts";
import { terminalPrices } from "../../src/core/terminalPrices.ts";
import { optionPrices } from "../../src/reference/options.ts";
import { createRandom } from "../../src/reference/random.ts";
import { meanStandardError } from "../../src/reference/stderr.ts";
import { normalCdf } from "../reference/closedForms.ts";
import { numpyAvailable, runPython } from "../reference/python.ts";
import { ENSEMBLE_SIZES, expectRelativelyClose, randomEnsemble } from "./ensembles.ts";

/** Unsorted, with duplicates, ties with the 0.5-tick prices, and strikes beyond every price. */
const STRIKES = Float64Array.of(100, 97.5, 103, 101.25, 99, 50, 150, 100, 100.5, 96.75);

function sorted(values: readonly number[]): Float64Array {
  return Float64Array.from(values).sort();
}

/** Neumaier's compensated sum: the mean in the parity test must not add rounding of its own. */
function compensatedSum(values: readonly number[]): number {
  let sum = 0;
  let compensation = 0;
  for (const value of values) {
    const next = sum + value;
    compensation += Math.abs(sum) >= Math.abs(value) ? sum - next + value : value - next + sum;
    sum = next;
  }
  return sum + compensation;
}

describe("optionPricesSorted", () => {
  it("optionPricesSorted reproduces the DOMAIN.md example: call 5.8333…, put 2.5 at K = 100", () => {
    const { calls, puts } = optionPricesSorted(
      sorted([110, 90, 120, 100, 95, 105]),
      Float64Array.of(100),
    );
    expectRelativelyClose(calls.values[0], 35 / 6, 1e-15);
    expect(puts.values[0]).toBe(2.5);
  });

  it("optionPricesSorted equals the reference payoff means, and their standard errors", () => {
    ENSEMBLE_SIZES.forEach(([nPaths, nPoints], index) => {
      const ensemble = randomEnsemble(400 + index, nPaths, nPoints);
      const terminal = ensemble.rows.map((row) => row[nPoints - 1]);
      const sortedTerminal = terminalPrices(ensemble.values, nPaths, nPoints).sort();
      for (const discountFactor of [1, 0.97]) {
        const result = optionPricesSorted(sortedTerminal, STRIKES, discountFactor);
        const expected = optionPrices(terminal, Array.from(STRIKES), discountFactor);
        STRIKES.forEach((strike, at) => {
          expectRelativelyClose(result.calls.values[at], expected.calls[at], 1e-12);
          expectRelativelyClose(result.puts.values[at], expected.puts[at], 1e-12);
          const callPayoffs = terminal.map((price) => discountFactor * Math.max(price - strike, 0));
          const putPayoffs = terminal.map((price) => discountFactor * Math.max(strike - price, 0));
          expectRelativelyClose(
            result.calls.standardErrors[at],
            meanStandardError(callPayoffs),
            1e-12,
          );
          expectRelativelyClose(
            result.puts.standardErrors[at],
            meanStandardError(putPayoffs),
            1e-12,
          );
        });
      }
    });
  });

  it("optionPricesSorted satisfies put-call parity call − put = mean(S_T) − K to rounding", () => {
    const random = createRandom(5);
    const terminal = Array.from({ length: 10_000 }, () => 68000 * Math.exp(0.03 * random.normal()));
    const mean = compensatedSum(terminal) / terminal.length;
    const strikes = Float64Array.from({ length: 41 }, (_, index) => 58000 + 500 * index);
    const { calls, puts } = optionPricesSorted(sorted(terminal), strikes);
    strikes.forEach((strike, at) => {
      // Rounding is relative to the magnitudes in the identity: the prices and the strike.
      const parity = calls.values[at] - puts.values[at];
      expect(Math.abs(parity - (mean - strike))).toBeLessThanOrEqual(1e-14 * (mean + strike));
    });
  });

  it("optionPricesSorted matches Black–Scholes with r = 0 on GBM terminal prices within 3 standard errors", () => {
    // S_T = S0·exp(−σ²T/2 + σ√T·Z); C = S0Φ(d1) − KΦ(d2), P = KΦ(−d2) − S0Φ(−d1),
    // d1,2 = (ln(S0/K) ± σ²T/2)/(σ√T).
    const startPrice = 68000;
    const volatilityRoot = 0.55 * Math.sqrt(1 / 365);
    const random = createRandom(77);
    const terminal = Array.from(
      { length: 100_000 },
      () => startPrice * Math.exp(-0.5 * volatilityRoot ** 2 + volatilityRoot * random.normal()),
    );
    const strikes = Float64Array.of(64000, 66000, 67000, 68000, 69000, 70000, 72000);
    const { calls, puts } = optionPricesSorted(sorted(terminal), strikes);
    strikes.forEach((strike, at) => {
      const d1 = (Math.log(startPrice / strike) + 0.5 * volatilityRoot ** 2) / volatilityRoot;
      const d2 = d1 - volatilityRoot;
      const call = startPrice * normalCdf(d1) - strike * normalCdf(d2);
      const put = strike * normalCdf(-d2) - startPrice * normalCdf(-d1);
      expect(Math.abs(calls.values[at] - call)).toBeLessThan(3 * calls.standardErrors[at]);
      expect(Math.abs(puts.values[at] - put)).toBeLessThan(3 * puts.standardErrors[at]);
    });
  });

  it.skipIf(!numpyAvailable)("optionPricesSorted agrees with numpy's payoff means", () => {
    const random = createRandom(12);
    const terminal = Array.from({ length: 2000 }, () => 2500 * Math.exp(0.05 * random.normal()));
    const strikes = [2300, 2450, 2500, 2525, 2700];
    const expected = runPython(
      [
        "s = np.array(data['terminal']); k = np.array(data['strikes'])[:, None]",
        "print(json.dumps([np.maximum(s - k, 0).mean(axis=1).tolist(), np.maximum(k - s, 0).mean(axis=1).tolist()]))",
      ].join("\n"),
      { terminal, strikes },
    ) as [number[], number[]];
    const { calls, puts } = optionPricesSorted(sorted(terminal), Float64Array.from(strikes));
    strikes.forEach((_, at) => {
      expectRelativelyClose(calls.values[at], expected[0][at], 1e-12);
      expectRelativelyClose(puts.values[at], expected[1][at], 1e-12);
    });
  });

  it("optionPricesSorted gives NaN for a non-finite strike, sample or discount factor", () => {
    const prices = Float64Array.of(90, 100, 110);
    const result = optionPricesSorted(prices, Float64Array.of(NaN, 100, Infinity, -Infinity));
    expect(Array.from(result.calls.values)).toEqual([NaN, 10 / 3, NaN, NaN]);
    expect(Array.from(result.puts.values)).toEqual([NaN, 10 / 3, NaN, NaN]);
    for (const [terminal, discountFactor] of [
      [new Float64Array(0), 1],
      [Float64Array.of(1, NaN), 1],
      [Float64Array.of(1, Infinity), 1],
      [prices, NaN],
      [prices, -0.5],
      [prices, Infinity],
    ] as const) {
      const bad = optionPricesSorted(terminal, Float64Array.of(100), discountFactor);
      expect([bad.calls.values[0], bad.puts.values[0], bad.calls.standardErrors[0]]).toEqual([
        NaN,
        NaN,
        NaN,
      ]);
    }
  });

  it("optionPricesSorted rejects unsorted prices and a wrong-sized buffer", () => {
    expect(() => optionPricesSorted(Float64Array.of(2, 1), Float64Array.of(1))).toThrow(
      "optionPricesSorted requires sorted sorted ascending, got sorted[0] = 2 > sorted[1] = 1",
    );
    const buffer = optionPricesSorted(Float64Array.of(1, 2), Float64Array.of(1, 2));
    expect(() => optionPricesSorted(Float64Array.of(1, 2), Float64Array.of(1), 1, buffer)).toThrow(
      "optionPricesSorted requires out.calls.values of length 1, got 2",
    );
  });
});
