/** The baseline's volatility: the examples of the doc comments, and gaps in the closes. */

import { describe, expect, it } from "vitest";
import {
  annualizedVolatilityPct,
  minuteVolatility,
  stepVolatility,
} from "../../../src/jobs/baseline/volatility.ts";

describe("baseline volatility", () => {
  it("σ: the sample deviation of 1-minute log returns, scaled by √time and annualized", () => {
    // returns ±ln(1.01) alternate: mean 0, s² = 4·ln(1.01)²/3
    const estimate = minuteVolatility(Float64Array.of(100, 101, 100, 101, 100));
    expect(estimate.returns).toBe(4);
    expect(estimate.minuteVolatility).toBeCloseTo(Math.log(1.01) * Math.sqrt(4 / 3), 15);
    expect(minuteVolatility(Float64Array.of(100, Number.NaN, 101, 102)).returns).toBe(1);
    expect(minuteVolatility(Float64Array.of(100, Number.NaN, 101, 102)).minuteVolatility).toBeNaN();
    expect(stepVolatility(0.001, 300)).toBeCloseTo(0.001 * Math.sqrt(5), 15);
    expect(annualizedVolatilityPct(0.0006)).toBeCloseTo(0.0006 * Math.sqrt(525600) * 100, 12);
  });
});
