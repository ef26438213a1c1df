/**
 * The parts of an insight context that a service record fixes (its grids, its markets, its clock),
 * so that a recomputation is made on the same levels, strikes and contracts as the service's.
 */

import { VENUE_WINDOW_SECONDS } from "../domain/insightConventions.ts";
import { parseIsoTimeMs } from "../domain/time.ts";
import type { InsightContext, RangeMarket, VenueBContract } from "./context.ts";
import { isoTimeText } from "./timeText.ts";

/**
 * The context fields that a decoded service record of `operationPath` determines, to spread into a
 * context before recomputing:
 * - `forecastStartTime` and `currentPrice` when the record has them;
 * - LP probabilities: `lpLevels` = the record's level keys (numbers, ascending);
 * - option pricing: `strikes` = the call keys (ascending), `expiryTime` = `expiry_time`;
 * - Up/Down: `now` = `current_time`, `startPrice`, `slug`;
 * - range family and the earlier range form (arrays): `now`, `rangeMarkets` (the comparison type,
 *   or for the earlier form: two reference prices → range, a title starting with `<` → below,
 *   otherwise above). The earlier form carries no `current_time`: `now` is then the opening of
 *   the daily event that ends at its `event_end_time` (end − 1 day), so that the recomputation
 *   prices the same event as the service, whatever the service's clock was (a query after 17:00
 *   UTC prices the next day's event, later than one opened before the forecast's start);
 * - venue B (arrays): `now`, `venueBContracts` (strikes = `start_price`, with slugs).
 * Fields the record does not carry are left out. Other operations give what they carry (the first
 * two fields). Never throws: a value of an unexpected shape is left out.
 * @param operationPath - the record's operation, as a spec path, e.g. `/insights/option-pricing`.
 * @param serviceRecord - the record as decoded from the service's response (an object, or an array
 *   of them).
 * @example
 * const context = { asset: "BTC", horizon: "24h", ...contextFromServiceRecord(path, serviceRecord) };
 */
export function contextFromServiceRecord(
  operationPath: string,
  serviceRecord: unknown,
): Partial<InsightContext> {
  const first = Array.isArray(serviceRecord) ? serviceRecord[0] : serviceRecord;
  const context: Record<string, unknown> = {};
  if (!isObject(first)) return context;
  if (typeof first.forecast_start_time === "string") {
    context.forecastStartTime = first.forecast_start_time;
  }
  if (typeof first.current_price === "number") context.currentPrice = first.current_price;
  if (typeof first.current_time === "string") {
    context.now = first.current_time;
  } else if (
    operationPath.startsWith("/insights/venuea/") &&
    typeof first.event_end_time === "string"
  ) {
    const endMs = parseIsoTimeMs(first.event_end_time);
    if (Number.isFinite(endMs)) {
      context.now = isoTimeText(endMs / 1000 - VENUE_WINDOW_SECONDS.daily);
    }
  }
  if (
    operationPath === "/insights/lp-probabilities" ||
    operationPath === "/insights/lp-bounds-chart"
  ) {
    const levels = isObject(first.data)
      ? Object.values(first.data).filter(isObject)[0]?.probability_above
      : undefined;
    if (isObject(levels)) context.lpLevels = numericKeys(levels);
  } else if (operationPath === "/insights/option-pricing") {
    if (isObject(first.call_options)) context.strikes = numericKeys(first.call_options);
    if (typeof first.expiry_time === "string") context.expiryTime = first.expiry_time;
  } else if (operationPath.startsWith("/insights/venuea/up-down/")) {
    if (typeof first.start_price === "number") context.startPrice = first.start_price;
    if (typeof first.slug === "string") context.slug = first.slug;
  } else if (operationPath.startsWith("/insights/venuea/") && Array.isArray(serviceRecord)) {
    context.rangeMarkets = serviceRecord.filter(isObject).map(rangeMarketOf);
  } else if (operationPath.startsWith("/insights/venueb/") && Array.isArray(serviceRecord)) {
    context.venueBContracts = serviceRecord.filter(isObject).map((record): VenueBContract => {
      const contract: { startPrice: number; slug?: string } = {
        startPrice: Number(record.start_price),
      };
      if (typeof record.slug === "string") contract.slug = record.slug;
      return contract;
    });
  }
  return context as Partial<InsightContext>;
}

function rangeMarketOf(record: Record<string, unknown>): RangeMarket {
  const refPrices = Array.isArray(record.ref_prices) ? record.ref_prices.map(Number) : [];
  const title = typeof record.title === "string" ? record.title : undefined;
  const cmpType =
    typeof record.cmp_type === "string"
      ? (record.cmp_type as RangeMarket["cmpType"])
      : refPrices.length === 2
        ? "range"
        : title?.trimStart().startsWith("<")
          ? "below"
          : "above";
  const market: { -readonly [K in keyof RangeMarket]: RangeMarket[K] } = { cmpType, refPrices };
  if (title !== undefined) market.title = title;
  if (typeof record.slug === "string") market.slug = record.slug;
  return market;
}

function numericKeys(map: Record<string, unknown>): number[] {
  return Object.keys(map)
    .map(Number)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
