/**
 * The checks of `audit` that one insight record allows on its own: what the probabilities and
 * prices of a coherent forecast must satisfy whatever the forecast is (monotone, bounded,
 * convex, parity). Each violation is a finding with its JSON path and its size. The option
 * prices' checks are in `optionChecks.ts`.
 */

import type { LiquidationRecord } from "../domain/records/liquidation.ts";
import type { LpBoundsRecord, LpProbabilitiesRecord } from "../domain/records/lp.ts";
import {
  PERCENTILE_KEYS,
  type PredictionPercentilesRecord,
} from "../domain/records/percentiles.ts";

/**
 * One violation: which check, in which record (operation) and field (JSON path), by how much
 * (`size`, in the field's unit), and the tolerance it exceeded.
 * @example const finding: AuditFinding = { check: "liquidation rises with the window", operation: "/insights/liquidation", field: 'data[0].long_liquidation_probability["12"]', size: 0.02, tolerance: 0, detail: "0.41 after 0.43 at 6h" };
 */
export interface AuditFinding {
  readonly check: string;
  readonly operation: string;
  readonly field: string;
  readonly size: number;
  readonly tolerance: number;
  readonly detail: string;
}

/**
 * Probabilities the service rounds to 4 decimals: a sum or a difference may be off by this.
 * @example PROBABILITY_ROUNDING // => 0.0001
 */
export const PROBABILITY_ROUNDING = 1e-4;

/**
 * Collects the findings of one record's checks, and counts the comparisons made.
 * @example
 * const list = new FindingList("/insights/liquidation");
 * list.expect("probabilities within [0, 1]", 'data[0].long_liquidation_probability["6"]', 0.02, 0, "1.02");
 * list.findings.length // => 1
 */
export class FindingList {
  readonly findings: AuditFinding[] = [];
  /** Comparisons made (a check that passes is one too). */
  compared = 0;

  /**
   * @param operation - the spec path of the record checked, e.g. `/insights/liquidation`.
   */
  constructor(readonly operation: string) {}

  /**
   * Records a finding when `size` exceeds `tolerance`.
   * @param check - what the check asserts, e.g. `probabilities within [0, 1]`.
   * @param field - the JSON path of the value checked, e.g.
   *   `data[0].long_liquidation_probability["6"]`.
   * @param size - how far the value is off; beyond `tolerance` it is a finding.
   * @param tolerance - the largest size that still passes, e.g. the rounding of the values.
   * @param detail - the values behind the finding, as text, for the reader.
   */
  expect(check: string, field: string, size: number, tolerance: number, detail: string): void {
    this.compared += 1;
    if (size > tolerance) {
      this.findings.push({ check, operation: this.operation, field, size, tolerance, detail });
    }
  }
}

/**
 * The numeric keys of an object in increasing numeric order (strikes, hours, levels).
 * @example sortedKeys({ "12": 0.4, "6": 0.3 }) // => ["6", "12"]
 */
export function sortedKeys(values: Readonly<Record<string, number>>): string[] {
  return Object.keys(values).sort((a, b) => Number(a) - Number(b));
}

/**
 * Half a unit of the last decimal the values are written with (at most 8 decimals): how far a
 * value may be from the number it rounds.
 * @param values - numbers as a record writes them.
 * @example roundingOf([71090.23, 71174.5]) // => 0.005
 */
export function roundingOf(values: readonly number[]): number {
  let decimals = 0;
  for (const value of values) {
    while (
      decimals < 8 &&
      Math.abs(value * 10 ** decimals - Math.round(value * 10 ** decimals)) > 1e-6
    ) {
      decimals += 1;
    }
  }
  return 0.5 * 10 ** -decimals;
}

/**
 * Prediction percentiles: each step's values rise with the probability, and step 0 is the
 * current price (to the rounding the percentiles are written with).
 * @param record - a prediction percentiles record, as the service gave it.
 * @example checkPercentiles(record).findings // => []
 */
export function checkPercentiles(record: PredictionPercentilesRecord): FindingList {
  const list = new FindingList("/insights/prediction-percentiles");
  record.forecast_future.percentiles.forEach((step, index) => {
    for (let k = 1; k < PERCENTILE_KEYS.length; ++k) {
      const [low, high] = [PERCENTILE_KEYS[k - 1], PERCENTILE_KEYS[k]];
      list.expect(
        "percentiles rise with the probability",
        `forecast_future.percentiles[${index}]["${high}"]`,
        step[low] - step[high],
        0,
        `${step[high]} below the ${low} percentile ${step[low]}`,
      );
    }
  });
  const first = record.forecast_future.percentiles[0];
  if (first !== undefined) {
    const rounding = roundingOf(
      record.forecast_future.percentiles.flatMap((step) => PERCENTILE_KEYS.map((key) => step[key])),
    );
    for (const key of PERCENTILE_KEYS) {
      list.expect(
        "percentiles start at the current price",
        `forecast_future.percentiles[0]["${key}"]`,
        Math.abs(first[key] - record.current_price),
        rounding + 1e-9 * record.current_price,
        `${first[key]} at step 0, current price ${record.current_price}`,
      );
    }
  }
  return list;
}

/**
 * Liquidation probabilities: within [0, 1], rising with the window (hours), falling with the move.
 * @param record - a liquidation record, as the service gave it.
 * @example checkLiquidation(record).findings // => []
 */
export function checkLiquidation(record: LiquidationRecord): FindingList {
  const list = new FindingList("/insights/liquidation");
  const sides = ["long_liquidation_probability", "short_liquidation_probability"] as const;
  record.data.forEach((row, index) => {
    for (const side of sides) {
      const hours = sortedKeys(row[side]);
      hours.forEach((hour, h) => {
        const value = row[side][hour];
        const field = `data[${index}].${side}["${hour}"]`;
        list.expect(
          "probabilities within [0, 1]",
          field,
          Math.max(-value, value - 1),
          0,
          `${value}`,
        );
        if (h === 0) return;
        const before = row[side][hours[h - 1]];
        list.expect(
          "liquidation rises with the window",
          field,
          before - value,
          0,
          `${value} at ${hour}h after ${before} at ${hours[h - 1]}h`,
        );
      });
      if (index === 0) continue;
      const previous = record.data[index - 1];
      for (const hour of hours) {
        const [wider, narrower] = [row[side][hour], previous[side][hour]];
        if (narrower === undefined) continue;
        list.expect(
          "liquidation falls with the move",
          `data[${index}].${side}["${hour}"]`,
          wider - narrower,
          0,
          `${wider} at ${row.price_change} after ${narrower} at ${previous.price_change}`,
        );
      }
    }
  });
  return list;
}

/**
 * LP probabilities per horizon: above falls and below rises with the level, each within [0, 1],
 * and above + below ≤ 1 (to the rounding of two values).
 * @param record - an LP probabilities record, as the service gave it.
 * @example checkLpProbabilities(record).findings // => []
 */
export function checkLpProbabilities(record: LpProbabilitiesRecord): FindingList {
  const list = new FindingList("/insights/lp-probabilities");
  for (const [horizon, levels] of Object.entries(record.data)) {
    const prices = sortedKeys(levels.probability_above);
    prices.forEach((price, index) => {
      const above = levels.probability_above[price];
      const below = levels.probability_below[price];
      const at = (side: string) => `data["${horizon}"].${side}["${price}"]`;
      if (below !== undefined) {
        list.expect(
          "above + below ≤ 1",
          at("probability_above"),
          above + below - 1,
          2 * PROBABILITY_ROUNDING,
          `${above} + ${below}`,
        );
      }
      if (index === 0) return;
      const previous = prices[index - 1];
      list.expect(
        "probability above falls with the level",
        at("probability_above"),
        above - levels.probability_above[previous],
        0,
        `${above} at ${price} after ${levels.probability_above[previous]} at ${previous}`,
      );
      const belowBefore = levels.probability_below[previous];
      if (below !== undefined && belowBefore !== undefined) {
        list.expect(
          "probability below rises with the level",
          at("probability_below"),
          belowBefore - below,
          0,
          `${below} at ${price} after ${belowBefore} at ${previous}`,
        );
      }
    });
  }
  return list;
}

/**
 * LP bounds: the probability to stay and the expected time in the interval rise with its width.
 * @param record - an LP bounds record, as the service gave it.
 * @example checkLpBounds(record).findings // => []
 */
export function checkLpBounds(record: LpBoundsRecord): FindingList {
  const list = new FindingList("/insights/lp-bounds");
  const order = record.data
    .map((entry, index) => ({ entry, index, width: Number.parseFloat(entry.interval.full_width) }))
    .sort((a, b) => a.width - b.width);
  for (let k = 1; k < order.length; ++k) {
    const [narrow, wide] = [order[k - 1], order[k]];
    list.expect(
      "time in the interval rises with its width",
      `data[${wide.index}].expected_time_in_interval`,
      narrow.entry.expected_time_in_interval - wide.entry.expected_time_in_interval,
      0,
      `${wide.entry.expected_time_in_interval} at ${wide.entry.interval.full_width} after ${narrow.entry.expected_time_in_interval} at ${narrow.entry.interval.full_width}`,
    );
    for (const [hours, stay] of Object.entries(wide.entry.probability_to_stay_in_interval)) {
      const before = narrow.entry.probability_to_stay_in_interval[hours];
      if (before === undefined) continue;
      list.expect(
        "probability to stay rises with the width",
        `data[${wide.index}].probability_to_stay_in_interval["${hours}"]`,
        before - stay,
        0,
        `${stay} at ${wide.entry.interval.full_width} after ${before} at ${narrow.entry.interval.full_width}`,
      );
    }
  }
  return list;
}
