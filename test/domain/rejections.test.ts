import { describe, expect, it } from "vitest";
import { decode } from "../../src/domain/codec.ts";
import { DecodeError } from "../../src/domain/errors.ts";
import { liveNaming } from "../../src/domain/naming.ts";
import type { OperationPath } from "../../src/domain/operations.ts";
import { minimalBodies } from "../client/minimal-bodies.ts";
import { capturedExists, readCaptured } from "./captured.ts";

const needs = capturedExists ? "" : " [SKIPPED: captured fixtures missing]";
const live = { naming: liveNaming };

/** The DecodeError thrown by decoding `json`, or a failure if none is thrown. */
function decodeError(operation: OperationPath, json: unknown): DecodeError {
  try {
    decode(operation, json, live);
  } catch (error) {
    if (error instanceof DecodeError) return error;
    throw error;
  }
  throw new Error(`${operation}: the mutated response decoded without error`);
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.skipIf(!capturedExists)(`mutated captured responses are rejected${needs}`, () => {
  it('a probability sent as the string "0.4" names the operation, path, expectation and value', () => {
    const json = readCaptured("liquidation/BTC.json") as Json;
    json.data[3].long_liquidation_probability["12"] = "0.4";
    const error = decodeError("/insights/liquidation", json);
    expect(error.message).toBe(
      '/insights/liquidation: data[3].long_liquidation_probability["12"]: expected number in [0,1], got "0.4"',
    );
    expect(error).toMatchObject({
      name: "DecodeError",
      operation: "/insights/liquidation",
      jsonPath: 'data[3].long_liquidation_probability["12"]',
      expected: "number in [0,1]",
      got: '"0.4"',
    });
  });

  it("a probability above 1 is rejected with its price key in brackets", () => {
    const json = readCaptured("lp_probabilities/BTC.json") as Json;
    json.data["24h"].probability_above["62909.06618575"] = 1.0001;
    expect(decodeError("/insights/lp-probabilities", json).message).toBe(
      '/insights/lp-probabilities: data["24h"].probability_above["62909.06618575"]: expected number in [0,1], got 1.0001',
    );
  });

  it("a negative probability is rejected", () => {
    const json = readCaptured("lp_bounds/BTC.json") as Json;
    json.data[2].probability_to_stay_in_interval["24"] = -0.01;
    expect(decodeError("/insights/lp-bounds", json).jsonPath).toBe(
      'data[2].probability_to_stay_in_interval["24"]',
    );
  });

  it("a missing required field is reported as missing", () => {
    const json = readCaptured("lp_bounds/ETH.json") as Json;
    delete json.data[5].interval.upper_bound;
    expect(decodeError("/insights/lp-bounds", json).message).toBe(
      "/insights/lp-bounds: data[5].interval.upper_bound: expected finite price > 0, got missing",
    );
    const top = readCaptured("option_pricing/BTC.json") as Json;
    delete top.expiry_time;
    expect(decodeError("/insights/option-pricing", top).jsonPath).toBe("expiry_time");
  });

  it("a missing percentile key is reported at its step", () => {
    const json = readCaptured("prediction_percentiles/BTC_24h.json") as Json;
    delete json.forecast_future.percentiles[4]["0.35"];
    expect(decodeError("/insights/prediction-percentiles", json).message).toBe(
      '/insights/prediction-percentiles: forecast_future.percentiles[4]["0.35"]: expected finite price > 0, got missing',
    );
  });

  it("NaN is rejected wherever a number is expected (injected into the parsed object)", () => {
    const bounds = readCaptured("lp_bounds/BTC.json") as Json;
    bounds.data[0].expected_impermanent_loss = NaN;
    expect(decodeError("/insights/lp-bounds", bounds).message).toBe(
      "/insights/lp-bounds: data[0].expected_impermanent_loss: expected finite number, got NaN",
    );
    const liquidation = readCaptured("liquidation/SOL.json") as Json;
    liquidation.data[9].short_liquidation_probability["24"] = NaN;
    expect(decodeError("/insights/liquidation", liquidation).got).toBe("NaN");
    const volatility = readCaptured("volatility/BTC_24h.json") as Json;
    volatility.forecast_future.volatility[7] = NaN;
    expect(decodeError("/insights/volatility", volatility).message).toBe(
      "/insights/volatility: forecast_future.volatility[7]: expected finite number ≥ 0 or null, got NaN",
    );
    const prices = readCaptured("volatility/ETH_1h.json") as Json;
    prices.realized.prices[3].price = NaN;
    expect(decodeError("/insights/volatility", prices).message).toBe(
      "/insights/volatility: realized.prices[3].price: expected finite price > 0 or null, got NaN",
    );
    const leaderboard = readCaptured("leaderboard/latest_BTC.json") as Json;
    leaderboard[2].rewards = NaN;
    expect(decodeError("/v2/leaderboard/latest", leaderboard).jsonPath).toBe("[2].rewards");
  });

  it("non-finite numbers are rejected", () => {
    const json = readCaptured("option_pricing/ETH.json") as Json;
    const strike = Object.keys(json.call_options)[0];
    json.call_options[strike] = Infinity;
    expect(decodeError("/insights/option-pricing", json).message).toBe(
      `/insights/option-pricing: call_options["${strike}"]: expected finite number ≥ 0, got Infinity`,
    );
  });

  it("what the spec rules out is rejected: a price ≤ 0, a negative option price or volatility", () => {
    const options = readCaptured("option_pricing/ETH.json") as Json;
    const strike = Object.keys(options.put_options)[1];
    options.put_options[strike] = -0.01;
    expect(decodeError("/insights/option-pricing", options).message).toBe(
      `/insights/option-pricing: put_options["${strike}"]: expected finite number ≥ 0, got -0.01`,
    );
    const priced = readCaptured("option_pricing/ETH.json") as Json;
    priced.current_price = 0;
    expect(decodeError("/insights/option-pricing", priced).message).toBe(
      "/insights/option-pricing: current_price: expected finite price > 0, got 0",
    );
    const volatility = readCaptured("volatility/BTC_24h.json") as Json;
    volatility.forecast_past.average_volatility = -3;
    expect(decodeError("/insights/volatility", volatility).message).toBe(
      "/insights/volatility: forecast_past.average_volatility: expected finite number ≥ 0, got -3",
    );
  });

  it("a wrong outcome string is rejected under its wire name", () => {
    const json = readCaptured("polymarket/up_down_hourly_ETH.json") as Json;
    json.synth_outcome = "Sideways";
    expect(decodeError("/insights/venuea/up-down/hourly", json).message).toBe(
      '/insights/venuea/up-down/hourly: synth_outcome: expected UP or DOWN (any case, e.g. "Up"), got "Sideways"',
    );
  });

  it("outcomes in any case are accepted and normalized", () => {
    const json = readCaptured("polymarket/up_down_5min_BTC.json") as Json;
    json.polymarket_outcome = "UP";
    json.current_outcome = "down";
    const record = decode("/insights/venuea/up-down/5min", json, live);
    expect([record.venuea_outcome, record.current_outcome]).toEqual(["UP", "DOWN"]);
  });

  it("range-family records reject unknown cmp_type, wrong ref_prices counts and outcomes other than 0/1", () => {
    const kind = readCaptured("polymarket/range.json") as Json[];
    kind[2].cmp_type = "inside";
    expect(decodeError("/insights/venuea/range/daily", kind).jsonPath).toBe("[2].cmp_type");
    const count = readCaptured("polymarket/range.json") as Json[];
    count[4].ref_prices = [64000];
    expect(decodeError("/insights/venuea/range/daily", count).message).toBe(
      '/insights/venuea/range/daily: [4].ref_prices: expected 2 value(s) for cmp_type "range", got array(1)',
    );
    const outcome = readCaptured("polymarket/range.json") as Json[];
    outcome[0].synth_outcome = true;
    expect(decodeError("/insights/venuea/range/daily", outcome).message).toBe(
      "/insights/venuea/range/daily: [0].synth_outcome: expected 0 or 1, got true",
    );
  });

  it("above/daily accepts only above markets", () => {
    const json = readCaptured("polymarket/range.json") as Json[];
    expect(decodeError("/insights/venuea/above/daily", json).message).toBe(
      '/insights/venuea/above/daily: [0].cmp_type: expected "above" on this operation, got "below"',
    );
    expect(decode("/insights/venuea/above/daily", [json[10]], live)[0].cmp_type).toBe("above");
  });

  it("an unparsable time and a malformed percentage are rejected", () => {
    const json = readCaptured("polymarket/up_down_daily_ETH.json") as Json;
    json.current_time = "2026-02-30T10:00:00Z";
    expect(decodeError("/insights/venuea/up-down/daily", json).jsonPath).toBe("current_time");
    const liquidation = readCaptured("liquidation/ETH.json") as Json;
    liquidation.data[1].price_change = "2.0";
    expect(decodeError("/insights/liquidation", liquidation).message).toBe(
      '/insights/liquidation: data[1].price_change: expected percentage such as 1.0% or -2.5%, got "2.0"',
    );
  });

  it("a map key of the wrong shape is rejected at that key", () => {
    const json = readCaptured("liquidation/XAU.json") as Json;
    json.data[0].long_liquidation_probability["6h"] = 0.1;
    expect(decodeError("/insights/liquidation", json).message).toBe(
      '/insights/liquidation: data[0].long_liquidation_probability["6h"]: expected key whole number of hours, got "6h"',
    );
  });

  it("a non-integer uid and a body of the wrong shape are rejected", () => {
    const json = readCaptured("leaderboard/latest_SOL.json") as Json[];
    json[3].neuron_uid = 47.5;
    expect(decodeError("/v2/leaderboard/latest", json).message).toBe(
      "/v2/leaderboard/latest: [3].neuron_uid: expected integer, got 47.5",
    );
    expect(decodeError("/insights/liquidation", []).message).toBe(
      "/insights/liquidation: $: expected object, got array(0)",
    );
  });
});

describe("what the spec rules out in arrays is rejected, with its JSON path", () => {
  /** The message of decoding `operation`'s minimal body after `mutate` (neutral naming). */
  function rejection(operation: OperationPath, mutate: (json: Json) => void): string {
    const json = structuredClone(minimalBodies[operation]) as Json;
    mutate(json);
    try {
      decode(operation, json);
    } catch (error) {
      if (error instanceof DecodeError) return error.message;
      throw error;
    }
    throw new Error(`${operation}: the mutated body decoded without error`);
  }

  it.each([
    [
      "/insights/volatility",
      (json: Json): unknown => (json.forecast_future.volatility[1] = -0.42),
      "/insights/volatility: forecast_future.volatility[1]: expected finite number ≥ 0 or null, got -0.42",
    ],
    [
      "/insights/volatility",
      (json: Json): unknown => (json.forecast_past.volatility[0] = -1),
      "/insights/volatility: forecast_past.volatility[0]: expected finite number ≥ 0, got -1",
    ],
    [
      "/insights/volatility",
      (json: Json): unknown => (json.realized.volatility[0] = -0.4),
      "/insights/volatility: realized.volatility[0]: expected finite number ≥ 0 or null, got -0.4",
    ],
    [
      "/insights/volatility-percentiles",
      (json: Json): unknown =>
        (json.forecast_future.percentiles[1] = {
          ...json.forecast_future.percentiles[1],
          "0.05": -0.1,
        }),
      '/insights/volatility-percentiles: forecast_future.percentiles[1]["0.05"]: expected finite number ≥ 0, got -0.1',
    ],
    [
      "/insights/prediction-percentiles",
      (json: Json): unknown => (json.forecast_future.percentiles[0]["0.005"] = 0),
      '/insights/prediction-percentiles: forecast_future.percentiles[0]["0.005"]: expected finite price > 0, got 0',
    ],
    [
      "/validation/realized-path",
      (json: Json): unknown => (json.real_prices[2] = -101),
      "/validation/realized-path: real_prices[2]: expected finite price > 0 or null, got -101",
    ],
    [
      "/insights/venueb/daily",
      (json: Json): unknown => (json[0].event_outcome_prices[1] = -0.4),
      "/insights/venueb/daily: [0].event_outcome_prices[1]: expected finite number ≥ 0, got -0.4",
    ],
    [
      "/insights/venuea/range/daily",
      (json: Json): unknown => (json[0].ref_prices[0] = 0),
      "/insights/venuea/range/daily: [0].ref_prices[0]: expected finite price > 0, got 0",
    ],
  ] as const)("%s: %s", (operation, mutate, message) => {
    expect(rejection(operation, mutate)).toBe(message);
  });

  it("the minimal bodies themselves decode (the mutation is what is rejected)", () => {
    for (const operation of [
      "/insights/volatility",
      "/insights/volatility-percentiles",
      "/validation/realized-path",
      "/insights/venueb/daily",
      "/insights/venuea/range/daily",
    ] as const) {
      expect(() => decode(operation, minimalBodies[operation])).not.toThrow();
    }
  });
});
