/**
 * How {@link queryRows} and `streamRows` hand out DuckDB's values: as JSON values a reader can use
 * at once, integers as numbers and timestamps as ISO 8601 in UTC.
 */

import {
  DuckDBTypeId,
  JsonDuckDBValueConverter,
  type DuckDBValueConverter,
  type Json,
} from "@duckdb/node-api";

/** The integer types whose values DuckDB's node API gives as `bigint`. */
const WIDE_INTEGER_TYPES: ReadonlySet<DuckDBTypeId> = new Set([
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
  DuckDBTypeId.BIGNUM,
]);

/** The timestamp types, each written by DuckDB as `2026-02-25 10:00:00[.fraction][+00]` in UTC. */
const TIMESTAMP_TYPES: ReadonlySet<DuckDBTypeId> = new Set([
  DuckDBTypeId.TIMESTAMP,
  DuckDBTypeId.TIMESTAMP_S,
  DuckDBTypeId.TIMESTAMP_MS,
  DuckDBTypeId.TIMESTAMP_NS,
  DuckDBTypeId.TIMESTAMP_TZ,
]);

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

/** DuckDB's text of a timestamp of years 0000–9999 (TIMESTAMPTZ's with its `+00`). */
const DUCKDB_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)(?:\+00)?$/;

/**
 * A value of an integer wider than 32 bits (BIGINT, UBIGINT, HUGEINT, UHUGEINT, BIGNUM) as a JSON
 * value: a number from −(2^53 − 1) to 2^53 − 1, where every integer is exact as a double, and
 * beyond that its decimal digits as a string, so that no digit is lost.
 * @example integerJson(180n) // => 180
 * @example integerJson(9007199254740993n) // => "9007199254740993"
 */
export function integerJson(value: bigint): number | string {
  return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value.toString();
}

/**
 * DuckDB's text of a timestamp (`2026-02-25 10:00:00.5`, TIMESTAMPTZ's `… 08:00:00+00`) as ISO 8601
 * in UTC (`2026-02-25T10:00:00.5Z`), every digit of the fraction kept (TIMESTAMP_NS has nine).
 * DuckDB's values are in UTC (a TIMESTAMPTZ is written at offset +00). Text that ISO 8601's basic
 * form cannot write, `infinity`, `-infinity`, a year before 0001 (`… (BC) …`) or after 9999, is
 * given as DuckDB writes it.
 * @example timestampJson("2026-02-25 10:00:00.5") // => "2026-02-25T10:00:00.5Z"
 */
export function timestampJson(text: string): string {
  const parts = DUCKDB_TIMESTAMP.exec(text);
  return parts === null ? text : `${parts[1]}T${parts[2]}Z`;
}

/**
 * pathlab's conversion of DuckDB's values to JSON values: DuckDB's own JSON conversion
 * (`JsonDuckDBValueConverter`) but for wide integers ({@link integerJson}: numbers, strings only
 * beyond 2^53) and timestamps ({@link timestampJson}: ISO 8601 with `Z`), also inside lists, arrays,
 * structs, maps and unions. The rest is DuckDB's: doubles as numbers (NaN and ±Infinity as the
 * strings `"NaN"`, `"Infinity"`, `"-Infinity"`), DECIMAL as its exact decimal string, DATE as
 * `2026-02-25`, TIME as `10:00:00`, INTERVAL as `{ months, days, micros }`, BLOB as escaped text.
 * @example const rows = chunk.convertRows(jsonValueConverter);
 */
export const jsonValueConverter: DuckDBValueConverter<Json> = (value, type, converter) => {
  if (value !== null && WIDE_INTEGER_TYPES.has(type.typeId) && typeof value === "bigint") {
    return integerJson(value);
  }
  if (value !== null && TIMESTAMP_TYPES.has(type.typeId)) return timestampJson(String(value));
  // DuckDB's conversion calls `converter`, this one, for the items of lists, structs and maps.
  return JsonDuckDBValueConverter(value, type, converter);
};
