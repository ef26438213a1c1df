/**
 * Times into and out of DuckDB `TIMESTAMP` columns (UTC, microseconds since the Unix epoch).
 */

import { DuckDBTimestampValue } from "@duckdb/node-api";
import { ISO_TIME_EXPECTED, parseIsoTimeMs } from "../domain/time.ts";

/**
 * A `TIMESTAMP` value of a Unix time in seconds (fractions kept to the microsecond).
 * @example timestampOfUnix(1772063100).micros // => 1772063100000000n
 */
export function timestampOfUnix(seconds: number): DuckDBTimestampValue {
  if (!Number.isFinite(seconds)) {
    throw new RangeError(`timestampOfUnix requires a finite Unix time in seconds, got ${seconds}`);
  }
  return new DuckDBTimestampValue(BigInt(Math.round(seconds * 1e6)));
}

/**
 * A `TIMESTAMP` value of an ISO 8601 time as the interface writes them (`2026-02-26T17:00:00+00:00`);
 * `what` names the field in the error when the text is not such a time.
 * @example timestampOfIso("2026-02-26T17:00:00+00:00", "event_end_time").micros // => 1772125200000000n
 */
export function timestampOfIso(text: string, what: string): DuckDBTimestampValue {
  const milliseconds = parseIsoTimeMs(text);
  if (Number.isNaN(milliseconds)) {
    throw new RangeError(`${what}: expected ${ISO_TIME_EXPECTED}, got ${JSON.stringify(text)}`);
  }
  return new DuckDBTimestampValue(BigInt(milliseconds) * 1000n);
}

/**
 * Unix seconds of a `TIMESTAMP` value read from DuckDB.
 * @example unixOfTimestamp(new DuckDBTimestampValue(1772063100000000n)) // => 1772063100
 */
export function unixOfTimestamp(value: DuckDBTimestampValue): number {
  return Number(value.micros) / 1e6;
}
