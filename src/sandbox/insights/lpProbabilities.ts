/**
 * The LP probabilities record of `/insights/lp-probabilities` and of its older name
 * `/insights/lp-bounds-chart` (whose response the spec does not show; its decoder is the LP
 * probabilities codec, so the sandbox answers it with the same record).
 */

import {
  LP_PROBABILITY_KEYS,
  PROBABILITY_DECIMALS,
  priceKey,
  roundTo,
} from "../../domain/insightConventions.ts";
import type { LpProbabilitiesRecord } from "../../domain/records/lp.ts";
import { lpProbabilityLevels } from "../../reference/lp.ts";
import { probabilityAbove, probabilityBelow } from "../../reference/terminal.ts";
import type { SandboxInsightInputs } from "./inputs.ts";
import { insightContextOf } from "./insightContext.ts";

/**
 * P(S_T > k) and P(S_T < k) (strict, 4 decimals) at the 11 levels equally spaced from the lowest to
 * the highest terminal price (`lpProbabilityLevels`, numpy linspace), keyed by the level's shortest
 * decimal form; S_T = the last point; the single `data` key is "24h" or "1h".
 * @example buildLpProbabilitiesRecord(inputs).data["24h"].probability_above
 */
export function buildLpProbabilitiesRecord(inputs: SandboxInsightInputs): LpProbabilitiesRecord {
  const { ensemble, forecastStartTime } = insightContextOf(inputs);
  const terminal = ensemble.column(ensemble.pointCount - 1);
  const above: Record<string, number> = {};
  const below: Record<string, number> = {};
  for (const level of lpProbabilityLevels(terminal)) {
    above[priceKey(level)] = roundTo(probabilityAbove(terminal, level), PROBABILITY_DECIMALS);
    below[priceKey(level)] = roundTo(probabilityBelow(terminal, level), PROBABILITY_DECIMALS);
  }
  return {
    forecast_start_time: forecastStartTime,
    current_price: inputs.currentPrice,
    data: {
      [LP_PROBABILITY_KEYS[inputs.horizon]]: { probability_above: above, probability_below: below },
    },
  };
}
