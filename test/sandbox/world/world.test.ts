import { describe, expect, it } from "vitest";
import { MINER_SLOTS } from "../../../src/sandbox/world/minerProfiles.ts";
import { createWorld, type World } from "../../../src/sandbox/world/world.ts";

const NOW = Date.UTC(2026, 10, 21, 10, 49) / 1000;

/** A digest of many answers of a world (markets, miners, validator), for comparing worlds. */
function digest(world: World): unknown {
  const start24h = world.latestPromptStart("ETH", "24h")!;
  const start1h = world.latestPromptStart("BTC", "1h")!;
  const daily = world.predictionSet(47, "ETH", start24h, 300, 86400);
  const hourly = world.predictionSet(1, "BTC", start1h, 60, 3600);
  return {
    closes: world.marketAssets.map((asset) =>
      Array.from(world.minuteCloses(asset, NOW - 7200, NOW)),
    ),
    daily: daily.status === "absent" ? "absent" : Array.from(daily.values!.subarray(0, 2000)),
    hourly: hourly.status === "absent" ? "absent" : Array.from(hourly.values!.subarray(0, 2000)),
    holders: world.uidHolders(NOW - 30 * 86400, NOW),
    validations: world.minerUids.map((uid) => world.minerValidation(uid)),
    scores: world.scoreRows({ asset: "ETH", horizon: "1h", fromUnix: NOW - 86400, toUnix: NOW }),
    leaderboard: world.leaderboardV2("crypto-1h"),
    smoothed: world.smoothedScoreRows({
      fromUnix: NOW - 86400,
      toUnix: NOW,
      competition: "crypto-1h",
    }),
  };
}

describe("createWorld", () => {
  it("the same seed and now give identical answers; another seed gives different ones", () => {
    const first = digest(createWorld({ seed: 5, nowUnix: NOW, scoringMinutes: 8 }));
    const second = digest(createWorld({ seed: 5, nowUnix: NOW + 59, scoringMinutes: 8 }));
    const other = digest(createWorld({ seed: 6, nowUnix: NOW, scoringMinutes: 8 }));
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect((first as { scores: unknown[] }).scores.length).toBeGreaterThan(0);
    const firstParts = first as Record<string, unknown>;
    const otherParts = other as Record<string, unknown>;
    for (const part of ["closes", "daily", "hourly", "holders", "scores"]) {
      expect(JSON.stringify(otherParts[part])).not.toBe(JSON.stringify(firstParts[part]));
    }
  });

  it("warmUp gives the same leaderboards as computing them on demand", async () => {
    // At 10:46 with 3 minutes of scoring, one 1h prompt (ETH, 09:44) is due: a cheap world.
    const now = NOW - 180;
    const warmed = createWorld({ seed: 9, nowUnix: now, scoringMinutes: 3 });
    await warmed.warmUp();
    const cold = createWorld({ seed: 9, nowUnix: now, scoringMinutes: 3 });
    expect(warmed.leaderboardV2("crypto-1h").length).toBeGreaterThan(0);
    for (const name of ["crypto-1h", "crypto-24h", "com-equ-24h"] as const) {
      expect(warmed.leaderboardV2(name)).toEqual(cold.leaderboardV2(name));
    }
  });

  it("leaderboard rows carry the holder's coldkey and IP, as the live rows do", async () => {
    const world = createWorld({ seed: 9, nowUnix: NOW - 180, scoringMinutes: 3 });
    const rows = [...world.leaderboardV2("crypto-1h"), ...world.metaLeaderboard("crypto-1h", 14)];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.coldkey).toBe(world.minerAt(row.neuron_uid, NOW - 180)?.coldkey);
      expect(row.coldkey).toMatch(/^5[1-9A-HJ-NP-Za-km-z]{47}$/);
      expect(row.ip_address).toMatch(/^\d{1,3}(\.\d{1,3}){3}$/);
    }
  });

  it("the short symbols are the cross-listed ones, and an asset without a market is named", () => {
    const world = createWorld({ seed: 5, nowUnix: NOW });
    expect(world.priceAt("SPY", NOW)).toBe(world.priceAt("SPYX", NOW));
    expect(world.hasMarket("NVDA")).toBe(true);
    expect(world.hasMarket("DOGE")).toBe(false);
    expect(world.competitionFor("NVDA", "24h")).toBe("com-equ-24h");
    expect(world.competitionFor("XAU", "1h")).toBe("crypto-1h");
    expect(() => world.priceAt("DOGE", NOW)).toThrow(
      /priceAt requires an asset with a market \(BTC, .*\), got DOGE/,
    );
  });

  it("the world's clock is floored to the minute and nothing after it is observable", () => {
    const world = createWorld({ seed: 5, nowUnix: NOW + 59 });
    expect(world.nowUnix).toBe(NOW);
    expect(Number.isNaN(world.minuteClose("BTC", NOW + 60))).toBe(true);
    expect(world.latestPromptStart("BTC", "24h")).toBeLessThanOrEqual(NOW);
    expect(world.isPromptStart("BTC", "24h", NOW + 1800 - (NOW % 1800))).toBe(false);
    expect(() => world.leaderboardV2("crypto-1h", NOW + 60)).toThrow(
      "leaderboardV2 requires atUnix at or before the world's now (2026-11-21T10:49:00Z), got 2026-11-21T10:50:00Z",
    );
    expect(() => world.metaLeaderboard("crypto-1h", 14, NOW + 60)).toThrow(
      /metaLeaderboard requires atUnix/,
    );
  });

  it("createWorld names a bad option", () => {
    expect(() => createWorld({ seed: 1.5, nowUnix: NOW })).toThrow(
      "createWorld requires an integer seed, got 1.5",
    );
    expect(() => createWorld({ seed: 1, nowUnix: NaN })).toThrow(
      "createWorld requires a finite nowUnix, got NaN",
    );
    expect(() => createWorld({ seed: 1, nowUnix: NOW, scoringMinutes: 0 })).toThrow(
      "createWorld requires a positive scoringMinutes, got 0",
    );
    for (const miners of [0, 2.5, 37]) {
      expect(() => createWorld({ seed: 1, nowUnix: NOW, miners })).toThrow(
        `createWorld requires miners from 1 to 36 (a whole number), got ${miners}`,
      );
    }
  });

  it("a world of fewer miners has the first uids of the roster, which answer as in the whole world", () => {
    const small = createWorld({ seed: 5, nowUnix: NOW, miners: 9 });
    const whole = createWorld({ seed: 5, nowUnix: NOW });
    expect(whole.minerUids).toHaveLength(36);
    expect(small.minerUids).toEqual(
      MINER_SLOTS.slice(0, 9)
        .map((slot) => slot.uid)
        .sort((first, second) => first - second),
    );
    expect(small.minerAt(1)).toBeUndefined();
    const start = small.latestPromptStart("BTC", "24h", NOW - 3600)!;
    // the miners they share answer alike
    expect(small.predictionSet(47, "BTC", start, 300, 86400)).toEqual(
      whole.predictionSet(47, "BTC", start, 300, 86400),
    );
  });

  it("the prompt list and the latest prompt follow the cadence option", () => {
    const real = createWorld({ seed: 5, nowUnix: NOW, cadence: "real" });
    const starts = real.promptStarts("BTC", "24h", NOW - 3600, NOW + 3600);
    expect(starts.every((start) => start <= NOW)).toBe(true);
    expect(starts.slice(1).map((start, index) => start - starts[index])).toEqual(
      new Array(starts.length - 1).fill(240),
    );
    expect(real.latestPromptStart("BTC", "24h")).toBe(starts[starts.length - 1]);
    expect(real.horizonOf(60, 3600)).toBe("1h");
    expect(real.horizonOf(300, 86400)).toBe("24h");
    expect(real.horizonOf(300, 3600)).toBeUndefined();
  });
});
