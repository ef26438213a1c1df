/** The LP bounds record of `/insights/lp-bounds`, from the re-based ensemble. */

import {
  DEFAULT_TIME_IN_INTERVAL_UNIT,
  HORIZON_LAYOUTS,
  LP_STAY_KEYS,
  LP_WIDTHS,
  PROBABILITY_DECIMALS,
  lpBounds,
  roundTo,
  timeInIntervalIn,
} from "../../domain/insightConventions.ts";
import type { LpBoundsEntry, LpBoundsRecord } from "../../domain/records/lp.ts";
import { impermanentLoss } from "../../reference/lp.ts";
import type { SandboxInsightInputs } from "./inputs.ts";
import { insightContextOf } from "./insightContext.ts";
import { countAtOrBelowSorted, countBelowSorted } from "./sortedColumnStatistics.ts";

/**
 * LP statistics for the 16 widths 1.0% … 16.0% around P0 = the current price, with bounds
 * P0·(1 ∓ w/2). Inside means strictly between the bounds. Per width:
 * - `probability_to_stay_in_interval` (key "24" or "1"): the fraction of paths whose every point
 *   is inside, i.e. whose minimum is above the lower bound and maximum below the upper (4 decimals);
 * - `expected_time_in_interval`: step minutes × (number of (path, point t ≥ 1) pairs inside) / paths,
 *   counted per step on the sorted columns; in minutes unless `inputs.options.timeInIntervalUnit`
 *   says hours or a fraction of the horizon (4 decimals);
 * - `expected_impermanent_loss`: mean over paths of `impermanentLoss` (reference) at the last point
 *   with P0 = the current price (unrounded).
 * The three equal `lpRangeStatistics` of `src/reference/lp.ts` bit for bit (checked by the tests),
 * which scans every path for every width; the shared extremes and sorted columns avoid that.
 * @example buildLpBoundsRecord(inputs).data[0].interval.full_width // => "1.0%"
 */
export function buildLpBoundsRecord(inputs: SandboxInsightInputs): LpBoundsRecord {
  const { ensemble, forecastStartTime, stepMinutes } = insightContextOf(inputs);
  const currentPrice = inputs.currentPrice;
  const unit = inputs.options?.timeInIntervalUnit ?? DEFAULT_TIME_IN_INTERVAL_UNIT;
  const horizonMinutes = HORIZON_LAYOUTS[inputs.horizon].horizonMinutes;
  const lastStep = ensemble.pointCount - 1;
  const { minima, maxima } = ensemble.windowExtremes(lastStep);
  const terminal = ensemble.column(lastStep);
  const pathCount = ensemble.pathCount;
  const data = LP_WIDTHS.map((width): LpBoundsEntry => {
    const { lower, upper } = lpBounds(currentPrice, width.fraction);
    let stayed = 0;
    for (let path = 0; path < pathCount; path++) {
      if (minima[path] > lower && maxima[path] < upper) stayed++;
    }
    let pointsInside = 0;
    for (let step = 1; step <= lastStep; step++) {
      const sorted = ensemble.sortedColumn(step);
      pointsInside += countBelowSorted(sorted, upper) - countAtOrBelowSorted(sorted, lower);
    }
    let impermanentLossSum = 0;
    for (const price of terminal) {
      impermanentLossSum += impermanentLoss(currentPrice, lower, upper, price);
    }
    const minutesInside = (stepMinutes * pointsInside) / pathCount;
    return {
      interval: { full_width: width.key, lower_bound: lower, upper_bound: upper },
      expected_time_in_interval: timeInIntervalIn(minutesInside, unit, horizonMinutes),
      expected_impermanent_loss: impermanentLossSum / pathCount,
      probability_to_stay_in_interval: {
        [LP_STAY_KEYS[inputs.horizon]]: roundTo(stayed / pathCount, PROBABILITY_DECIMALS),
      },
    };
  });
  return { forecast_start_time: forecastStartTime, current_price: currentPrice, data };
}
