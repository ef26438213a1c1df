import { describe, expect, it } from "vitest";
import { DEFAULT_SYNC_ASSETS } from "../../../src/jobs/harness/defaults.ts";
import { competitionFor, planSyncUnits, unitOperations } from "../../../src/jobs/sync/plan.ts";
import { UsageError } from "../../../src/service/usageError.ts";

const INSIGHTS = [
  "/insights/liquidation",
  "/insights/lp-bounds",
  "/insights/lp-probabilities",
  "/insights/lp-bounds-chart",
  "/insights/option-pricing",
  "/insights/volatility",
  "/insights/volatility-percentiles",
  "/insights/prediction-percentiles",
];
const withoutOptions = INSIGHTS.filter((path) => path !== "/insights/option-pricing");

describe("the units of a sync", () => {
  // Expected lists read off the spec's Endpoints tables (assets and default horizon per operation).
  it.each([
    [
      "BTC",
      "24h",
      [
        ...INSIGHTS,
        "/insights/venuea/up-down/daily",
        "/insights/venuea/range",
        "/insights/venuea/range/daily",
        "/insights/venuea/above/daily",
        "/insights/venuea/hit/daily",
        "/insights/venueb/daily",
      ],
    ],
    [
      "BTC",
      "1h",
      [
        ...INSIGHTS,
        "/insights/venuea/up-down/hourly",
        "/insights/venuea/up-down/15min",
        "/insights/venuea/up-down/5min",
        "/insights/venueb/hourly",
        "/insights/venueb/15min",
      ],
    ],
    ["XAU", "24h", [...withoutOptions, "/insights/venuea/up-down/daily", "/insights/venueb/daily"]],
    ["XAU", "1h", [...withoutOptions, "/insights/venueb/hourly"]],
    ["SPYX", "24h", [...INSIGHTS, "/insights/venuea/up-down/daily"]],
    [
      "NVDAX",
      "24h",
      [
        ...INSIGHTS,
        "/insights/venuea/up-down/daily",
        "/insights/venuea/range",
        "/insights/venuea/range/daily",
      ],
    ],
  ] as const)(
    "unitOperations(%s, %s) holds the operations whose asset list and default horizon fit",
    (asset, horizon, expected) => {
      expect([...unitOperations(asset, horizon)].sort()).toEqual([...expected].sort());
    },
  );

  it("competitionFor picks the competition of the horizon that scores the asset, else the horizon's own", () => {
    expect(competitionFor("BTC", "24h")).toBe("crypto-24h");
    expect(competitionFor("BTC", "1h")).toBe("crypto-1h");
    expect(competitionFor("XAU", "24h")).toBe("com-equ-24h");
    expect(competitionFor("SPYX", "24h")).toBe("com-equ-24h");
    expect(competitionFor("XAU", "1h")).toBe("crypto-1h");
  });

  it("planSyncUnits covers every asset with path sets at both horizons by default", () => {
    const units = planSyncUnits();
    expect(units).toHaveLength(DEFAULT_SYNC_ASSETS.length * 2);
    expect(DEFAULT_SYNC_ASSETS).toEqual([
      "BTC",
      "ETH",
      "SOL",
      "XAU",
      "SPYX",
      "NVDAX",
      "TSLAX",
      "AAPLX",
      "GOOGLX",
    ]);
  });

  it("planSyncUnits takes the insights' symbols and case, and drops duplicates", () => {
    const units = planSyncUnits(["spy", "SPYX", "btc"], ["1h", "24h", "1h"]);
    expect(units.map((unit) => `${unit.asset} ${unit.horizon} ${unit.competition}`)).toEqual([
      "SPYX 1h crypto-1h",
      "SPYX 24h com-equ-24h",
      "BTC 1h crypto-1h",
      "BTC 24h crypto-24h",
    ]);
  });

  it("planSyncUnits refuses an asset without path sets and an unknown horizon, naming them", () => {
    expect(() => planSyncUnits(["DOGE"])).toThrow(UsageError);
    expect(() => planSyncUnits(["XRP"])).toThrow(/asset "XRP": expected one whose paths/);
    expect(() => planSyncUnits(["BTC"], ["2h"])).toThrow(/horizon: expected 1h or 24h, got "2h"/);
    expect(() => planSyncUnits([], ["1h"])).toThrow(/at least one asset/);
  });
});
