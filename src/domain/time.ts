/** ISO 8601 timestamps as the interface writes them, parsed without the platform's lenient Date.parse. */

/**
 * The forms accepted: a date `YYYY-MM-DD`, or a date and time separated by `T` or a space, with
 * optional seconds and fraction (any number of digits) and an optional offset `Z`, `±HH:MM`, `±HHMM`
 * or `±HH`. A time without an offset is read as UTC (the service's timestamps are UTC).
 */
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;

/**
 * Description of {@link parseIsoTimeMs}'s accepted forms, for error messages.
 * @example `expected ${ISO_TIME_EXPECTED}`
 */
export const ISO_TIME_EXPECTED =
  "ISO 8601 time (YYYY-MM-DD, or YYYY-MM-DD[T ]HH:MM[:SS[.fff]][Z|±HH:MM])";

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Milliseconds since the Unix epoch of an ISO 8601 time string, or NaN when the text is not one of
 * the accepted forms or names an impossible date or time (month 13, 30 February, hour 24).
 * Fractions beyond milliseconds are truncated.
 * @param text - a date `YYYY-MM-DD`, or a date and a time `HH:MM[:SS[.fff]]` separated by `T` or a
 *   space, with an optional offset `Z`, `±HH:MM`, `±HHMM` or `±HH` (UTC when absent).
 * @example
 * parseIsoTimeMs("2026-03-27 08:00:00Z") // => 1774598400000
 * parseIsoTimeMs("2026-02-25T23:45:17.526606+00:00") // => 1772063117526
 * parseIsoTimeMs("2026-02-30") // => NaN
 */
export function parseIsoTimeMs(text: string): number {
  const match = ISO_TIME.exec(text);
  if (match === null) return NaN;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const hour = match[4] === undefined ? 0 : Number(match[4]);
  const minute = match[5] === undefined ? 0 : Number(match[5]);
  const second = match[6] === undefined ? 0 : Number(match[6]);
  const milliseconds = match[7] === undefined ? 0 : Number(match[7].slice(0, 3).padEnd(3, "0"));
  if (month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]) return NaN;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (month === 2 && day === 29 && !leap) return NaN;
  if (hour > 23 || minute > 59 || second > 59) return NaN;
  let offsetMinutes = 0;
  if (match[9] !== undefined) {
    const offsetHours = Number(match[10]);
    const offsetRest = match[11] === undefined ? 0 : Number(match[11]);
    if (offsetHours > 23 || offsetRest > 59) return NaN;
    offsetMinutes = (match[9] === "-" ? -1 : 1) * (offsetHours * 60 + offsetRest);
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, milliseconds);
  return date.getTime() - offsetMinutes * 60_000;
}

/**
 * The ISO 8601 text of `unix` (seconds, truncated to whole seconds) as the service writes times in
 * records: UTC, to the second, with `Z`, e.g. `2026-02-25T23:27:00Z`.
 * Throws `RangeError` for a non-finite time.
 * @param unix - the time in Unix seconds; a fraction is dropped.
 * @example isoSeconds(1772062020) // => "2026-02-25T23:27:00Z"
 */
export function isoSeconds(unix: number): string {
  if (!Number.isFinite(unix)) {
    throw new RangeError(`isoSeconds requires a finite unix time, got ${unix}`);
  }
  return new Date(Math.floor(unix) * 1000).toISOString().replace(".000Z", "Z");
}
