/**
 * The realized path of a prompt (the spec's record) as the Float64Array the scoring kernels read,
 * checked against the path set it scores.
 */

import type { PathSet } from "../paths/pathSet.ts";
import type { RealizedPath } from "../domain/records/validation.ts";
import { parseIsoTimeMs } from "../domain/time.ts";

/**
 * The realized prices of `realized` as a Float64Array, with NaN where a price is missing (`null`
 * in JSON, or NaN).
 * @param realized - the realized path, as the service gives it.
 * @example realizedPricesOf({ asset: "BTC", real_prices: [100, null, 102], start_time: "2026-02-25T23:00:00Z", time_increment: 300, time_length: 600 }) // => [100, NaN, 102]
 */
export function realizedPricesOf(realized: RealizedPath): Float64Array {
  const prices = realized.real_prices;
  if (!Array.isArray(prices)) {
    throw new RangeError(
      `realizedPricesOf requires real_prices to be an array, got ${typeof prices}`,
    );
  }
  const out = new Float64Array(prices.length);
  for (let index = 0; index < prices.length; index++) {
    const price = prices[index];
    out[index] = typeof price === "number" ? price : NaN;
  }
  return out;
}

/**
 * Checks that `realized` belongs to the prompt of `pathSet`: the same time increment and the same
 * start (the record's ISO `start_time` against the path set's Unix `startTime`). Scoring a path
 * set against another prompt's realized path is a mistake the validator cannot make, so it throws.
 * Throws `RangeError` naming `operation`, the field, what was expected and what was got.
 * @example checkRealizedMatches("scorePrompt", pathSet, realized) // passes silently
 */
export function checkRealizedMatches(
  operation: string,
  pathSet: Pick<PathSet, "timeIncrement" | "startTime">,
  realized: RealizedPath,
): void {
  if (realized.time_increment !== pathSet.timeIncrement) {
    throw new RangeError(
      `${operation} requires the realized path's time_increment to equal the path set's timeIncrement (${pathSet.timeIncrement} s), got ${realized.time_increment}`,
    );
  }
  const startMs = parseIsoTimeMs(realized.start_time);
  if (Number.isNaN(startMs)) {
    throw new RangeError(
      `${operation} requires the realized path's start_time to be an ISO 8601 time, got ${JSON.stringify(realized.start_time)}`,
    );
  }
  if (startMs !== pathSet.startTime * 1000) {
    throw new RangeError(
      `${operation} requires the realized path's start_time to equal the path set's startTime (${new Date(pathSet.startTime * 1000).toISOString()}), got ${realized.start_time}`,
    );
  }
}
