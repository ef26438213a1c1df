/**
 * A venue comparison as the job makes it, and the market its record names, as the table's columns
 * read it. Apart from the table's reading and writing (`venueComparisons.ts`), so that a unit
 * pool thread makes its comparisons without DuckDB.
 */

import type { RangeComparisonRecord, UpDownComparisonRecord } from "../domain/records/venue-a.ts";
import type { VenueBComparisonRecord } from "../domain/records/venue-b.ts";

/**
 * One venue market compared: the service's record (venue A Up/Down or range family, or venue B)
 * and pathlab's recomputed model probability for it.
 * @example
 * const entry: VenueComparisonEntry = { operation: "/insights/venuea/up-down/daily", record, recomputedProbability: 0.4093, recomputedStandardError: 0.0049 };
 */
export interface VenueComparisonEntry {
  /** The operation's path in the spec (`/insights/venuea/up-down/daily`). */
  readonly operation: string;
  readonly record: UpDownComparisonRecord | RangeComparisonRecord | VenueBComparisonRecord;
  /** Null when pathlab could not recompute it. */
  readonly recomputedProbability: number | null;
  /** Monte-Carlo standard error of the recomputed probability, when known. */
  readonly recomputedStandardError?: number | null;
  /** Between-miner standard error of the recomputed probability, when known. */
  readonly betweenMinerStandardError?: number | null;
  /** Whether the current price already settles the market (`marketDecided`); null: not judged. */
  readonly decided?: boolean | null;
  /** The edge that survives the spread (`tradableEdge`), if any. */
  readonly edge?: { readonly side: "buy" | "sell"; readonly netEdge: number } | null;
  /** Whether the edge is tradable (`robustEdge`): live, and beyond 2 standard errors. */
  readonly tradable?: boolean;
}

/**
 * The market of a comparison record, as the table's columns read it (times still ISO 8601): `kind`
 * is the range family's `cmp_type` or `up-down`, `market` the bucket's title or else the slug, the
 * service's probability `model_probability_up` or `model_probability`, the venue's venue A's or
 * venue B's market probability. Fields a record's form lacks are null.
 * @example venueMarketOf(record).kind // => "above"
 */
export function venueMarketOf(record: VenueComparisonEntry["record"]) {
  const optional = <T>(field: string): T | null =>
    field in record ? ((record as unknown as Record<string, T>)[field] ?? null) : null;
  return {
    market: "title" in record ? record.title : record.slug,
    kind: "cmp_type" in record ? record.cmp_type : "up-down",
    title: "title" in record ? record.title : null,
    refPrices: "ref_prices" in record ? record.ref_prices : null,
    eventStartTime: "event_start_time" in record ? record.event_start_time : null,
    eventEndTime: record.event_end_time,
    observedAt: record.current_time,
    currentPrice: record.current_price,
    startPrice: optional<number>("start_price"),
    currentOutcome: optional<unknown>("current_outcome"),
    serviceProbability:
      "model_probability_up" in record ? record.model_probability_up : record.model_probability,
    venueProbability:
      "venuea_probability_up" in record
        ? record.venuea_probability_up
        : "venuea_probability" in record
          ? record.venuea_probability
          : record.market_probability_up,
    bestBid: record.best_bid_price,
    bestBidSize: optional<number>("best_bid_size"),
    bestAsk: record.best_ask_price,
    bestAskSize: optional<number>("best_ask_size"),
    lastTradePrice: optional<number>("venuea_last_trade_price"),
  };
}
