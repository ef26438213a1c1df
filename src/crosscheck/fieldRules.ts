/**
 * What the cross-check knows about the fields of the insight records: how each number is rounded
 * (the insight conventions), which numbers are probabilities, how the elements of an array are
 * matched between two records, and which fields of a venue record are the model's.
 */

import {
  PERCENTILE_PRICE_DECIMALS,
  PROBABILITY_DECIMALS,
  VOLATILITY_DECIMALS,
} from "../domain/insightConventions.ts";

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
 * insight conventions: probabilities 4 decimals; prediction percentiles 2; volatilities and their
 * percentiles 2; everything else (prices, bounds, time in interval, impermanent loss, option
 * prices, volatility averages, realized prices and returns) unrounded.
 * @example numberRule("/insights/volatility", "forecast_future.volatility[]") // => { decimals: 2, probability: false }
 */
export function numberRule(operationPath: string, field: string): NumberRule {
  if (PROBABILITY_FIELDS.test(field)) return PROBABILITY;
  if (operationPath === "/insights/prediction-percentiles" && field.endsWith("percentiles[]{}")) {
    return { decimals: PERCENTILE_PRICE_DECIMALS, probability: false };
  }
  if (
    operationPath.startsWith("/insights/volatility") &&
    /(?:volatility\[\]|percentiles\[\]\{\})$/.test(field)
  ) {
    return { decimals: VOLATILITY_DECIMALS, probability: false };
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
  return (
    operationPath.startsWith("/insights/venuea/") || operationPath.startsWith("/insights/venueb/")
  );
}

/**
 * How the elements of the array at `field` are paired between the two records: by a key computed
 * from each element, or (undefined) by position. Liquidation scenarios pair by `price_change`, LP
 * bounds by `interval.full_width`, range-family markets by comparison type and reference prices,
 * venue B contracts by `start_price` (the strike); every other array by index.
 * @example elementIdentity("/insights/liquidation", "data[]")?.({ price_change: "1.0%" }) // => "1.0%"
 */
export function elementIdentity(
  operationPath: string,
  field: string,
): ((element: unknown) => string | undefined) | undefined {
  if (field === "data[]" && operationPath === "/insights/liquidation") {
    return (element) => stringAt(element, ["price_change"]);
  }
  if (field === "data[]" && operationPath === "/insights/lp-bounds") {
    return (element) => stringAt(element, ["interval", "full_width"]);
  }
  if (field === "[]" && operationPath.startsWith("/insights/venuea/")) {
    return (element) => {
      const record = element as { cmp_type?: unknown; ref_prices?: unknown } | null;
      if (record === null || typeof record !== "object" || !Array.isArray(record.ref_prices)) {
        return undefined;
      }
      const kind = typeof record.cmp_type === "string" ? `${record.cmp_type} ` : "";
      return `${kind}${record.ref_prices.join(", ")}`;
    };
  }
  if (field === "[]" && operationPath.startsWith("/insights/venueb/")) {
    return (element) => {
      const strike = (element as { start_price?: unknown } | null)?.start_price;
      return typeof strike === "number" ? String(strike) : undefined;
    };
  }
  return undefined;
}

function stringAt(value: unknown, path: readonly string[]): string | undefined {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === "string" ? current : undefined;
}
