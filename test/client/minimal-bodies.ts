/**
 * For the client tests: one small, valid response body per operation (in the spec's neutral
 * naming, written from the record tables of `spec/interface.md`), and the smallest valid parameter
 * object of an operation, derived from its parameter descriptions.
 */
import type { OperationPath } from "../../src/domain/operations.ts";
import type { Operation } from "../../src/domain/operation.ts";

const time = "2026-02-25T23:45:00Z";
const later = "2026-02-26T23:45:00Z";

const percentiles = {
  "0.005": 90,
  "0.05": 94,
  "0.2": 97,
  "0.35": 99,
  "0.5": 100,
  "0.65": 101,
  "0.8": 103,
  "0.95": 106,
  "0.995": 110,
};

const liquidation = {
  forecast_start_time: time,
  current_price: 100,
  data: [
    {
      price_change: "-5%",
      long_liquidation_probability: { "6": 0.01, "12": 0.02, "18": 0.03, "24": 0.04 },
      short_liquidation_probability: { "6": 0, "12": 0, "18": 0.01, "24": 0.01 },
    },
  ],
};

const lpProbabilities = {
  forecast_start_time: time,
  current_price: 100,
  data: { "24h": { probability_above: { "105": 0.3 }, probability_below: { "95": 0.25 } } },
};

const upDown = {
  forecast_start_time: time,
  current_price: 101,
  current_time: time,
  start_price: 100,
  slug: "btc-up-or-down",
  event_creation_time: time,
  event_start_time: time,
  event_end_time: later,
  model_probability_up: 0.55,
  model_outcome: "UP",
  venuea_probability_up: 0.5,
  venuea_outcome: "DOWN",
  market_probability_up: 0.5,
  market_outcome: "DOWN",
  current_outcome: "UP",
  best_bid_price: 0.49,
  best_bid_size: 120,
  best_ask_price: 0.51,
  best_ask_size: 80,
  venuea_last_trade_price: 0.5,
  venuea_last_trade_time: time,
  venuea_last_trade_outcome: "UP",
};

function rangeFamily(cmpType: "range" | "above" | "hit", refPrices: number[]) {
  return [
    {
      forecast_start_time: time,
      current_time: time,
      current_price: 100,
      slug: `btc-${cmpType}`,
      title: `Will BTC be ${cmpType} ${refPrices.join("-")}?`,
      cmp_type: cmpType,
      ref_prices: refPrices,
      event_creation_time: time,
      event_start_time: time,
      event_end_time: later,
      model_probability: 0.4,
      model_outcome: 0,
      venuea_probability: 0.45,
      venuea_outcome: 0,
      current_outcome: 1,
      best_bid_price: null,
      best_bid_size: null,
      best_ask_price: 0.46,
      best_ask_size: 10,
      venuea_last_trade_price: 0.45,
      venuea_last_trade_time: time,
      venuea_last_trade_outcome: 1,
    },
  ];
}

const venueB = [
  {
    forecast_start_time: time,
    current_time: time,
    current_price: 100,
    start_price: 99,
    slug: "btc-above-99",
    event_creation_time: time,
    event_end_time: later,
    event_outcome_prices: [0.6, 0.4],
    model_probability_up: 0.62,
    model_outcome: "UP",
    market_probability_up: null,
    market_outcome: "UP",
    best_bid_price: null,
    best_ask_price: 0.61,
  },
];

const predictionSets = [
  {
    miner_uid: 7,
    start_time: 1772063100,
    predictions: [
      [100, 101, 102],
      [100, 99, 98],
    ],
  },
];

const v1Rows = [
  {
    updated_at: time,
    neuron_uid: 7,
    coldkey: "5Fcold",
    ip_address: "10.0.0.7",
    incentive: 0.01,
    emission: 1.5,
    stake: 1000,
    rank: 0.02,
    pruning_score: 0.03,
  },
];

const v2Rows = [
  { updated_at: time, neuron_uid: 7, coldkey: "5Fcold", ip_address: "10.0.0.7", rewards: 0.12 },
];

/** One valid body per operation, keyed by the spec's path (a missing operation fails to type-check). */
export const minimalBodies: Readonly<Record<OperationPath, unknown>> = {
  "/insights/liquidation": liquidation,
  "/insights/lp-bounds": {
    forecast_start_time: time,
    current_price: 100,
    data: [
      {
        interval: { full_width: "10%", lower_bound: 95, upper_bound: 105 },
        expected_time_in_interval: 0.8,
        expected_impermanent_loss: 0.002,
        probability_to_stay_in_interval: { "24": 0.6 },
      },
    ],
  },
  "/insights/lp-probabilities": lpProbabilities,
  "/insights/option-pricing": {
    forecast_start_time: time,
    current_price: 100,
    expiry_time: later,
    call_options: { "100": 4.2, "110": 1.1 },
    put_options: { "90": 0.9, "100": 4.1 },
  },
  "/insights/volatility": {
    forecast_start_time: time,
    current_price: 100,
    realized: {
      prices: [
        { price: 99, returns: 0.001 },
        { price: 100, returns: null },
      ],
      volatility: [0.4, null],
      average_volatility: 0.4,
    },
    forecast_past: { volatility: [0.38], average_volatility: 0.38 },
    forecast_future: { volatility: [0.41, 0.42], average_volatility: 0.415 },
  },
  "/insights/volatility-percentiles": {
    forecast_start_time: time,
    current_price: 100,
    realized: { prices: [{ price: 100, returns: null }] },
    forecast_past: { percentiles: [percentiles] },
    forecast_future: { percentiles: [percentiles, percentiles] },
  },
  "/insights/prediction-percentiles": {
    current_price: 100,
    forecast_future: { percentiles: [percentiles] },
  },
  "/insights/lp-bounds-chart": lpProbabilities,
  "/insights/venuea/up-down/daily": upDown,
  "/insights/venuea/up-down/hourly": upDown,
  "/insights/venuea/up-down/15min": upDown,
  "/insights/venuea/up-down/5min": upDown,
  "/insights/venuea/range": [
    {
      title: "BTC between 99 and 101?",
      ref_prices: [99, 101],
      current_price: 100,
      model_probability: 0.3,
      venuea_probability: 0.35,
      event_end_time: later,
    },
  ],
  "/insights/venuea/range/daily": rangeFamily("range", [99, 101]),
  "/insights/venuea/above/daily": rangeFamily("above", [101]),
  "/insights/venuea/hit/daily": rangeFamily("hit", [110]),
  "/insights/venueb/daily": venueB,
  "/insights/venueb/hourly": venueB,
  "/insights/venueb/15min": venueB,
  "/v2/prediction/best": predictionSets,
  "/v2/prediction/latest": predictionSets,
  "/v2/prediction/historical": predictionSets,
  "/v2/prediction/metamodel": predictionSets,
  "/v2/prediction/metamodel/historical": predictionSets,
  "/leaderboard/latest": v1Rows,
  "/leaderboard/historical": v1Rows,
  "/v2/leaderboard/latest": v2Rows,
  "/v2/leaderboard/historical": v2Rows,
  "/v2/meta-leaderboard/latest": v2Rows,
  "/v2/meta-leaderboard/historical": v2Rows,
  "/validation/miner": { validated: true, reason: "ok", response_time: "1.2s" },
  "/validation/scores/latest": [
    {
      asset: "BTC",
      crps: 123.4,
      miner_uid: 7,
      prompt_score: 0.5,
      scored_time: time,
      time_length: 86400,
    },
  ],
  "/validation/scores/historical": [
    {
      asset: "ETH",
      crps: 12.5,
      miner_uid: 8,
      prompt_score: 0.25,
      scored_time: time,
      time_length: 3600,
    },
  ],
  "/validation/uid-holders": [{ created_at: time, hotkey: "5Fhot", miner_uid: 7 }],
  "/validation/smoothed-scores": [
    {
      miner_uid: 7,
      prompt_name: "crypto-24h",
      reward_weight: 0.01,
      smoothed_score: 0.2,
      updated_at: time,
    },
  ],
  "/validation/prompts": { start_times: [time, later] },
  "/validation/realized-path": {
    asset: "BTC",
    real_prices: [100, null, 101],
    start_time: time,
    time_increment: 300,
    time_length: 86400,
  },
  "/validation/multi-asset-minutes": [{ assets: ["BTC", "ETH"], scored_time: time }],
};

/**
 * The smallest valid parameters of an operation: each required parameter with its first allowed
 * value, its minimum (or 1) for integers, one fixed time for times (so every range rule holds),
 * wrapped in an array when repeated.
 */
export function minimalParams(
  operation: Operation<string, unknown, unknown>,
): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const spec of operation.params) {
    if (!spec.required) continue;
    const value =
      spec.allowed !== undefined
        ? spec.allowed[0]
        : spec.type === "time"
          ? time
          : spec.type === "integer"
            ? (spec.min ?? 1)
            : "x";
    params[spec.name] = spec.repeated ? [value] : value;
  }
  return params;
}
