/**
 * What every insight function returns: the spec record, and beside it the Monte-Carlo standard
 * error of each of its estimated numbers, keyed by the number's JSON path in the record.
 */

import { formatJsonPath } from "../spec/decode.ts";

/**
 * A recomputed record with its Monte-Carlo standard errors. `standardErrors` maps the JSON path of
 * each estimated number in `record` (as `formatJsonPath` writes it, e.g.
 * `data[3].long_liquidation_probability["12"]`) to its standard error, computed on the unrounded
 * estimate: √(p(1 − p)/n) for a probability, sample std / √n for a mean, the order-statistic band
 * for a percentile, the kurtosis-aware delta method for a volatility. Numbers that are inputs
 * (current price, bounds, strikes, realized prices) have no entry.
 * @example
 * const { record, standardErrors } = liquidationInsight(ensemble, context);
 * standardErrors['data[0].long_liquidation_probability["6"]'] // => 0.0049…
 */
export interface InsightResult<R> {
  /** Exactly the spec's record shape (types of `src/spec/records/`). */
  readonly record: R;
  /** Standard error per JSON path of an estimated number of `record`. */
  readonly standardErrors: Readonly<Record<string, number>>;
}

/**
 * The key of a number in {@link InsightResult.standardErrors}: its JSON path in the record.
 * @example standardErrorKey(["data", 0, "long_liquidation_probability", "6"]) // => 'data[0].long_liquidation_probability["6"]'
 */
export function standardErrorKey(path: readonly (string | number)[]): string {
  return formatJsonPath(path);
}
