/**
 * Venue comparisons in the store: each venue market next to the service's model probability and
 * pathlab's recomputed one, with the venue's probability, order book and event window.
 */

import { DOUBLE, LIST, listValue, type DuckDBConnection } from "@duckdb/node-api";
import type { RangeComparisonRecord, UpDownComparisonRecord } from "../spec/records/venue-a.ts";
import type { VenueBComparisonRecord } from "../spec/records/venue-b.ts";
import type { InsightPlace } from "./insights.ts";
import { timestampOfIso, timestampOfUnix } from "./timestamps.ts";

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
}

/** Removes the comparisons of one operation at one asset and forecast start. */
export const DELETE_VENUE_COMPARISONS = `
DELETE FROM venue_comparisons
WHERE operation = $operation AND asset = $asset AND forecast_start_time = $forecast_start_time`;

const INSERT_VENUE_COMPARISON = `
INSERT INTO venue_comparisons (operation, asset, horizon, forecast_start_time, slug, market, kind,
  ref_prices, event_start_time, event_end_time, observed_at, current_price, start_price,
  service_probability, recomputed_probability, recomputed_standard_error, venue_probability,
  best_bid_price, best_bid_size, best_ask_price, best_ask_size, last_trade_price, record, run_id)
VALUES ($operation, $asset, $horizon, $forecast_start_time, $slug, $market, $kind,
  CAST($ref_prices AS DOUBLE[]), $event_start_time, $event_end_time, $observed_at, $current_price,
  $start_price, $service_probability, $recomputed_probability, $recomputed_standard_error,
  $venue_probability, $best_bid_price, $best_bid_size, $best_ask_price, $best_ask_size,
  $last_trade_price, $record, $run_id)`;

/**
 * Writes `entries` on `connection`, inside the unit's transaction: for each operation among them,
 * the comparisons stored before for this asset and forecast start are replaced. Columns come from
 * the record: `kind` is the range family's `cmp_type` or `up-down`; `market` the range bucket's
 * title or else the slug; `service_probability` the model's probability (`model_probability_up` or
 * `model_probability`); `venue_probability` venue A's or venue B's market probability. Returns the
 * number of rows written.
 * @example await insertVenueComparisons(connection, place, entries) // => entries.length
 */
export async function insertVenueComparisons(
  connection: DuckDBConnection,
  place: InsightPlace,
  entries: readonly VenueComparisonEntry[],
): Promise<number> {
  if (entries.length === 0) return 0;
  const forecastStart = timestampOfUnix(place.forecastStartTimeUnix);
  for (const operation of new Set(entries.map((entry) => entry.operation))) {
    await connection.run(DELETE_VENUE_COMPARISONS, {
      operation,
      asset: place.asset,
      forecast_start_time: forecastStart,
    });
  }
  const statement = await connection.prepare(INSERT_VENUE_COMPARISON);
  try {
    for (const entry of entries) {
      const record = entry.record;
      const what = (field: string) => `${entry.operation} ${record.slug}: ${field}`;
      const optional = <T>(field: string): T | null =>
        field in record ? ((record as unknown as Record<string, T>)[field] ?? null) : null;
      statement.bind(
        {
          operation: entry.operation,
          asset: place.asset,
          horizon: place.horizon,
          forecast_start_time: forecastStart,
          slug: record.slug,
          market: "title" in record ? record.title : record.slug,
          kind: "cmp_type" in record ? record.cmp_type : "up-down",
          ref_prices: "ref_prices" in record ? listValue(record.ref_prices) : null,
          event_start_time:
            "event_start_time" in record
              ? timestampOfIso(record.event_start_time, what("event_start_time"))
              : null,
          event_end_time: timestampOfIso(record.event_end_time, what("event_end_time")),
          observed_at: timestampOfIso(record.current_time, what("current_time")),
          current_price: record.current_price,
          start_price: optional<number>("start_price"),
          service_probability:
            "model_probability_up" in record
              ? record.model_probability_up
              : record.model_probability,
          recomputed_probability: entry.recomputedProbability,
          recomputed_standard_error: entry.recomputedStandardError ?? null,
          venue_probability:
            "venuea_probability_up" in record
              ? record.venuea_probability_up
              : "venuea_probability" in record
                ? record.venuea_probability
                : record.market_probability_up,
          best_bid_price: record.best_bid_price,
          best_bid_size: optional<number>("best_bid_size"),
          best_ask_price: record.best_ask_price,
          best_ask_size: optional<number>("best_ask_size"),
          last_trade_price: optional<number>("venuea_last_trade_price"),
          record: JSON.stringify(record),
          run_id: place.runId,
        },
        // DuckDB would infer the list's type from its first element: [110, 112.5] as integers.
        { ref_prices: LIST(DOUBLE) },
      );
      await statement.run();
    }
  } finally {
    statement.destroySync();
  }
  return entries.length;
}
