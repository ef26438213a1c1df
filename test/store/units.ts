/**
 * A complete unit of work for the store tests, built by hand from the spec's record types: path
 * sets, service and recomputed insights, cross-check rows, venue comparisons and a leaderboard.
 */

import type { LeaderboardV2Row } from "../../src/domain/records/leaderboard.ts";
import type { LiquidationRecord } from "../../src/domain/records/liquidation.ts";
import type {
  RangeComparisonRecord,
  UpDownComparisonRecord,
} from "../../src/domain/records/venue-a.ts";
import type { VenueBComparisonRecord } from "../../src/domain/records/venue-b.ts";
import type { StoreUnit } from "../../src/store/writeUnit.ts";
import { randomPathSet } from "./helpers.ts";

export const FORECAST_START = 1772063100; // 2026-02-25T23:45:00Z

export function liquidationRecord(shift: number): LiquidationRecord {
  return {
    forecast_start_time: "2026-02-25T23:45:00+00:00",
    current_price: 67676.62,
    data: [1, 2, 3].map((percent) => ({
      price_change: `${percent}.0%`,
      long_liquidation_probability: { "6": 0.4 / percent + shift, "12": 0.5 / percent + shift },
      short_liquidation_probability: { "6": 0.45 / percent + shift, "12": 0.55 / percent + shift },
    })),
  };
}

export const upDownRecord: UpDownComparisonRecord = {
  current_price: 67676.62,
  current_time: "2026-02-25T23:45:17.526062+00:00",
  start_price: 68249.16,
  slug: "bitcoin-up-or-down-on-february-26",
  event_creation_time: "2026-02-24T17:02:40.731726+00:00",
  event_start_time: "2026-02-25T17:00:00+00:00",
  event_end_time: "2026-02-26T17:00:00+00:00",
  model_probability_up: 0.4151,
  model_outcome: "DOWN",
  venuea_probability_up: 0.395,
  venuea_outcome: "DOWN",
  current_outcome: "DOWN",
  best_bid_price: 0.39,
  best_bid_size: 20,
  best_ask_price: 0.4,
  best_ask_size: 1420,
  venuea_last_trade_price: 0.4,
  venuea_last_trade_time: "2026-02-25T23:44:22+00:00",
  venuea_last_trade_outcome: "UP",
};

export function rangeRecord(low: number, high: number): RangeComparisonRecord {
  return {
    current_time: "2026-02-25T23:45:17+00:00",
    current_price: 67676.62,
    slug: "bitcoin-price-on-february-26",
    title: `[${low}, ${high}]`,
    cmp_type: "range",
    ref_prices: [low, high],
    event_creation_time: "2026-02-24T17:00:00+00:00",
    event_start_time: "2026-02-25T17:00:00+00:00",
    event_end_time: "2026-02-26T17:00:00+00:00",
    model_probability: 0.3773,
    model_outcome: 0,
    venuea_probability: 0.395,
    venuea_outcome: 0,
    current_outcome: 1,
    best_bid_price: null,
    best_bid_size: null,
    best_ask_price: 0.41,
    best_ask_size: 12,
    venuea_last_trade_price: 0.4,
    venuea_last_trade_time: "2026-02-25T23:40:00+00:00",
    venuea_last_trade_outcome: 1,
  };
}

export const venueBRecord: VenueBComparisonRecord = {
  current_time: "2026-02-25T23:45:17+00:00",
  current_price: 67676.62,
  start_price: 67500,
  slug: "btc-above-67500-feb-26-0000",
  event_creation_time: "2026-02-25T23:00:00+00:00",
  event_end_time: "2026-02-26T00:00:00+00:00",
  event_outcome_prices: [0.62, 0.38],
  model_probability_up: 0.6,
  model_outcome: "UP",
  market_probability_up: 0.62,
  market_outcome: "UP",
  best_bid_price: 0.61,
  best_ask_price: 0.63,
};

export function leaderboardRows(count: number): LeaderboardV2Row[] {
  return Array.from({ length: count }, (_, index) => ({
    updated_at: "2026-02-25T23:27:00Z",
    neuron_uid: 100 + index * 7,
    rewards: 0.0115 - index * 0.0001,
    coldkey: "",
    ip_address: "",
  }));
}

/** A 24h BTC unit with `miners` path sets of `paths` × 289, and one of everything else. */
export function completeUnit(miners = 3, paths = 50, runId: number | null = null): StoreUnit {
  return {
    asset: "BTC",
    horizon: "24h",
    forecastStartTimeUnix: FORECAST_START,
    runId,
    pathSets: Array.from({ length: miners }, (_, miner) => ({
      pathSet: randomPathSet(miner + 1, paths, 289, { startTime: FORECAST_START }),
      source: "/v2/prediction/historical",
      fetchedAtUnix: FORECAST_START + 17,
    })),
    insights: [
      { operation: "/insights/liquidation", source: "service", record: liquidationRecord(0) },
      { operation: "/insights/liquidation", source: "recomputed", record: liquidationRecord(0.01) },
    ],
    crosschecks: [
      {
        operation: "/insights/liquidation",
        field: "data.long_liquidation_probability",
        key: "1.0%/6",
        serviceValue: 0.4,
        recomputedValue: 0.41,
        tolerance: 0.02,
        verdict: "match",
      },
      {
        operation: "/insights/liquidation",
        field: "data.long_liquidation_probability",
        key: "1.0%/12",
        serviceValue: 0.5,
        recomputedValue: null,
        tolerance: null,
        verdict: "missing",
        detail: "not recomputed",
      },
    ],
    venueComparisons: [
      {
        operation: "/insights/venuea/up-down/daily",
        record: upDownRecord,
        recomputedProbability: 0.4093,
        recomputedStandardError: 0.0049,
      },
      {
        operation: "/insights/venuea/range/daily",
        record: rangeRecord(66000, 68000),
        recomputedProbability: 0.38,
      },
      {
        operation: "/insights/venuea/range/daily",
        record: rangeRecord(68000, 70000),
        recomputedProbability: 0.31,
      },
      { operation: "/insights/venueb/daily", record: venueBRecord, recomputedProbability: null },
    ],
    leaderboards: [
      {
        operation: "/v2/meta-leaderboard/latest",
        promptName: "crypto-24h",
        days: 14,
        asOfUnix: FORECAST_START,
        rows: leaderboardRows(5),
      },
    ],
  };
}
