/** The liquidation record of `/insights/liquidation`, from the re-based ensemble. */

import {
  LIQUIDATION_SCENARIOS,
  LIQUIDATION_WINDOWS,
  PROBABILITY_DECIMALS,
  liquidationLevels,
  liquidationWindowSteps,
  roundTo,
} from "../../domain/insightConventions.ts";
import type { LiquidationRecord } from "../../domain/records/liquidation.ts";
import type { SandboxInsightInputs } from "./inputs.ts";
import { insightContextOf } from "./insightContext.ts";

/**
 * Liquidation probabilities per scenario (1.0% … 10.0%) and window (6/12/18/24 h, or 15/30/45/60
 * min on the 1h horizon): long = the fraction of paths that touch P0·(1 − x) from above within
 * points [0, window], short = touch P0·(1 + x) from below; P0 = the current price; 4 decimals.
 * A path touches from above exactly when its minimum over the window is ≤ the level, so each
 * window's per-path extremes are found once and shared by the 20 levels (equal, bit for bit, to
 * `touchProbability` of `src/reference/touch.ts`, which the tests check).
 * @example buildLiquidationRecord(inputs).data[0].long_liquidation_probability["6"] // => 0.4079
 */
export function buildLiquidationRecord(inputs: SandboxInsightInputs): LiquidationRecord {
  const { ensemble, forecastStartTime } = insightContextOf(inputs);
  const windows = LIQUIDATION_WINDOWS[inputs.horizon].map((window) => ({
    key: window.key,
    extremes: ensemble.windowExtremes(liquidationWindowSteps(window, inputs.timeIncrement).toStep),
  }));
  const data = LIQUIDATION_SCENARIOS.map((scenario) => {
    const levels = liquidationLevels(inputs.currentPrice, scenario.fraction);
    const long: Record<string, number> = {};
    const short: Record<string, number> = {};
    for (const { key, extremes } of windows) {
      long[key] = roundTo(fractionAtOrBelow(extremes.minima, levels.long), PROBABILITY_DECIMALS);
      short[key] = roundTo(fractionAtOrAbove(extremes.maxima, levels.short), PROBABILITY_DECIMALS);
    }
    return {
      price_change: scenario.key,
      long_liquidation_probability: long,
      short_liquidation_probability: short,
    };
  });
  return { forecast_start_time: forecastStartTime, current_price: inputs.currentPrice, data };
}

function fractionAtOrBelow(values: readonly number[], level: number): number {
  let count = 0;
  for (const value of values) if (value <= level) count++;
  return count / values.length;
}

function fractionAtOrAbove(values: readonly number[], level: number): number {
  let count = 0;
  for (const value of values) if (value >= level) count++;
  return count / values.length;
}
