import { describe, expect, it } from "vitest";
import { COMPETITION_ASSETS } from "../../../src/domain/assets.ts";
import { MARKET_ASSETS } from "../../../src/sandbox/world/marketProfiles.ts";
import {
  isStartOf,
  latestStartAtOrBefore,
  promptSeriesTable,
  promptStartsBetween,
  type PromptHorizon,
} from "../../../src/sandbox/world/promptSchedule.ts";

const NOW = Date.UTC(2026, 10, 21, 10, 49) / 1000;

function startsOf(cadence: "real" | "sandbox", asset: string, horizon: PromptHorizon): number[] {
  const series = promptSeriesTable(cadence).find(
    (candidate) => candidate.asset === asset && candidate.horizon === horizon,
  )!;
  return promptStartsBetween(series, NOW - 3 * 3600, NOW);
}

function gapsMinutes(starts: number[]): Set<number> {
  return new Set(starts.slice(1).map((start, index) => (start - starts[index]) / 60));
}

describe("prompt cadence", () => {
  it("the real cadence prompts 24h BTC every 4 minutes and the other assets every 12 (DOMAIN.md §1)", () => {
    expect(gapsMinutes(startsOf("real", "BTC", "24h"))).toEqual(new Set([4]));
    for (const asset of ["ETH", "SOL", "XRP", "HYPE", "XAU", "NVDAX", "SP500"]) {
      expect(gapsMinutes(startsOf("real", asset, "24h"))).toEqual(new Set([12]));
    }
  });

  it("the real cadence prompts 1h every minute, each crypto asset every 5 minutes", () => {
    const crypto = ["BTC", "ETH", "SOL", "XRP", "HYPE"];
    const all = crypto.flatMap((asset) => startsOf("real", asset, "1h")).sort((a, b) => a - b);
    expect(gapsMinutes(all)).toEqual(new Set([1]));
    for (const asset of crypto)
      expect(gapsMinutes(startsOf("real", asset, "1h"))).toEqual(new Set([5]));
  });

  it("the sandbox cadence thins the prompts: 1h every 20 minutes, 24h BTC every 30, others every 120", () => {
    expect(gapsMinutes(startsOf("sandbox", "ETH", "1h"))).toEqual(new Set([20]));
    expect(gapsMinutes(startsOf("sandbox", "BTC", "24h"))).toEqual(new Set([30]));
    expect(gapsMinutes(startsOf("sandbox", "TSLAX", "24h"))).toEqual(new Set([120]));
  });

  it("every market asset has a prompt series at both horizons, and the scored ones are the competitions' assets", () => {
    for (const cadence of ["real", "sandbox"] as const) {
      const table = promptSeriesTable(cadence);
      for (const asset of MARKET_ASSETS) {
        for (const horizon of ["1h", "24h"] as const) {
          expect(
            table.filter((series) => series.asset === asset && series.horizon === horizon),
          ).toHaveLength(1);
        }
      }
      const scored = table.filter((series) => series.scored);
      for (const series of scored) {
        expect(COMPETITION_ASSETS[series.competition] as readonly string[]).toContain(series.asset);
      }
      expect(scored.filter((series) => series.competition === "crypto-1h")).toHaveLength(5);
      expect(scored.filter((series) => series.competition === "crypto-24h")).toHaveLength(5);
      expect(scored.filter((series) => series.competition === "com-equ-24h")).toHaveLength(8);
    }
  });

  it("some 24h prompts of different assets share a minute (multi-asset minutes)", () => {
    const table = promptSeriesTable("sandbox").filter(
      (series) => series.scored && series.horizon === "24h",
    );
    const counts = new Map<number, number>();
    for (const series of table) {
      for (const start of promptStartsBetween(series, NOW - 86400, NOW)) {
        counts.set(start, (counts.get(start) ?? 0) + 1);
      }
    }
    expect([...counts.values()].some((count) => count >= 2)).toBe(true);
  });

  it("latestStartAtOrBefore is the last start not after the time, and isStartOf recognizes it", () => {
    for (const series of promptSeriesTable("sandbox")) {
      const latest = latestStartAtOrBefore(series, NOW);
      expect(latest).toBeLessThanOrEqual(NOW);
      expect(NOW - latest).toBeLessThan(series.periodMinutes * 60);
      expect(isStartOf(series, latest)).toBe(true);
      expect(isStartOf(series, latest + 60)).toBe(series.periodMinutes === 1);
      expect(promptStartsBetween(series, latest, NOW)).toEqual([latest]);
    }
  });
});
