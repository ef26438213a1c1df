import { describe, expect, expectTypeOf, it } from "vitest";
import { HORIZONS } from "../../src/domain/assets.ts";
import { defineInsightKinds } from "../../src/domain/insightKind.ts";
import {
  AUDITED_RECORDS,
  INSIGHT_PATHS,
  INSIGHT_PATHS_BY_LAKE_CODE,
  insightKind,
  isInsightPath,
  pathsByLakeCode,
  recomputedPathsReading,
} from "../../src/domain/insightKindLists.ts";
import {
  INSIGHT_KINDS,
  type InsightKindTable,
  type InsightPath,
  type RecomputedKindTable,
  type VenueBWindow,
} from "../../src/domain/insightKinds.ts";
import type { ResultOf } from "../../src/domain/operation.ts";
import {
  operationByPath,
  operations,
  operationTable,
  type OperationsByPath,
} from "../../src/domain/operations.ts";
import { liquidationRecordCodec } from "../../src/domain/records/liquidation.ts";
import type { LpBoundsRecord } from "../../src/domain/records/lp.ts";
import type { RecomputedRecords } from "../../src/insights/recompute.ts";
import type { EarlierRangeModelSide, UpDownModelSide } from "../../src/insights/venueA.ts";
import type { VenueBModelSide } from "../../src/insights/venueB.ts";

/**
 * The lake codes of the operations as the first lakes were written: a lake id is made of these
 * positions, so they never change (a new kind is appended).
 */
const LAKE_CODES_OF_THE_FIRST_LAKES = [
  "/insights/prediction-percentiles",
  "/insights/volatility",
  "/insights/volatility-percentiles",
  "/insights/liquidation",
  "/insights/lp-bounds",
  "/insights/lp-bounds-chart",
  "/insights/lp-probabilities",
  "/insights/option-pricing",
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
];

describe("the registry of insight kinds", () => {
  it("agrees with the operations table: its insights and venue sections are the kinds, in order", () => {
    const sections = [operationTable.insights, operationTable.venueA, operationTable.venueB];
    const paths = sections.flatMap((section) => Object.values(section).map((op) => op.path));
    expect(paths).toEqual(INSIGHT_PATHS);
    const insightLike = operations.filter((operation) => operation.path.startsWith("/insights/"));
    expect(insightLike.map((operation) => operation.path)).toEqual(INSIGHT_PATHS);
    for (const path of INSIGHT_PATHS) {
      const kind = insightKind(path);
      const operation = operationByPath(path);
      expect(operation).toBe(kind.operation);
      expect(kind.path).toBe(path);
      expect(operation.section).toBe(kind.family);
      expect(operationTable[kind.family][kind.method as never]).toBe(operation);
      const param = (name: string) => operation.params.find((spec) => spec.name === name);
      expect(param("asset")?.allowed).toEqual(kind.assets);
      expect(param("horizon")?.default).toBe(kind.defaultHorizon);
    }
  });

  it("syncs the insights at every horizon and the venue comparisons at their default horizon", () => {
    for (const path of INSIGHT_PATHS) {
      const kind = insightKind(path);
      expect({ path, horizons: kind.syncHorizons }).toEqual({
        path,
        horizons: kind.family === "insights" ? HORIZONS : [kind.defaultHorizon],
      });
    }
  });

  it("keeps every operation's lake code of the first lakes", () => {
    expect(INSIGHT_PATHS_BY_LAKE_CODE).toEqual(LAKE_CODES_OF_THE_FIRST_LAKES);
    for (const [code, path] of INSIGHT_PATHS_BY_LAKE_CODE.entries()) {
      expect(INSIGHT_KINDS[path].lakeCode).toBe(code);
    }
  });

  it("rejects lake codes that two kinds share or that skip a code", () => {
    const kind = (path: string, lakeCode: number) => ({ path, lakeCode });
    expect(pathsByLakeCode([kind("/b", 1), kind("/a", 0)])).toEqual(["/a", "/b"]);
    expect(() => pathsByLakeCode([kind("/a", 0), kind("/b", 0)])).toThrow(
      "pathsByLakeCode: /b has the lake code 0, the code of /a; expected a code of its own",
    );
    expect(() => pathsByLakeCode([kind("/a", 0), kind("/b", 2)])).toThrow(
      "pathsByLakeCode: no kind has the lake code 1; expected the codes 0 to 1",
    );
    expect(() => pathsByLakeCode([kind("/a", -1)])).toThrow(/not a whole number from 0/);
  });

  it("derives the lists of kinds from the kinds' facts", () => {
    expect(recomputedPathsReading("previous-prompt")).toEqual([
      "/insights/volatility",
      "/insights/volatility-percentiles",
    ]);
    expect(recomputedPathsReading("range-markets")).toEqual([
      "/insights/venuea/range",
      "/insights/venuea/range/daily",
      "/insights/venuea/above/daily",
      "/insights/venuea/hit/daily",
    ]);
    expect(AUDITED_RECORDS.map((record) => [record.path, record.snapshotKey])).toEqual([
      ["/insights/liquidation", "liquidation"],
      ["/insights/lp-bounds", "lpBounds"],
      ["/insights/lp-probabilities", "lpProbabilities"],
      ["/insights/option-pricing", "options"],
      ["/insights/prediction-percentiles", "percentiles"],
    ]);
  });

  it("isInsightPath knows the kinds' paths only", () => {
    expect(INSIGHT_PATHS.every(isInsightPath)).toBe(true);
    expect(isInsightPath("/v2/prediction/latest")).toBe(false);
    expect(isInsightPath("/insights/polymarket/range")).toBe(false);
    expect(isInsightPath("toString")).toBe(false);
  });
});

describe("tables typed against the registry (checked by tsc --noEmit)", () => {
  it("a table of every kind compiles, one that lacks a kind or has a key that is no kind does not", () => {
    const everyKind = {
      "/insights/liquidation": 1,
      "/insights/lp-bounds": 1,
      "/insights/lp-probabilities": 1,
      "/insights/option-pricing": 1,
      "/insights/volatility": 1,
      "/insights/volatility-percentiles": 1,
      "/insights/prediction-percentiles": 1,
      "/insights/lp-bounds-chart": 1,
      "/insights/venuea/up-down/daily": 1,
      "/insights/venuea/up-down/hourly": 1,
      "/insights/venuea/up-down/15min": 1,
      "/insights/venuea/up-down/5min": 1,
      "/insights/venuea/range": 1,
      "/insights/venuea/range/daily": 1,
      "/insights/venuea/above/daily": 1,
      "/insights/venuea/hit/daily": 1,
      "/insights/venueb/daily": 1,
      "/insights/venueb/hourly": 1,
      "/insights/venueb/15min": 1,
    } satisfies InsightKindTable<number>;
    const { "/insights/venueb/15min": _left, ...lackingOne } = everyKind;
    // @ts-expect-error: the table lacks "/insights/venueb/15min"
    const lacking: InsightKindTable<number> = lackingOne;
    const recomputedLacking = {
      "/insights/liquidation": "",
      "/insights/lp-bounds": "",
      "/insights/lp-probabilities": "",
      "/insights/option-pricing": "",
      "/insights/volatility": "",
      "/insights/volatility-percentiles": "",
      "/insights/prediction-percentiles": "",
      "/insights/lp-bounds-chart": "",
      "/insights/venuea/up-down/daily": "",
      "/insights/venuea/up-down/hourly": "",
      "/insights/venuea/up-down/15min": "",
      "/insights/venuea/up-down/5min": "",
      "/insights/venuea/range": "",
      "/insights/venuea/range/daily": "",
      "/insights/venuea/above/daily": "",
      "/insights/venuea/hit/daily": "",
      "/insights/venueb/daily": "",
      "/insights/venueb/hourly": "",
      // @ts-expect-error: the table lacks "/insights/venueb/15min"
    } satisfies RecomputedKindTable<string>;
    const withAStranger = {
      ...everyKind,
      // @ts-expect-error: "/insights/venuec/daily" is no kind
      "/insights/venuec/daily": 1,
    } satisfies InsightKindTable<number>;
    expect(Object.keys(everyKind).sort()).toEqual([...INSIGHT_PATHS].sort());
    expect(Object.keys(lacking)).toHaveLength(INSIGHT_PATHS.length - 1);
    expect(Object.keys(recomputedLacking)).toHaveLength(INSIGHT_PATHS.length - 1);
    expect(Object.keys(withAStranger)).toHaveLength(INSIGHT_PATHS.length + 1);
  });

  it("reads the venue B windows from the registry's paths", () => {
    expectTypeOf<VenueBWindow>().toEqualTypeOf<"daily" | "hourly" | "15min">();
    const windows = INSIGHT_PATHS.filter((path) => path.startsWith("/insights/venueb/")).map(
      (path) => path.slice("/insights/venueb/".length),
    );
    expect(windows.sort()).toEqual(["15min", "daily", "hourly"]);
  });

  it("a kind that leaves out a fact does not compile", () => {
    const complete = {
      family: "insights",
      method: "example",
      summary: "An example kind",
      assets: ["BTC"],
      defaultHorizon: "24h",
      syncHorizons: ["24h"],
      codec: liquidationRecordCodec,
      recomputed: true,
      lakeCode: 0,
      inputs: [],
      liveOmittedFields: [],
      fields: {},
    } as const;
    const { lakeCode: _code, ...withoutLakeCode } = complete;
    expect(defineInsightKinds({ "/insights/example": complete })["/insights/example"].path).toBe(
      "/insights/example",
    );
    // @ts-expect-error: the kind has no lake code
    expect(() => defineInsightKinds({ "/insights/example": withoutLakeCode })).not.toThrow();
  });

  it("the recomputed records are the recompute table's: the spec's record, or the venue's model side", () => {
    expectTypeOf<RecomputedRecords["/insights/lp-bounds"]>().toEqualTypeOf<LpBoundsRecord>();
    expectTypeOf<
      RecomputedRecords["/insights/venuea/up-down/5min"]
    >().toEqualTypeOf<UpDownModelSide>();
    expectTypeOf<RecomputedRecords["/insights/venuea/range"]>().toEqualTypeOf<
      EarlierRangeModelSide[]
    >();
    expectTypeOf<RecomputedRecords["/insights/venueb/daily"]>().toEqualTypeOf<VenueBModelSide[]>();
    type InsightsFamily = {
      [Path in InsightPath]: (typeof INSIGHT_KINDS)[Path]["family"] extends "insights"
        ? Path
        : never;
    }[InsightPath];
    type SpecRecords = { [Path in InsightsFamily]: ResultOf<OperationsByPath[Path]> };
    type Recomputed = { [Path in InsightsFamily]: RecomputedRecords[Path] };
    expectTypeOf<Recomputed>().toEqualTypeOf<SpecRecords>();
  });
});
