/** The liquidation record (`/insights/liquidation`) recomputed from an ensemble. */

import {
  LIQUIDATION_SCENARIOS,
  LIQUIDATION_WINDOWS,
  PROBABILITY_DECIMALS,
  liquidationLevels,
  liquidationWindowSteps,
  roundTo,
} from "../domain/insightConventions.ts";
import type { LiquidationRecord, LiquidationScenario } from "../domain/records/liquidation.ts";
import type { Ensemble } from "../paths/ensemble.ts";
import type { InsightContext } from "./context.ts";
import { probabilityError } from "./probabilityError.ts";
import { standardErrorKey, type InsightResult } from "./result.ts";
import type { InsightSession } from "./session.ts";
import { sessionAndContext } from "./sessionAndContext.ts";
import { touchEstimates } from "./touchEstimates.ts";

/**
 * Liquidation probabilities for the 10 scenarios x = 1 … 10 % (`"1.0%"` … `"10.0%"`) and each
 * window: long = P(a path touches P0·(1 − x) from above within points [0, window]), short = P(touch
 * P0·(1 + x) from below), P0 = the current price; 4 decimals. Windows default to 6/12/18/24 h
 * (24h) or 15/30/45/60 min (1h); the touch estimate to discrete (`context.touchEstimate`).
 * The discrete estimate reads the session's running extremes at the window ends (one pass over the
 * paths for all 20 levels × 4 windows, shared with the hit probabilities of the venue records; see
 * `touchEstimates`).
 * Standard errors: Agresti–Coull ({@link probabilityError}), positive at 0 and 1.
 * Throws `RangeError` for a context that does not fit the ensemble.
 * @param source - the ensemble, or a session of it.
 * @param context - the asset, horizon, current price and forecast start; the windows and the touch
 *   estimate when not the defaults.
 * @example liquidationInsight(ensemble, context).record.data[0].long_liquidation_probability["6"]
 */
export function liquidationInsight(
  source: Ensemble | InsightSession,
  context: InsightContext,
): InsightResult<LiquidationRecord> {
  const { session, resolved } = sessionAndContext("liquidationInsight", source, context);
  const windows = context.liquidationWindows ?? LIQUIDATION_WINDOWS[context.horizon];
  const windowEndSteps = Int32Array.from(
    windows,
    (window) => liquidationWindowSteps(window, resolved.timeIncrement).toStep,
  );
  const nScenarios = LIQUIDATION_SCENARIOS.length;
  // Levels 0..n−1 are the longs' (touched down), n..2n−1 the shorts' (touched up).
  const levels = new Float64Array(2 * nScenarios);
  LIQUIDATION_SCENARIOS.forEach((scenario, index) => {
    const { long, short } = liquidationLevels(context.currentPrice, scenario.fraction);
    levels[index] = long;
    levels[nScenarios + index] = short;
  });
  const { up, down } = touchEstimates(session, context.touchEstimate, levels, windowEndSteps);
  const nPaths = session.nPaths;
  const standardErrors: Record<string, number> = {};
  const data = LIQUIDATION_SCENARIOS.map((scenario, index): LiquidationScenario => {
    const long: Record<string, number> = {};
    const short: Record<string, number> = {};
    windows.forEach((window, windowIndex) => {
      const longAt = windowIndex * levels.length + index;
      const shortAt = windowIndex * levels.length + nScenarios + index;
      long[window.key] = roundTo(down.values[longAt], PROBABILITY_DECIMALS);
      short[window.key] = roundTo(up.values[shortAt], PROBABILITY_DECIMALS);
      const path = ["data", index];
      standardErrors[standardErrorKey([...path, "long_liquidation_probability", window.key])] =
        probabilityError(down.values[longAt], nPaths);
      standardErrors[standardErrorKey([...path, "short_liquidation_probability", window.key])] =
        probabilityError(up.values[shortAt], nPaths);
    });
    return {
      price_change: scenario.key,
      long_liquidation_probability: long,
      short_liquidation_probability: short,
    };
  });
  return {
    record: {
      forecast_start_time: context.forecastStartTime,
      current_price: context.currentPrice,
      data,
    },
    standardErrors,
  };
}
