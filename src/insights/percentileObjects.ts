/** Percentile estimates as the records' objects of the nine percentile keys. */

import { roundTo } from "../domain/insightConventions.ts";
import { PERCENTILE_KEYS, type Percentiles } from "../domain/records/percentiles.ts";
import type { QuantileEstimates } from "./quantileErrors.ts";
import { standardErrorKeyGrid } from "./result.ts";

/**
 * One object of the nine `PERCENTILE_KEYS` per row of `estimates` (row-major, the keys' order),
 * each value rounded to `decimals`; writes each row's standard errors, unrounded, into
 * `standardErrors` under `<part>.percentiles[row]["<key>"]`.
 * @example percentileObjects(session.stepPercentiles(), "forecast_future", PERCENTILE_PRICE_DECIMALS, standardErrors)[288]["0.5"]
 */
export function percentileObjects(
  estimates: QuantileEstimates,
  part: string,
  decimals: number,
  standardErrors: Record<string, number>,
): Percentiles[] {
  const count = PERCENTILE_KEYS.length;
  const rows = estimates.values.length / count;
  const objects: Percentiles[] = [];
  const keys = standardErrorKeyGrid([part, "percentiles"], rows, PERCENTILE_KEYS);
  for (let row = 0; row < rows; ++row) {
    const values = {} as Percentiles;
    for (let index = 0; index < count; ++index) {
      const key = PERCENTILE_KEYS[index];
      values[key] = roundTo(estimates.values[row * count + index], decimals);
      standardErrors[keys[row * count + index]] = estimates.standardErrors[row * count + index];
    }
    objects.push(values);
  }
  return objects;
}
