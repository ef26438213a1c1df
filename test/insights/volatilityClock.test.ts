/**
 * The forecast volatility series follow the UTC clock: each point covers the part of the forecast
 * in one clock block (a − Δ, a] (quarter hours for 24h, even minutes for 1h). The expected values
 * come from the reference's `crossPathVolatility` on the re-based paths, at bounds written out here
 * from the clock, not from the conventions' `volatilityPointBounds`.
 */

import { describe, expect, it } from "vitest";
import type { InsightContext } from "../../src/insights/context.ts";
import { volatilityInsight } from "../../src/insights/volatility.ts";
import type { Ensemble } from "../../src/paths/ensemble.ts";
import { crossPathVolatility } from "../../src/reference/volatility.ts";
import { START_UNIX, gbmEnsemble, isoOf, syntheticMinuteClose } from "./gbmEnsembles.ts";

/** Path points that bound each point: the start, then the last step of each clock block. */
function clockBounds(firstBlockEnd: number, steps: number, lastStep: number): number[] {
  const count = lastStep / steps + 1;
  return [
    0,
    ...Array.from({ length: count }, (_, point) =>
      Math.min(firstBlockEnd + point * steps, lastStep),
    ),
  ];
}

/** Per point, the reference's std across paths of the re-based paths' log returns, or null. */
function expectedPoints(
  ensemble: Ensemble,
  price: number,
  bounds: readonly number[],
  stepMinutes: number,
): (number | null)[] {
  const { values, nPaths, nPoints } = ensemble;
  const at = (path: number, step: number) =>
    values[path * nPoints + step] - values[path * nPoints] + price;
  return bounds.slice(1).map((end, point) => {
    const start = bounds[point];
    if (end === start) return null;
    const returns = Array.from({ length: nPaths }, (_, path) =>
      Math.log(at(path, end) / at(path, start)),
    );
    return crossPathVolatility(returns, (end - start) * stepMinutes);
  });
}

const CASES = [
  // START_UNIX is a quarter hour and an odd minute.
  { horizon: "24h", minutesIn: 7, firstBlockEnd: 1, steps: 3, lastStep: 288, stepMinutes: 5 },
  { horizon: "24h", minutesIn: 12, firstBlockEnd: 0, steps: 3, lastStep: 288, stepMinutes: 5 },
  { horizon: "24h", minutesIn: 3, firstBlockEnd: 2, steps: 3, lastStep: 288, stepMinutes: 5 },
  { horizon: "1h", minutesIn: 0, firstBlockEnd: 1, steps: 2, lastStep: 60, stepMinutes: 1 },
  { horizon: "1h", minutesIn: 1, firstBlockEnd: 0, steps: 2, lastStep: 60, stepMinutes: 1 },
] as const;

describe("volatilityInsight's forecast points follow the UTC clock blocks", () => {
  for (const { horizon, minutesIn, firstBlockEnd, steps, lastStep, stepMinutes } of CASES) {
    const startUnix = START_UNIX + minutesIn * 60;
    const label = `${horizon} starting at ${isoOf(startUnix).slice(11, 16)}`;

    it(`${label}: point 0 ${firstBlockEnd === 0 ? "null" : `${firstBlockEnd} step(s)`}, every point the reference's value`, () => {
      const horizonSeconds = horizon === "24h" ? 86400 : 3600;
      const shape = { startPrice: 2500, annualVolatility: 0.8, horizon, members: 2 } as const;
      const ensemble = gbmEnsemble({ ...shape, seed: 11, startUnix });
      const previous = gbmEnsemble({ ...shape, seed: 12, startUnix: startUnix - horizonSeconds });
      const context: InsightContext = {
        asset: "ETH",
        horizon,
        currentPrice: 2510,
        forecastStartTime: isoOf(startUnix),
        minuteClose: syntheticMinuteClose(2510),
        previous: { ensemble: previous, currentPrice: 2490 },
      };
      const { record, standardErrors } = volatilityInsight(ensemble, context);
      const bounds = clockBounds(firstBlockEnd, steps, lastStep);
      const future = expectedPoints(ensemble, 2510, bounds, stepMinutes);
      const past = [...expectedPoints(previous, 2490, bounds, stepMinutes).slice(1), future[1]];
      expect(record.forecast_future.volatility).toHaveLength(future.length);
      expect(record.forecast_past.volatility).toHaveLength(past.length);
      const near = (reported: number | null, expected: number | null) => {
        if (expected === null) return expect(reported).toBeNull();
        expect(Math.abs((reported as number) - expected)).toBeLessThanOrEqual(0.005 + 1e-9);
      };
      record.forecast_future.volatility.forEach((value, point) => near(value, future[point]));
      record.forecast_past.volatility.forEach((value, point) => near(value, past[point]));
      expect(Number.isFinite(standardErrors["forecast_future.volatility[0]"])).toBe(
        firstBlockEnd > 0,
      );
    });
  }
});
