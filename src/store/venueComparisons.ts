/**
 * Venue comparisons in the store: each venue market next to the service's model probability and
 * pathlab's recomputed one, with the venue's probability, order book and event window.
 */

import { DOUBLE, LIST, listValue, type DuckDBConnection } from "@duckdb/node-api";
import type { InsightPlace } from "./insights.ts";
import type { Store } from "./openStore.ts";
import { timestampOfIso, timestampOfUnix } from "./timestamps.ts";
import { venueMarketOf, type VenueComparisonEntry } from "./venueMarket.ts";

export type { VenueComparisonEntry } from "./venueMarket.ts";

/** Removes the comparisons of the listed operations at one asset and forecast start. */
export const DELETE_VENUE_COMPARISONS = `
DELETE FROM venue_comparisons
WHERE operation IN (SELECT unnest($operations)) AND asset = $asset
  AND forecast_start_time = $forecast_start_time`;

const INSERT_VENUE_COMPARISON = `
INSERT INTO venue_comparisons (operation, asset, horizon, forecast_start_time, slug, market, kind,
  ref_prices, event_start_time, event_end_time, observed_at, current_price, start_price,
  service_probability, recomputed_probability, recomputed_standard_error, venue_probability,
  best_bid_price, best_bid_size, best_ask_price, best_ask_size, last_trade_price, record, run_id,
  decided, edge_side, net_edge, between_miner_standard_error, tradable)
VALUES ($operation, $asset, $horizon, $forecast_start_time, $slug, $market, $kind,
  CAST($ref_prices AS DOUBLE[]), $event_start_time, $event_end_time, $observed_at, $current_price,
  $start_price, $service_probability, $recomputed_probability, $recomputed_standard_error,
  $venue_probability, $best_bid_price, $best_bid_size, $best_ask_price, $best_ask_size,
  $last_trade_price, $record, $run_id, $decided, $edge_side, $net_edge,
  $between_miner_standard_error, $tradable)`;

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
  await connection.run(DELETE_VENUE_COMPARISONS, {
    operations: listValue([...new Set(entries.map((entry) => entry.operation))]),
    asset: place.asset,
    forecast_start_time: forecastStart,
  });
  const statement = await connection.prepare(INSERT_VENUE_COMPARISON);
  try {
    for (const entry of entries) {
      const record = entry.record;
      const what = (field: string) => `${entry.operation} ${record.slug}: ${field}`;
      const market = venueMarketOf(record);
      statement.bind(
        {
          operation: entry.operation,
          asset: place.asset,
          horizon: place.horizon,
          forecast_start_time: forecastStart,
          slug: record.slug,
          market: market.market,
          kind: market.kind,
          ref_prices: market.refPrices === null ? null : listValue(market.refPrices),
          event_start_time:
            market.eventStartTime === null
              ? null
              : timestampOfIso(market.eventStartTime, what("event_start_time")),
          event_end_time: timestampOfIso(market.eventEndTime, what("event_end_time")),
          observed_at: timestampOfIso(market.observedAt, what("current_time")),
          current_price: market.currentPrice,
          start_price: market.startPrice,
          service_probability: market.serviceProbability,
          recomputed_probability: entry.recomputedProbability,
          recomputed_standard_error: entry.recomputedStandardError ?? null,
          venue_probability: market.venueProbability,
          best_bid_price: market.bestBid,
          best_bid_size: market.bestBidSize,
          best_ask_price: market.bestAsk,
          best_ask_size: market.bestAskSize,
          last_trade_price: market.lastTradePrice,
          record: JSON.stringify(record),
          run_id: place.runId,
          decided: entry.decided ?? null,
          edge_side: entry.edge?.side ?? null,
          net_edge: entry.edge?.netEdge ?? null,
          between_miner_standard_error: entry.betweenMinerStandardError ?? null,
          tradable: entry.tradable ?? null,
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

/**
 * A live market's edge that survives the spread, as the sync summary lists it.
 * @example const edge: TradableEdge = { asset: "ETH", operation: "/insights/venuea/above/daily", market: ">2150", side: "sell", price: 0.51, model: 0.2978, netEdge: 0.1897, standardError: 0.0412, tradable: true };
 */
export interface TradableEdge {
  readonly asset: string;
  readonly operation: string;
  readonly market: string;
  readonly side: "buy" | "sell";
  /** The venue's price the trade takes: the best ask to buy YES, the best bid to sell it. */
  readonly price: number;
  /** pathlab's probability (the service's where pathlab has none). */
  readonly model: number;
  readonly netEdge: number;
  /**
   * The standard error of pathlab's probability, Monte-Carlo and between the miners combined
   * (√(MC² + between²)); null where either is unknown.
   */
  readonly standardError: number | null;
  /** Whether the edge exceeds 2 standard errors (`robustEdge`). */
  readonly tradable: boolean;
}

/**
 * The venue markets of a run counted, and its largest edges (`runVenueEdges`).
 * @example const venue: VenueEdges = { markets: 9, decided: 0, beyondSpread: 6, tradable: 4, edges: [] };
 */
export interface VenueEdges {
  readonly markets: number;
  /** Markets the current price already settles. */
  readonly decided: number;
  /** Live markets with an edge beyond the spread, fee and rounding. */
  readonly beyondSpread: number;
  /** Of those, the ones whose edge also exceeds 2 standard errors of pathlab's probability. */
  readonly tradable: number;
  readonly edges: readonly TradableEdge[];
}

const SELECT_RUN_VENUE_COUNTS = `
SELECT count(*), count(*) FILTER (decided),
  count(*) FILTER (decided IS NOT TRUE AND edge_side IS NOT NULL),
  count(*) FILTER (tradable)
FROM venue_comparisons WHERE run_id = $run`;

const SELECT_RUN_VENUE_EDGES = `
SELECT asset, operation, market, edge_side,
  CASE edge_side WHEN 'buy' THEN best_ask_price ELSE best_bid_price END,
  coalesce(recomputed_probability, service_probability), net_edge,
  sqrt(recomputed_standard_error ^ 2 + between_miner_standard_error ^ 2), coalesce(tradable, false)
FROM venue_comparisons
WHERE run_id = $run AND decided IS NOT TRUE AND edge_side IS NOT NULL
ORDER BY coalesce(tradable, false) DESC, net_edge DESC, asset, operation, market LIMIT $limit`;

/**
 * The run's venue comparisons counted ({@link VenueEdges}) and its largest `limit` edges among
 * live markets: the tradable ones first, then by net edge, largest first. Edges are ranked only
 * where the market is not decided (a market that could not be judged counts as live) and the edge
 * survives the spread, fee and rounding.
 * @param store - the store to read.
 * @param runId - the run's id in `runs`.
 * @param limit - the most edges to return.
 * @example const { edges } = await runVenueEdges(store, run.id, 5);
 */
export async function runVenueEdges(
  store: Store,
  runId: number,
  limit: number,
): Promise<VenueEdges> {
  return store.withConnection(async (connection) => {
    const counts = (
      await connection.runAndReadAll(SELECT_RUN_VENUE_COUNTS, { run: runId })
    ).getRowsJS()[0];
    const edges = (await connection.runAndReadAll(SELECT_RUN_VENUE_EDGES, { run: runId, limit }))
      .getRowsJS()
      .map(([asset, operation, market, side, price, model, netEdge, error, tradable]) => ({
        asset: String(asset),
        operation: String(operation),
        market: String(market),
        side: side as "buy" | "sell",
        price: Number(price),
        model: Number(model),
        netEdge: Number(netEdge),
        standardError: error === null ? null : Number(error),
        tradable: tradable === true,
      }));
    const [markets, decided, beyondSpread, tradable] = counts.map(Number);
    return { markets, decided, beyondSpread, tradable, edges };
  });
}
