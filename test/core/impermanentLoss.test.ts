import { describe, expect, it } from "vitest";
import { impermanentLoss } from "../../src/core/impermanentLoss.ts";
import { impermanentLoss as referenceImpermanentLoss } from "../../src/reference/lp.ts";
import { numpyAvailable, runPython } from "../reference/python.ts";
import { expectRelativelyClose } from "./ensembles.ts";

/** [startPrice, lower, upper]: symmetric, narrow, BTC-sized, unit, and opened at the lower bound. */
const RANGES = [
  [2000, 1800, 2200],
  [100, 99.5, 100.5],
  [68000, 61200, 74800],
  [1, 0.5, 1.5],
  [1800, 1800, 2200],
] as const;

/** Prices from 0 to far above the range, the bounds themselves, and a hair away from the start. */
function pricesAround(start: number, lower: number, upper: number): number[] {
  const factors = [
    0, 0.1, 0.5, 0.8, 0.9, 0.95, 0.999, 0.999999, 1, 1.000001, 1.001, 1.05, 1.1, 2, 10,
  ];
  return [...factors.map((factor) => start * factor), lower, upper];
}

describe("impermanentLoss", () => {
  it("impermanentLoss reproduces the DOMAIN.md check values (L=1800, U=2200, P0=2000)", () => {
    expectRelativelyClose(impermanentLoss(2000, 1800, 2200, 1500), 0.12464992834, 1e-11);
    expectRelativelyClose(impermanentLoss(2000, 1800, 2200, 2100), 0.006087450815, 1e-10);
    expectRelativelyClose(impermanentLoss(2000, 1800, 2200, 2500), 0.085515083614, 1e-11);
    expect(impermanentLoss(2000, 1800, 2200, 2000)).toBe(0);
  });

  it("impermanentLoss equals the reference formula 1 − V_LP/V_HODL for losses above 1%", () => {
    // Below 1% the reference's 1 − V_LP/V_HODL cancels (a loss of 1e-3 keeps ~12 digits, 1e-6
    // ~9); the 50-digit check below covers those prices.
    let compared = 0;
    for (const [start, lower, upper] of RANGES) {
      for (const price of pricesAround(start, lower, upper)) {
        const expected = referenceImpermanentLoss(start, lower, upper, price);
        if (!(expected >= 0.01)) continue;
        expectRelativelyClose(impermanentLoss(start, lower, upper, price), expected, 1e-12);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(30);
  });

  it.skipIf(!numpyAvailable)(
    "impermanentLoss agrees with a 50-digit decimal evaluation to 1e-14, near the start price too",
    () => {
      const cases = RANGES.flatMap(([start, lower, upper]) =>
        pricesAround(start, lower, upper).map((price) => [start, lower, upper, price]),
      );
      const expected = runPython(
        [
          "from decimal import Decimal as D, getcontext",
          "getcontext().prec = 50",
          "out = []",
          "for case in data:",
          "    p0, l, u, p = (D(x) for x in case)  # D(float): the exact binary value",
          "    hold = (1 / p0.sqrt() - 1 / u.sqrt()) * p + p0.sqrt() - l.sqrt()",
          "    lp = p * (1 / l.sqrt() - 1 / u.sqrt()) if p < l else (u.sqrt() - l.sqrt() if p > u else 2 * p.sqrt() - p / u.sqrt() - l.sqrt())",
          "    loss = 1 - lp / hold if hold != 0 else None",
          "    # 50-digit arithmetic leaves ~1e-49 where the loss is exactly 0 (at the start price)",
          "    out.append(None if loss is None else (0.0 if abs(loss) < D('1e-40') else float(loss)))",
          "print(json.dumps(out))",
        ].join("\n"),
        cases,
      ) as (number | null)[];
      cases.forEach(([start, lower, upper, price], at) => {
        expectRelativelyClose(
          impermanentLoss(start, lower, upper, price),
          expected[at] ?? NaN,
          1e-14,
        );
      });
    },
  );

  it("impermanentLoss is NaN outside its domain", () => {
    expect(impermanentLoss(2000, 1800, 2200, -1)).toBeNaN();
    expect(impermanentLoss(2000, 1800, 2200, NaN)).toBeNaN();
    expect(impermanentLoss(2000, 1800, 2200, Infinity)).toBeNaN();
    expect(impermanentLoss(2300, 1800, 2200, 2000)).toBeNaN();
    expect(impermanentLoss(2000, 2200, 1800, 2000)).toBeNaN();
    expect(impermanentLoss(2000, 0, 2200, 2000)).toBeNaN();
    expect(impermanentLoss(2000, 1800, Infinity, 2000)).toBeNaN();
    expect(impermanentLoss(2000, 1800, 2200, 0)).toBe(1);
  });
});
