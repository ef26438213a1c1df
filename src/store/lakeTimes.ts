/**
 * How the lake writes a unit's time: in its key and its partition's date. Apart from the lake's
 * reading and writing (`lake.ts`), so that a unit pool thread can name a unit without DuckDB.
 */

import { isoSeconds } from "../domain/time.ts";

/**
 * A unit's time as its key writes it, `YYYYMMDDTHHMMSSZ`, and its partition's UTC date.
 * @example lakeTimes(1795255200) // => { key: "20261121T100000Z", date: "2026-11-21" }
 */
export function lakeTimes(unix: number): { key: string; date: string } {
  const iso = isoSeconds(unix);
  return { key: iso.replaceAll("-", "").replaceAll(":", ""), date: iso.slice(0, 10) };
}
