import { describe, expect, it } from "vitest";
import {
  liveNaming,
  neutralFieldName,
  neutralNaming,
  wireFieldName,
  wirePath,
} from "../../src/domain/naming.ts";
import { operations } from "../../src/domain/operations.ts";

describe("naming", () => {
  it("neutralNaming is the spec's words and liveNaming the captured deployment's", () => {
    expect(neutralNaming).toEqual({ venueA: "venuea", venueB: "venueb", model: "model" });
    expect(liveNaming).toEqual({
      venueA: "polymarket",
      venueB: "venueb",
      model: "synth",
      spelling: "live",
    });
  });

  it("wirePath replaces the venuea and venueb segments only", () => {
    expect(wirePath("/insights/venuea/range/daily", liveNaming)).toBe(
      "/insights/polymarket/range/daily",
    );
    expect(wirePath("/insights/venueb/15min", { ...liveNaming, venueB: "kalshi" })).toBe(
      "/insights/kalshi/15min",
    );
    expect(wirePath("/insights/venueab/x", liveNaming)).toBe("/insights/venueab/x");
    for (const operation of operations) {
      expect(wirePath(operation.path, neutralNaming)).toBe(operation.path);
    }
  });

  it("wireFieldName renames the venuea_, venueb_ and model_ prefixes", () => {
    expect(wireFieldName("venuea_probability_up", liveNaming)).toBe("polymarket_probability_up");
    expect(wireFieldName("venuea_last_trade_outcome", liveNaming)).toBe(
      "polymarket_last_trade_outcome",
    );
    expect(wireFieldName("model_outcome", liveNaming)).toBe("synth_outcome");
    expect(wireFieldName("market_probability_up", liveNaming)).toBe("market_probability_up");
    expect(wireFieldName("current_outcome", liveNaming)).toBe("current_outcome");
    expect(wireFieldName("venueb_x", { ...liveNaming, venueB: "kalshi" })).toBe("kalshi_x");
  });

  it("neutralFieldName inverts wireFieldName", () => {
    for (const name of ["venuea_probability", "model_probability_up", "venueb_price", "slug"]) {
      expect(neutralFieldName(wireFieldName(name, liveNaming), liveNaming)).toBe(name);
    }
    expect(neutralFieldName("synth_probability_up", liveNaming)).toBe("model_probability_up");
    expect(neutralFieldName("best_bid_price", liveNaming)).toBe("best_bid_price");
  });
});
