/** Times written into recomputed records, in the forms of the captured live responses. */

/**
 * ISO 8601 with a `+00:00` offset (`2026-02-25T23:45:17+00:00`); milliseconds only when present.
 * Throws `RangeError` for a time that is not finite.
 * @example isoTimeText(1772063117) // => "2026-02-25T23:45:17+00:00"
 */
export function isoTimeText(unix: number): string {
  if (!Number.isFinite(unix))
    throw new RangeError(`isoTimeText requires a finite time, got ${unix}`);
  const text = new Date(Math.round(unix * 1000)).toISOString();
  return `${text.endsWith(".000Z") ? text.slice(0, -5) : text.slice(0, -1)}+00:00`;
}

/**
 * The option record's expiry form `YYYY-MM-DD HH:MM:SSZ` (as the live `2026-03-27 08:00:00Z`).
 * @example expiryTimeText(1772092800) // => "2026-02-26 08:00:00Z"
 */
export function expiryTimeText(unix: number): string {
  return `${isoTimeText(unix).slice(0, 19).replace("T", " ")}Z`;
}
