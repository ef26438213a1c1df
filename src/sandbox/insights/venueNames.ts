/**
 * Names of the sandbox's venue markets, shaped like the captured live ones:
 * `bitcoin-up-or-down-on-february-26`, `bitcoin-up-or-down-february-25-6pm-et`,
 * `btc-updown-15m-1772204400`, `bitcoin-price-on-february-26`.
 */

import type { VenueWindow } from "../../domain/insightConventions.ts";
import type { VenueBWindow } from "../../domain/insightKinds.ts";

const LONG_NAMES: Readonly<Record<string, string>> = {
  BTC: "bitcoin",
  ETH: "ethereum",
  SOL: "solana",
  XRP: "xrp",
  HYPE: "hyperliquid",
  XAU: "gold",
  SPYX: "spy",
  SPY: "spy",
  NVDAX: "nvidia",
  NVDA: "nvidia",
  GOOGLX: "google",
  GOOGL: "google",
  TSLAX: "tesla",
  TSLA: "tesla",
  AAPLX: "apple",
  AAPL: "apple",
  WTIOIL: "crude-oil",
};

/**
 * The word a market's slug uses for an asset (`bitcoin` for BTC); the lower-case symbol when the
 * asset has no common name here.
 * @example assetSlugName("ETH") // => "ethereum"
 */
export function assetSlugName(asset: string): string {
  return Object.hasOwn(LONG_NAMES, asset) ? LONG_NAMES[asset] : asset.toLowerCase();
}

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** `february-26` for a UTC time. */
function utcDayText(unix: number): string {
  const date = new Date(unix * 1000);
  return `${MONTHS[date.getUTCMonth()]}-${date.getUTCDate()}`;
}

const EASTERN = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  month: "long",
  day: "numeric",
  hour: "numeric",
  hour12: true,
});

/** `february-25-6pm-et`: the US Eastern date and hour of a time (daylight saving included). */
function easternHourText(unix: number): string {
  const parts = EASTERN.formatToParts(new Date(unix * 1000));
  const part = (type: string): string => parts.find((entry) => entry.type === type)?.value ?? "";
  return `${part("month").toLowerCase()}-${part("day")}-${part("hour")}${part("dayPeriod").toLowerCase()}-et`;
}

/**
 * The slug of a venue A Up/Down market: daily `bitcoin-up-or-down-on-<end date>`, hourly
 * `bitcoin-up-or-down-<ET date and hour of the start>-et`, 15/5-minute `btc-updown-15m-<start unix>`.
 * @example upDownSlug("BTC", "5min", 1772205000, 1772205300) // => "btc-updown-5m-1772205000"
 */
export function upDownSlug(
  asset: string,
  window: VenueWindow,
  startUnix: number,
  endUnix: number,
): string {
  switch (window) {
    case "daily":
      return `${assetSlugName(asset)}-up-or-down-on-${utcDayText(endUnix)}`;
    case "hourly":
      return `${assetSlugName(asset)}-up-or-down-${easternHourText(startUnix)}`;
    case "15min":
      return `${asset.toLowerCase()}-updown-15m-${startUnix}`;
    case "5min":
      return `${asset.toLowerCase()}-updown-5m-${startUnix}`;
  }
}

/**
 * The slug of a venue A daily range-family event: `bitcoin-price-on-<end date>` (range buckets),
 * `bitcoin-above-on-<end date>`, `what-price-will-bitcoin-hit-on-<end date>`.
 * @example rangeFamilySlug("BTC", "range", 1772125200) // => "bitcoin-price-on-february-26"
 */
export function rangeFamilySlug(
  asset: string,
  family: "range" | "above" | "hit",
  endUnix: number,
): string {
  const name = assetSlugName(asset);
  const day = utcDayText(endUnix);
  if (family === "range") return `${name}-price-on-${day}`;
  return family === "above" ? `${name}-above-on-${day}` : `what-price-will-${name}-hit-on-${day}`;
}

/**
 * The slug of a venue B market: `<symbol>-<window>-<start unix>`, with `-t<strike>` for the hourly
 * strike ladder.
 * @example venueBSlug("BTC", "hourly", 1772060400, 68250) // => "btc-hourly-1772060400-t68250"
 */
export function venueBSlug(
  asset: string,
  window: VenueBWindow,
  startUnix: number,
  strike?: number,
): string {
  const base = `${asset.toLowerCase()}-${window === "15min" ? "15m" : window}-${startUnix}`;
  return strike === undefined ? base : `${base}-t${strike}`;
}
