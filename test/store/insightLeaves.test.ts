import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decode } from "../../src/domain/codec.ts";
import { liveNaming } from "../../src/domain/naming.ts";
import { insightLeaves } from "../../src/store/insightLeaves.ts";
import { capturedExists, capturedFolder } from "../domain/captured.ts";

const needs = capturedExists ? "" : " [SKIPPED: captured fixtures missing]";

describe("insightLeaves", () => {
  it("insightLeaves keys liquidation scenarios by price_change and windows by their map key", () => {
    const record = {
      forecast_start_time: "2026-02-25T23:45:00+00:00",
      current_price: 67676.6,
      data: [
        {
          price_change: "1.0%",
          long_liquidation_probability: { "6": 0.41, "12": 0.52 },
          short_liquidation_probability: { "6": 0.48, "12": 0.6 },
        },
        {
          price_change: "2.0%",
          long_liquidation_probability: { "6": 0.14, "12": 0.24 },
          short_liquidation_probability: { "6": 0.18, "12": 0.32 },
        },
      ],
    };
    expect(insightLeaves(record)).toEqual([
      { field: "current_price", key: "", value: 67676.6 },
      { field: "data.long_liquidation_probability", key: "1.0%/6", value: 0.41 },
      { field: "data.long_liquidation_probability", key: "1.0%/12", value: 0.52 },
      { field: "data.short_liquidation_probability", key: "1.0%/6", value: 0.48 },
      { field: "data.short_liquidation_probability", key: "1.0%/12", value: 0.6 },
      { field: "data.long_liquidation_probability", key: "2.0%/6", value: 0.14 },
      { field: "data.long_liquidation_probability", key: "2.0%/12", value: 0.24 },
      { field: "data.short_liquidation_probability", key: "2.0%/6", value: 0.18 },
      { field: "data.short_liquidation_probability", key: "2.0%/12", value: 0.32 },
    ]);
  });

  it("insightLeaves keys LP intervals by their nested full_width", () => {
    const record = {
      current_price: 2000,
      data: [
        {
          interval: { full_width: "10.0%", lower_bound: 1900, upper_bound: 2100 },
          expected_time_in_interval: 900.5,
          expected_impermanent_loss: 0.0031,
          probability_to_stay_in_interval: { "24": 0.25 },
        },
      ],
    };
    expect(insightLeaves(record)).toEqual([
      { field: "current_price", key: "", value: 2000 },
      { field: "data.interval.lower_bound", key: "10.0%", value: 1900 },
      { field: "data.interval.upper_bound", key: "10.0%", value: 2100 },
      { field: "data.expected_time_in_interval", key: "10.0%", value: 900.5 },
      { field: "data.expected_impermanent_loss", key: "10.0%", value: 0.0031 },
      { field: "data.probability_to_stay_in_interval", key: "10.0%/24", value: 0.25 },
    ]);
  });

  it("insightLeaves keys unlabeled arrays by index and keeps nulls as null values", () => {
    const record = {
      forecast_future: {
        percentiles: [
          { "0.05": 99.5, "0.5": 100 },
          { "0.05": 98, "0.5": 100.5 },
        ],
      },
      realized: { volatility: [null, 41.2], prices: [{ price: null, returns: null }] },
      flag: true,
      note: "text",
    };
    expect(insightLeaves(record)).toEqual([
      { field: "forecast_future.percentiles", key: "0/0.05", value: 99.5 },
      { field: "forecast_future.percentiles", key: "0/0.5", value: 100 },
      { field: "forecast_future.percentiles", key: "1/0.05", value: 98 },
      { field: "forecast_future.percentiles", key: "1/0.5", value: 100.5 },
      { field: "realized.volatility", key: "0", value: null },
      { field: "realized.volatility", key: "1", value: 41.2 },
      { field: "realized.prices.price", key: "0", value: null },
      { field: "realized.prices.returns", key: "0", value: null },
    ]);
  });

  it("insightLeaves falls back to indices when labels repeat, so no two leaves share a place", () => {
    const record = {
      data: [
        { price_change: "1.0%", p: 1 },
        { price_change: "1.0%", p: 2 },
      ],
    };
    expect(insightLeaves(record)).toEqual([
      { field: "data.p", key: "0", value: 1 },
      { field: "data.p", key: "1", value: 2 },
    ]);
  });

  it.skipIf(!capturedExists)(
    `insightLeaves gives every number of a captured liquidation record one distinct place${needs}`,
    () => {
      const json: unknown = JSON.parse(
        readFileSync(join(capturedFolder, "liquidation", "BTC.json"), "utf8"),
      );
      const record = decode("/insights/liquidation", json, { naming: liveNaming });
      const leaves = insightLeaves(record);
      const windows = Object.keys(record.data[0].long_liquidation_probability);
      expect(leaves).toHaveLength(1 + record.data.length * 2 * windows.length);
      const places = new Set(leaves.map((leaf) => `${leaf.field}|${leaf.key}`));
      expect(places.size).toBe(leaves.length);
      const fifth = record.data[4];
      expect(
        leaves.find(
          (leaf) =>
            leaf.field === "data.short_liquidation_probability" &&
            leaf.key === `${fifth.price_change}/12`,
        )?.value,
      ).toBe(fifth.short_liquidation_probability["12"]);
    },
  );
});
