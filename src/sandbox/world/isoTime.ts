/**
 * Timestamps as the service writes them in records: ISO 8601 in UTC, to the second, with `Z`.
 */

/**
 * The ISO 8601 text of `unix` (seconds, truncated to whole seconds), e.g. `2026-02-25T23:27:00Z`.
 * Throws `RangeError` for a non-finite time.
 * @example isoSeconds(1772062020) // => "2026-02-25T23:27:00Z"
 */
export function isoSeconds(unix: number): string {
  if (!Number.isFinite(unix)) {
    throw new RangeError(`isoSeconds requires a finite unix time, got ${unix}`);
  }
  return new Date(Math.floor(unix) * 1000).toISOString().replace(".000Z", "Z");
}
