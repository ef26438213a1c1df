import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { DEFAULT_PATHS } from "../../src/domain/default-paths.ts";
import {
  operationByPath,
  operations,
  operationTable,
  type OperationPath,
  type OperationsByPath,
} from "../../src/domain/operations.ts";
import type { LiquidationRecord } from "../../src/domain/records/liquidation.ts";
import type { InsightParams } from "../../src/domain/params.ts";
import type { InsightAsset } from "../../src/domain/assets.ts";
import type { QueryParamsOf } from "../../src/domain/query.ts";
import type { ResultOf } from "../../src/domain/operation.ts";
import { capturedFolder } from "./captured.ts";

/** Every path of the spec's Endpoints tables, written out by hand; the not-shown ones as DEFAULT_PATHS. */
const SPEC_PATHS = [
  "/insights/liquidation",
  "/insights/lp-bounds",
  "/insights/lp-probabilities",
  "/insights/option-pricing",
  "/insights/volatility",
  "/insights/volatility-percentiles",
  "/insights/prediction-percentiles",
  "/insights/lp-bounds-chart",
  "/insights/venuea/up-down/daily",
  "/insights/venuea/up-down/hourly",
  "/insights/venuea/up-down/15min",
  "/insights/venuea/up-down/5min",
  "/insights/venuea/range",
  "/insights/venuea/range/daily",
  "/insights/venuea/above/daily",
  "/insights/venuea/hit/daily",
  "/insights/venueb/daily",
  "/insights/venueb/hourly",
  "/insights/venueb/15min",
  "/v2/prediction/best",
  "/v2/prediction/latest",
  "/v2/prediction/historical",
  "/v2/prediction/metamodel",
  "/v2/prediction/metamodel/historical",
  "/leaderboard/latest",
  "/leaderboard/historical",
  "/v2/leaderboard/latest",
  "/v2/leaderboard/historical",
  "/v2/meta-leaderboard/latest",
  "/v2/meta-leaderboard/historical",
  "/validation/miner",
  "/validation/scores/historical",
  "/validation/scores/latest",
  "/validation/uid-holders",
  "/validation/smoothed-scores",
  "/validation/prompts",
  "/validation/realized-path",
  "/validation/multi-asset-minutes",
];

/** The paths the spec does not show (pathlab's defaults). */
const NOT_SHOWN = [
  "/v2/meta-leaderboard/latest",
  "/v2/meta-leaderboard/historical",
  "/validation/miner",
  "/validation/scores/latest",
  "/validation/uid-holders",
  "/validation/smoothed-scores",
  "/validation/prompts",
  "/validation/realized-path",
  "/validation/multi-asset-minutes",
];

describe("the operations table", () => {
  it("covers exactly the spec's operations, each path once", () => {
    const paths = operations.map((operation) => operation.path);
    expect([...paths].sort()).toEqual([...SPEC_PATHS].sort());
    expect(new Set(paths).size).toBe(paths.length);
  });

  it("every path written in backticks in the spec's Endpoints section is in the table", () => {
    const specFile = path.resolve(capturedFolder, "../../spec/interface.md");
    if (!existsSync(specFile)) {
      console.warn(`spec/interface.md missing at ${specFile}: cross-check skipped`);
      return;
    }
    const text = readFileSync(specFile, "utf8");
    const endpoints = text.slice(text.indexOf("## Endpoints"), text.indexOf("## Authentication"));
    const written = [...endpoints.matchAll(/`(\/[a-z0-9/-]+)`/g)].map((match) => match[1]);
    expect(written.length).toBeGreaterThan(20);
    const paths = new Set<string>(operations.map((operation) => operation.path));
    expect(written.filter((written) => !paths.has(written))).toEqual([]);
  });

  it("marks not-shown paths, all of them from DEFAULT_PATHS", () => {
    const notShown = operations.filter((operation) => !operation.pathShown).map((op) => op.path);
    expect(notShown.sort()).toEqual([...NOT_SHOWN].sort());
    const defaults = new Set<string>(Object.values(DEFAULT_PATHS));
    for (const path of notShown) expect(defaults.has(path)).toBe(true);
  });

  it("every operation has a decoder, an encoder, its table section and its table key as method", () => {
    for (const [section, entries] of Object.entries(operationTable)) {
      for (const [method, operation] of Object.entries(entries)) {
        expect(operation.section).toBe(section);
        expect(operation.method).toBe(method);
        expect(typeof operation.decode).toBe("function");
        expect(typeof operation.encode).toBe("function");
        expect(operation.summary.length).toBeGreaterThan(10);
        expect(Object.isFrozen(operation)).toBe(true);
      }
    }
  });

  it("auth and credits per section: insights and venues need a key and cost credits, predictions need a key, the rest is public", () => {
    const expected = {
      insights: { auth: true, credits: true },
      venueA: { auth: true, credits: true },
      venueB: { auth: true, credits: true },
      predictions: { auth: true, credits: false },
      leaderboard: { auth: false, credits: false },
      validation: { auth: false, credits: false },
    };
    for (const operation of operations) {
      expect({ path: operation.path, auth: operation.auth, credits: operation.credits }).toEqual({
        path: operation.path,
        ...expected[operation.section],
      });
    }
  });

  it("insights operations take asset, horizon (their default) and start_time, plus days and limit", () => {
    for (const operation of operations) {
      if (!operation.path.startsWith("/insights/")) continue;
      expect(operation.params.map((param) => param.name)).toEqual([
        "asset",
        "horizon",
        "start_time",
        "days",
        "limit",
      ]);
      const horizon = operation.params[1];
      const oneHour = /\/(hourly|15min|5min)$/.test(operation.path);
      expect(horizon.default).toBe(oneHour ? "1h" : "24h");
      expect(operation.params[0].default).toBe("BTC");
    }
  });

  it("per-operation assets follow the spec's Endpoints tables", () => {
    const assets = (op: { params: readonly { name: string; allowed?: readonly unknown[] }[] }) =>
      op.params.find((param) => param.name === "asset")?.allowed;
    expect(assets(operationTable.insights.optionPricing)).not.toContain("XAU");
    expect(assets(operationTable.insights.liquidation)).toContain("XAU");
    expect(assets(operationTable.venueA.upDownHourly)).toEqual(["BTC", "ETH", "SOL", "HYPE"]);
    expect(assets(operationTable.venueA.aboveDaily)).toEqual(["BTC", "ETH"]);
    expect(assets(operationTable.venueA.hitDaily)).toEqual(["BTC", "ETH", "XRP"]);
    expect(assets(operationTable.venueB.daily)).toEqual([
      "BTC",
      "ETH",
      "SOL",
      "XAU",
      "HYPE",
      "XRP",
    ]);
    expect(assets(operationTable.venueB.fifteenMinute)).toEqual(["BTC", "ETH", "SOL"]);
    expect(assets(operationTable.predictions.best)).toEqual([
      "BTC", "ETH", "SOL", "XAU", "SPYX", "NVDAX", "TSLAX", "AAPLX", "GOOGLX",
    ]); // prettier-ignore
  });

  it("range rules: smoothed scores 7 days, uid holders 30 inclusive days, multi-asset minutes 2 inclusive days", () => {
    expect(operationTable.validation.smoothedScores.ranges).toEqual([
      { from: "from", to: "to", maxDays: 7 },
    ]);
    expect(operationTable.validation.uidHolders.ranges).toEqual([
      { from: "from", to: "to", maxDays: 30, inclusiveDay: true },
    ]);
    expect(operationTable.validation.multiAssetMinutes.ranges).toEqual([
      { from: "from", to: "to", maxDays: 2, inclusiveDay: true },
    ]);
  });

  it("operationByPath finds each operation and names an unknown path", () => {
    for (const operation of operations) expect(operationByPath(operation.path)).toBe(operation);
    expect(() => operationByPath("/insights/liquidations")).toThrow(
      'operationByPath: unknown operation path "/insights/liquidations"; expected one of the 38 paths of the spec, e.g. "/insights/liquidation"',
    );
    expect(() => operationByPath("/insights/polymarket/range/daily")).toThrow(/not a wire path/);
  });

  it("the types keep each entry's literal path, parameters and record", () => {
    expectTypeOf(operationTable.insights.liquidation.path).toEqualTypeOf<"/insights/liquidation">();
    expectTypeOf<OperationsByPath["/insights/liquidation"]>().toEqualTypeOf(
      operationTable.insights.liquidation,
    );
    expectTypeOf<
      ResultOf<OperationsByPath["/insights/liquidation"]>
    >().toEqualTypeOf<LiquidationRecord>();
    expectTypeOf<QueryParamsOf<typeof operationTable.insights.liquidation>>().toEqualTypeOf<
      InsightParams<InsightAsset>
    >();
    expectTypeOf<"/validation/miner">().toExtend<OperationPath>();
    expectTypeOf<"/insights/nope">().not.toExtend<OperationPath>();
  });
});
