import { beforeAll, describe, expect, it } from "vitest";
import { promptCrps } from "../../../src/reference/promptCrps.ts";
import { promptScoreRuleAt, promptScores } from "../../../src/reference/promptScores.ts";
import { softmaxRewardWeights } from "../../../src/reference/rewardWeights.ts";
import { smoothedScores, type ScoredPrompt } from "../../../src/reference/smoothedScores.ts";
import { UPDATE_DELAY_SECONDS, validatorEraAt } from "../../../src/domain/eras.ts";
import { COMPETITION_ASSETS, type Competition } from "../../../src/domain/assets.ts";
import { SCORING_INTERVALS_1H, SCORING_INTERVALS_24H } from "../../../src/domain/intervals.ts";
import type { ScoreRow } from "../../../src/domain/records/validation.ts";
import { createWorld, type Submission, type World } from "../../../src/sandbox/world/world.ts";

const NOW = Date.UTC(2026, 10, 21, 10, 49) / 1000;
const unix = (iso: string): number => Date.parse(iso) / 1000;

/** Paths of a submission as `paths[p][t]`, built here independently of the world's helpers. */
function rowsOf(submission: Submission): number[][] {
  if (submission.status === "absent" || submission.values === undefined) return [];
  const rows: number[][] = [];
  for (let path = 0; path < submission.pathCount; path++) {
    const start = path * submission.pointCount;
    rows.push(Array.from(submission.values.slice(start, start + submission.pointCount)));
  }
  return rows;
}

/** Every score row of a competition's assets since the validator began, by (scored time, asset). */
function promptsOf(world: World, competition: Competition): Map<string, ScoreRow[]> {
  const horizon = competition === "crypto-1h" ? "1h" : "24h";
  const prompts = new Map<string, ScoreRow[]>();
  for (const asset of COMPETITION_ASSETS[competition]) {
    if (asset === "SPYX") continue;
    for (const row of world.scoreRows({
      asset,
      horizon,
      fromUnix: world.scoringStartUnix,
      toUnix: NOW,
    })) {
      const key = `${row.scored_time}|${row.asset}`;
      prompts.set(key, [...(prompts.get(key) ?? []), row]);
    }
  }
  return prompts;
}

/**
 * The smoothed scores and reward weights of a competition at its last update (scored minute +
 * 120 s, over the prompts scored in (update − window, update − 60 s)), recomputed from the
 * served score rows with src/reference: prompts in scored-time order (assets of one minute in the
 * order of the multi-asset minute rows), miners identified by hotkey, back-fill by the reference.
 */
function recomputeLatest(
  world: World,
  competition: Competition,
  windowDays: number,
  beta: number,
  share: number,
): { time: number; smoothed: Map<number, number>; weights: Map<number, number> } {
  const horizon = competition === "crypto-1h" ? "1h" : "24h";
  const timeLength = horizon === "1h" ? 3600 : 86400;
  const minutes = world.multiAssetMinutes(world.scoringStartUnix, NOW, timeLength);
  const order = (scoredTime: string, asset: string): number => {
    const minute = minutes.find((row) => row.scored_time === scoredTime);
    return minute === undefined ? 0 : minute.assets.indexOf(asset);
  };
  const prompts = [...promptsOf(world, competition).values()].sort(
    (first, second) =>
      unix(first[0].scored_time) - unix(second[0].scored_time) ||
      order(first[0].scored_time, first[0].asset) - order(second[0].scored_time, second[0].asset),
  );
  const identities = new Map<string, number>();
  const identity = (uid: number, atUnix: number): number => {
    const hotkey = world.minerAt(uid, atUnix)!.hotkey;
    if (!identities.has(hotkey)) identities.set(hotkey, identities.size);
    return identities.get(hotkey)!;
  };
  const scored: ScoredPrompt[] = prompts.map((rows) => {
    const scoredTime = unix(rows[0].scored_time);
    const raws = rows.map((row) => row.crps);
    return {
      scoredTimeUnix: scoredTime,
      asset: rows[0].asset,
      worstScore: promptScores(raws, promptScoreRuleAt(scoredTime))!.worstScore,
      minerScores: rows.map((row) => ({
        minerUid: identity(row.miner_uid, scoredTime - timeLength),
        promptScore: row.prompt_score,
      })),
    };
  });
  // The last update made by NOW: the validator updates at scored minute + 120 s.
  const time = Math.max(
    ...scored
      .map((prompt) => prompt.scoredTimeUnix + UPDATE_DELAY_SECONDS)
      .filter((update) => update <= NOW),
  );
  const byIdentity = smoothedScores(scored, time, windowDays);
  const smoothed = new Map<number, number>();
  const active = new Map<number, number>();
  for (const uid of world.minerUids) {
    const key = identity(uid, time);
    const score = byIdentity.get(key);
    if (score === undefined) continue;
    smoothed.set(uid, score);
    active.set(uid, score);
  }
  return { time, smoothed, weights: softmaxRewardWeights(active, beta, share) };
}

function expectRelativelyClose(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-12 * Math.abs(expected));
}

describe("the validator (current rules)", () => {
  let world: World;
  beforeAll(() => {
    // The whole network, not the small world: its size is the point (prompts with ten miners
    // and more, ten-miner ensembles, the zero-price miner 31, leaderboards of ten and more).
    world = createWorld({ seed: 41, nowUnix: NOW, scoringMinutes: 20 });
  });

  it.each([
    ["BTC", "24h", SCORING_INTERVALS_24H],
    ["ETH", "1h", SCORING_INTERVALS_1H],
  ] as const)(
    "the scores of a %s %s prompt equal an independent recomputation with src/reference",
    (asset, horizon, intervals) => {
      const rows = world.scoreRows({
        asset,
        horizon,
        fromUnix: world.scoringStartUnix,
        toUnix: NOW,
      });
      expect(rows.length).toBeGreaterThan(0);
      const scoredTime = unix(rows[rows.length - 1].scored_time);
      const promptRows = rows.filter((row) => unix(row.scored_time) === scoredTime);
      const [timeIncrement, timeLength] = horizon === "1h" ? [60, 3600] : [300, 86400];
      const start = scoredTime - timeLength;
      expect(world.isPromptStart(asset, horizon, start)).toBe(true);
      const realized = Array.from(world.realizedPrices(asset, start, timeIncrement, timeLength));
      const queried = world.minerUids.filter(
        (uid) =>
          world.predictionSet(uid, asset, start, timeIncrement, timeLength).status !== "absent",
      );
      expect(promptRows.map((row) => row.miner_uid)).toEqual(queried);
      // The era's dated CRPS rules (DOMAIN.md §3b): ETH 1h prompts are crypto-1h prompts.
      const era = validatorEraAt(scoredTime);
      const rules = {
        gapsFirstChangeOnly: era.gapsFirstChangeOnly,
        volatility: horizon === "1h" && era.volatilityCrps,
      };
      const raws = queried.map((uid) => {
        const submission = world.predictionSet(uid, asset, start, timeIncrement, timeLength);
        return submission.status === "valid"
          ? promptCrps(rowsOf(submission), realized, timeIncrement, intervals, rules)
          : -1;
      });
      expect(promptRows.map((row) => row.crps)).toEqual(raws);
      const expected = promptScores(raws, "current")!;
      expect(promptRows.map((row) => row.prompt_score)).toEqual(expected.scores);
      expect(raws.some((raw) => raw === -1)).toBe(true);
      expect(raws.filter((raw) => raw > 0).length).toBeGreaterThanOrEqual(10);
      for (const row of promptRows) expect(row).toMatchObject({ asset, time_length: timeLength });
    },
  );

  it("the zero-price miner passes validation and scores −1", () => {
    const rows = world.scoreRows({
      asset: "ETH",
      horizon: "1h",
      fromUnix: world.scoringStartUnix,
      toUnix: NOW,
    });
    const zero = rows.filter((row) => row.miner_uid === 31);
    expect(zero.length).toBeGreaterThan(0);
    for (const row of zero) expect(row.crps).toBe(-1);
  });

  it("realized paths carry NaN where minutes are missing", () => {
    const closes = world.minuteCloses("BTC", NOW - 2 * 86400, NOW - 86400);
    const missing = closes.findIndex((close, index) => index >= 10 && Number.isNaN(close));
    expect(missing).toBeGreaterThan(0);
    const missingMinute = NOW - 2 * 86400 + missing * 60;
    const realized = world.realizedPrices("BTC", missingMinute - 120, 60, 3600);
    expect(realized).toHaveLength(61);
    expect(Number.isNaN(realized[2])).toBe(true);
    for (let point = 0; point < 61; point++) {
      const close = world.minuteClose("BTC", missingMinute - 120 + point * 60);
      if (Number.isNaN(close)) expect(Number.isNaN(realized[point])).toBe(true);
      else expect(realized[point]).toBe(close);
    }
  });

  it.each([
    ["crypto-24h", 10, -0.15],
    ["crypto-1h", 5, -0.3],
  ] as const)(
    "smoothed scores and reward weights of %s equal a recomputation from the served score rows",
    (competition, windowDays, beta) => {
      const expected = recomputeLatest(world, competition, windowDays, beta, 1 / 3);
      const rows = world.smoothedScoreRows({
        fromUnix: expected.time,
        toUnix: expected.time,
        competition,
      });
      expect(rows.length).toBe(expected.smoothed.size);
      for (const row of rows) {
        expect(row.prompt_name).toBe(competition);
        expect(unix(row.updated_at)).toBe(expected.time);
        expectRelativelyClose(row.smoothed_score, expected.smoothed.get(row.miner_uid)!);
        expectRelativelyClose(row.reward_weight, expected.weights.get(row.miner_uid) ?? 0);
      }
      const leaderboard = world.leaderboardV2(competition);
      expect(leaderboard.map((row) => row.rewards)).toEqual(rows.map((row) => row.reward_weight));
    },
  );

  it("leaderboards are ordered consistently with the reward weights and the smoothed scores", () => {
    for (const competition of ["crypto-24h", "crypto-1h", "com-equ-24h"] as const) {
      const leaderboard = world.leaderboardV2(competition);
      expect(leaderboard.length).toBeGreaterThanOrEqual(10);
      const rows = world.smoothedScoreRows({
        fromUnix: unix(leaderboard[0].updated_at),
        toUnix: unix(leaderboard[0].updated_at),
        competition,
      });
      const smoothed = new Map(rows.map((row) => [row.miner_uid, row.smoothed_score]));
      for (let index = 1; index < leaderboard.length; index++) {
        expect(leaderboard[index].rewards).toBeLessThanOrEqual(leaderboard[index - 1].rewards);
        expect(smoothed.get(leaderboard[index].neuron_uid)!).toBeGreaterThanOrEqual(
          smoothed.get(leaderboard[index - 1].neuron_uid)!,
        );
      }
      const total = leaderboard.reduce((sum, row) => sum + row.rewards, 0);
      expect(Math.abs(total - 1 / 3)).toBeLessThan(1e-12);
    }
  });

  it("the legacy alias low is crypto-24h, and the meta-leaderboard is the mean of the updates' weights", () => {
    expect(world.leaderboardV2("low")).toEqual(world.leaderboardV2("crypto-24h"));
    const rows = world.smoothedScoreRows({
      fromUnix: world.scoringStartUnix,
      toUnix: NOW,
      competition: "crypto-1h",
    });
    const times = [...new Set(rows.map((row) => row.updated_at))];
    expect(times.length).toBeGreaterThanOrEqual(2);
    const sums = new Map<number, number>();
    for (const row of rows)
      sums.set(row.miner_uid, (sums.get(row.miner_uid) ?? 0) + row.reward_weight);
    const meta = world.metaLeaderboard("crypto-1h", 14);
    expect(meta).toHaveLength(sums.size);
    for (const row of meta)
      expectRelativelyClose(row.rewards, sums.get(row.neuron_uid)! / times.length);
    for (let index = 1; index < meta.length; index++) {
      expect(meta[index].rewards).toBeLessThanOrEqual(meta[index - 1].rewards);
    }
    expect(world.topMiners("crypto-1h", NOW, 10, 14)).toEqual(
      meta.slice(0, 10).map((row) => row.neuron_uid),
    );
  });

  it("V1 incentives add up the miners' weights across the competitions", () => {
    const incentives = new Map<number, number>();
    for (const competition of ["crypto-1h", "crypto-24h", "com-equ-24h"] as const) {
      for (const row of world.leaderboardV2(competition)) {
        incentives.set(row.neuron_uid, (incentives.get(row.neuron_uid) ?? 0) + row.rewards);
      }
    }
    const v1 = world.leaderboardV1();
    expect(v1.length).toBe(world.minerUids.length);
    for (const row of v1) {
      expectRelativelyClose(row.incentive, incentives.get(row.neuron_uid) ?? 0);
      expect(row.rank).toBeLessThanOrEqual(1);
    }
    expect(v1[0].rank).toBe(1);
  });

  it("the ensemble pools the first 10 miners of the meta-leaderboard with a valid, positive submission", () => {
    const start = world.latestPromptStart("BTC", "24h")!;
    const ensemble = world.ensemble("BTC", "24h", start);
    const expectedUids = world
      .metaLeaderboard("crypto-24h", 14)
      .map((row) => row.neuron_uid)
      .filter((uid) => {
        const submission = world.predictionSet(uid, "BTC", start, 300, 86400);
        return submission.status === "valid" && submission.values!.every((price) => price > 0);
      })
      .slice(0, 10);
    expect(ensemble.minerUids).toEqual(expectedUids);
    expect(ensemble.paths).toHaveLength(10 * 1000);
    expect(ensemble.pointCount).toBe(289);
    const third = rowsOf(world.predictionSet(expectedUids[2], "BTC", start, 300, 86400));
    expect(Array.from(ensemble.paths[2 * 1000 + 17])).toEqual(third[17]);
  });

  it("multi-asset minutes list the assets scored in one minute, in save order", () => {
    const minutes = world.multiAssetMinutes(world.scoringStartUnix, NOW, 86400);
    expect(minutes.length).toBeGreaterThan(0);
    for (const minute of minutes) {
      expect(minute.assets.length).toBeGreaterThanOrEqual(2);
      for (const asset of minute.assets) {
        const rows = world.scoreRows({
          asset,
          horizon: "24h",
          fromUnix: unix(minute.scored_time),
          toUnix: unix(minute.scored_time),
        });
        expect(rows.length).toBeGreaterThan(0);
      }
    }
  });

  it("no scores exist before the validator began scoring", () => {
    expect(
      world.scoreRows({
        asset: "BTC",
        horizon: "24h",
        fromUnix: NOW - 5 * 86400,
        toUnix: world.scoringStartUnix,
      }),
    ).toEqual([]);
    expect(world.leaderboardV2("crypto-24h", world.scoringStartUnix)).toEqual([]);
    const start = world.latestPromptStart("BTC", "24h", world.scoringStartUnix)!;
    expect(world.ensemble("BTC", "24h", start, world.scoringStartUnix).minerUids).toEqual([]);
  });
});

describe("the validator (before 2026-06-23 and 2026-07-16)", () => {
  it("scores with the legacy p90 rule and ranks the two competitions low and high", () => {
    const now = Date.UTC(2026, 2, 1, 10, 49) / 1000;
    const world = createWorld({ seed: 43, nowUnix: now, scoringMinutes: 10 });
    const leaderboard = world.leaderboardV2("crypto-24h");
    expect(leaderboard.length).toBeGreaterThan(0);
    const rows = world.smoothedScoreRows({ fromUnix: world.scoringStartUnix, toUnix: now });
    expect(new Set(rows.map((row) => row.prompt_name))).toEqual(new Set(["low", "high"]));
    const total = leaderboard.reduce((sum, row) => sum + row.rewards, 0);
    expect(Math.abs(total - 0.5)).toBeLessThan(1e-12);
    const scoreRows = world.scoreRows({
      asset: "TSLAX",
      horizon: "24h",
      fromUnix: world.scoringStartUnix,
      toUnix: now,
    });
    const lastTime = scoreRows[scoreRows.length - 1].scored_time;
    const prompt = scoreRows.filter((row) => row.scored_time === lastTime);
    const expected = promptScores(
      prompt.map((row) => row.crps),
      "legacy-p90",
    )!;
    expect(prompt.map((row) => row.prompt_score)).toEqual(expected.scores);
  });
});
