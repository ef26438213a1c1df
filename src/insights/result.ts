/**
 * What every insight function returns: the spec record, and beside it the Monte-Carlo standard
 * error of each of its estimated numbers, keyed by the number's JSON path in the record.
 */

import { formatJsonPath } from "../domain/decode.ts";

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
  /** Exactly the spec's record shape (types of `src/domain/records/`). */
  readonly record: R;
  /** Standard error per JSON path of an estimated number of `record`. */
  readonly standardErrors: Readonly<Record<string, number>>;
  /**
   * The between-miner standard error (`betweenMiners.ts`) per JSON path, for the probabilities
   * that venue markets are compared with (the venue records' model sides); absent elsewhere.
   */
  readonly betweenMinerErrors?: Readonly<Record<string, number>>;
}

/**
 * The key of a number in {@link InsightResult.standardErrors}: its JSON path in the record.
 * @param path - the number's place in the record, outermost first: property names and array
 *   indexes.
 * @example standardErrorKey(["data", 0, "long_liquidation_probability", "6"]) // => 'data[0].long_liquidation_probability["6"]'
 */
export function standardErrorKey(path: readonly (string | number)[]): string {
  return formatJsonPath(path);
}

/** Grids of keys already formatted, by prefix, rows and columns (a handful in a process). */
const KEY_GRIDS = new Map<string, readonly string[]>();

/**
 * {@link standardErrorKey} of `[...prefix, row, column]` for every row in [0, rows) and column of
 * `columns`, row-major (row r, column c at `r·columns.length + c`); formatted once per process and
 * kept, as records with thousands of estimates (2,601 prediction percentiles) ask for the same
 * keys every time.
 * @example standardErrorKeyGrid(["forecast_future", "percentiles"], 289, PERCENTILE_KEYS)[9] // => 'forecast_future.percentiles[1]["0.005"]'
 */
export function standardErrorKeyGrid(
  prefix: readonly (string | number)[],
  rows: number,
  columns: readonly string[],
): readonly string[] {
  const id = JSON.stringify([prefix, rows, columns]);
  let grid = KEY_GRIDS.get(id);
  if (grid === undefined) {
    const keys: string[] = [];
    for (let row = 0; row < rows; ++row) {
      for (const column of columns) keys.push(standardErrorKey([...prefix, row, column]));
    }
    grid = Object.freeze(keys);
    KEY_GRIDS.set(id, grid);
  }
  return grid;
}
