/** Timestamps written the way the captured live responses write them. */

/**
 * ISO 8601 with a `+00:00` offset, as the live records' times (`2026-02-25T23:45:17+00:00`);
 * milliseconds are written only when the time has them (`…17.526+00:00`).
 * Throws `RangeError` for a time that is not finite.
 * @example isoTimeOfUnix(1772063117) // => "2026-02-25T23:45:17+00:00"
 */
export function isoTimeOfUnix(unix: number): string {
  if (!Number.isFinite(unix))
    throw new RangeError(`isoTimeOfUnix requires a finite time, got ${unix}`);
  const text = new Date(Math.round(unix * 1000)).toISOString(); // 2026-02-25T23:45:17.000Z
  const withoutZone = text.endsWith(".000Z") ? text.slice(0, -5) : text.slice(0, -1);
  return `${withoutZone}+00:00`;
}

/**
 * The option record's expiry form, `YYYY-MM-DD HH:MM:SSZ` (as the live `2026-02-26 08:00:00Z`).
 * @example expiryTimeText(1772092800) // => "2026-02-26 08:00:00Z"
 */
export function expiryTimeText(unix: number): string {
  return `${isoTimeOfUnix(unix).slice(0, 19).replace("T", " ")}Z`;
}
