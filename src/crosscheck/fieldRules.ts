/**
 * What the cross-check knows about the fields of the insight records: how each number is rounded
 * (the insight conventions), which numbers are probabilities, how the elements of an array are
 * matched between two records, and which fields of a venue record are the model's. What differs
 * between kinds is each kind's `fields` in the registry (`src/domain/insightKinds.ts`).
 */

import { PROBABILITY_DECIMALS } from "../domain/insightConventions.ts";
import { insightKind, isInsightPath } from "../domain/insightKindLists.ts";
import type { ElementKey, RecordFields } from "../domain/insightKind.ts";

/**
 * How a number of a record is reported.
 * @example const rule: NumberRule = { decimals: 4, probability: true };
 */
export interface NumberRule {
  /** Decimals it is rounded to; undefined for numbers reported unrounded. */
  readonly decimals: number | undefined;
  /** Whether it is a probability (its standard error defaults to √(p(1 − p)/n)). */
  readonly probability: boolean;
}

const PROBABILITY: NumberRule = Object.freeze({
  decimals: PROBABILITY_DECIMALS,
  probability: true,
});
const UNROUNDED: NumberRule = Object.freeze({ decimals: undefined, probability: false });

/** Last segment of a generic field (`data[].long_liquidation_probability{}` → the probability map). */
const PROBABILITY_FIELDS =
  /(?:^|\.)(?:long_liquidation_probability\{\}|short_liquidation_probability\{\}|probability_to_stay_in_interval\{\}|probability_above\{\}|probability_below\{\}|model_probability|model_probability_up)$/;

/**
 * The rounding rule of a number at `field` (a generic field: array indexes written `[]`, map keys
 * `{}`, e.g. `data[].long_liquidation_probability{}`) of the record of `operationPath`, from the
 * insight conventions: probabilities 4 decimals; then the rounding of its kind's `fields` in the
 * registry (prediction percentiles 2; volatilities and their percentiles 2); everything else
 * (prices, bounds, time in interval, impermanent loss, option prices, volatility averages,
 * realized prices and returns) unrounded.
 * @example numberRule("/insights/volatility", "forecast_future.volatility[]") // => { decimals: 2, probability: false }
 */
export function numberRule(operationPath: string, field: string): NumberRule {
  if (PROBABILITY_FIELDS.test(field)) return PROBABILITY;
  const rounded = fieldsOf(operationPath).rounded;
  if (rounded !== undefined && rounded.fields.test(field)) {
    return { decimals: rounded.decimals, probability: false };
  }
  return UNROUNDED;
}

/**
 * Whether an operation is a venue comparison, whose recomputed record is the model side only:
 * fields of the service's record that the recomputed record does not have (the venue's quotes)
 * are not compared.
 * @example isVenueOperation("/insights/venueb/daily") // => true
 */
export function isVenueOperation(operationPath: string): boolean {
  return isInsightPath(operationPath) && insightKind(operationPath).family !== "insights";
}

/**
 * How the elements of the array at `field` are paired between the two records: by a key computed
 * from each element (its kind's `elementKeys` in the registry), or (undefined) by position.
 * Liquidation scenarios pair by `price_change`, LP bounds by `interval.full_width`, range-family
 * markets by comparison type and reference prices, venue B contracts by `start_price` (the
 * strike); every other array by index.
 * @example elementIdentity("/insights/liquidation", "data[]")?.({ price_change: "1.0%" }) // => "1.0%"
 */
export function elementIdentity(operationPath: string, field: string): ElementKey | undefined {
  const keys = fieldsOf(operationPath).elementKeys;
  return keys !== undefined && Object.hasOwn(keys, field) ? keys[field] : undefined;
}

/** The registry's fields of the kind at `operationPath`; none for a path that is no kind. */
function fieldsOf(operationPath: string): RecordFields {
  return isInsightPath(operationPath) ? insightKind(operationPath).fields : {};
}
