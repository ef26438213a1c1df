import { describe, expect, it } from "vitest";
import { createRandom } from "../../src/reference/random.ts";
import {
  smoothedScores as referenceSmoothedScores,
  type ScoredPrompt,
} from "../../src/reference/smoothedScores.ts";
import { smoothedScoreHistory } from "../../src/scoring/smoothedHistory.ts";
import { smoothedScores } from "../../src/scoring/smoothedScores.ts";
import type { CompetitionName } from "../../src/domain/competitions.ts";

// Coefficients as printed in DOMAIN.md §3 (not read from the table under test).
const ETH = 0.7064366394033871;
const XAU = 1.7370922597118699;

const END = Date.UTC(2026, 6, 20) / 1000;
/** The validator's update after the minute END (END + 120 s). */
const UPDATE = END + 120;

/**
 * Random scored prompts over 14 days before END (so windows of 3, 5 and 10 days cut them): several
 * assets (one unknown), minutes with several assets, miners that join late, NaN scores.
 */
function randomPrompts(seed: number, promptCount: number, minerCount: number): ScoredPrompt[] {
  const random = createRandom(seed);
  const assets = ["BTC", "ETH", "XAU", "SOL", "SP500", "DOGE"];
  const joinTimes = Array.from(
    { length: minerCount },
    (_, miner) => END - 14 * 86400 + (miner % 3 === 0 ? random.uniform() * 12 * 86400 : 0),
  );
  const prompts: ScoredPrompt[] = [];
  let time = END - 14 * 86400;
  for (let index = 0; index < promptCount; index++) {
    if (random.uniform() < 0.7) time += Math.floor(random.uniform() * 2 * 3600);
    const minerScores = [];
    for (let miner = 0; miner < minerCount; miner++) {
      if (joinTimes[miner] > time || random.uniform() < 0.05) continue;
      const promptScore = random.uniform() < 0.02 ? NaN : Math.abs(50 * random.normal());
      minerScores.push({ minerUid: 1000 + miner, promptScore });
    }
    prompts.push({
      scoredTimeUnix: Math.min(time, END),
      asset: assets[Math.floor(random.uniform() * assets.length)],
      worstScore: 100 + 50 * random.uniform(),
      minerScores,
    });
  }
  return prompts;
}

const WINDOWS: [CompetitionName, number][] = [
  ["crypto-1h", 5],
  ["crypto-24h", 10],
  ["com-equ-24h", 10],
  ["low", 10],
  ["high", 3],
];

describe("smoothedScores", () => {
  it("smoothedScores weighs by asset coefficient and back-fills a late miner once per earlier scored time", () => {
    const scores = (entries: [number, number][]) =>
      entries.map(([minerUid, promptScore]) => ({ minerUid, promptScore }));
    const prompts: ScoredPrompt[] = [
      {
        scoredTimeUnix: END - 5 * 86400,
        asset: "BTC",
        worstScore: 9,
        minerScores: scores([[1, 7]]),
      },
      { scoredTimeUnix: END - 3000, asset: "ETH", worstScore: 40, minerScores: scores([[1, 4]]) },
      { scoredTimeUnix: END - 3000, asset: "BTC", worstScore: 30, minerScores: scores([[1, 2]]) },
      {
        scoredTimeUnix: END,
        asset: "XAU",
        worstScore: 20,
        minerScores: scores([
          [1, 1],
          [2, 5],
        ]),
      },
    ];
    // The update after the minute END pools (UPDATE − 5 days, UPDATE − 60 s) for crypto-1h: the
    // first prompt is out, the ones at END are in.
    const result = smoothedScores(prompts, {
      competition: "crypto-1h",
      now: new Date(UPDATE * 1000),
    });
    expect([...result.keys()]).toEqual([1, 2]);
    expect(result.get(1)).toBeCloseTo((ETH * 4 + 2 + XAU * 1) / (ETH + 1 + XAU), 13);
    // Miner 2 joins at END: one back-fill row for END − 3000, from its first prompt (ETH, 40).
    expect(result.get(2)).toBeCloseTo((ETH * 40 + XAU * 5) / (ETH + XAU), 13);
    // crypto-24h looks back 10 days: the first prompt counts, and miner 2 gets two rows.
    const longer = smoothedScores(prompts, { competition: "crypto-24h", now: UPDATE });
    expect(longer.get(1)).toBeCloseTo((7 + ETH * 4 + 2 + XAU) / (1 + ETH + 1 + XAU), 13);
    expect(longer.get(2)).toBeCloseTo((9 + ETH * 40 + XAU * 5) / (1 + ETH + XAU), 13);
  });

  for (const [competition, windowDays] of WINDOWS) {
    it(`smoothedScores equals the reference bit for bit on random prompts (${competition}, ${windowDays} days)`, () => {
      for (const seed of [1, 2, 3]) {
        const prompts = randomPrompts(seed * 7 + windowDays, 400, 30);
        const expected = referenceSmoothedScores(prompts, UPDATE, windowDays);
        const actual = smoothedScores(prompts, { competition, now: UPDATE });
        expect([...actual.entries()]).toEqual([...expected.entries()]);
        expect(actual.size).toBeGreaterThan(20);
      }
    });
  }

  it("smoothedScores gives +Infinity to a miner with only NaN scores and an empty map for an empty window", () => {
    const prompts: ScoredPrompt[] = [
      {
        scoredTimeUnix: END,
        asset: "BTC",
        worstScore: 5,
        minerScores: [
          { minerUid: 1, promptScore: 3 },
          { minerUid: 2, promptScore: NaN },
        ],
      },
    ];
    expect(smoothedScores(prompts, { competition: "crypto-1h", now: UPDATE }).get(2)).toBe(
      Infinity,
    );
    // At END + 60 the prompt scored at END is not yet pooled (the window ends before now − 60 s).
    expect(smoothedScores(prompts, { competition: "crypto-1h", now: END + 60 }).size).toBe(0);
  });

  it("smoothedScores rejects a window end in milliseconds and an unknown competition", () => {
    expect(() => smoothedScores([], { competition: "crypto-1h", now: END * 1000 })).toThrow(
      `smoothedScores requires now in Unix seconds, got ${END * 1000} (milliseconds? divide by 1000)`,
    );
    expect(() => smoothedScores([], { competition: "weekly" as never, now: END })).toThrow(
      /competitionParameters requires one of crypto-1h/,
    );
  });

  for (const [competition, windowDays] of WINDOWS) {
    it(`smoothedScoreHistory equals smoothedScores at every update (${competition}, ${windowDays} days)`, () => {
      const prompts = randomPrompts(windowDays * 13, 400, 30);
      // Updates at every scored minute + 120 s, plus some off-grid times and an empty window.
      const updates = [
        ...new Set([
          END - 20 * 86400,
          ...prompts.map((prompt) => prompt.scoredTimeUnix + 120),
          ...prompts.map((prompt) => prompt.scoredTimeUnix + 60),
        ]),
      ].sort((a, b) => a - b);
      const history = smoothedScoreHistory(prompts, { competition, updates });
      expect(history.map((update) => update.timeUnix)).toEqual(updates);
      let compared = 0;
      for (const update of history) {
        const expected = smoothedScores(prompts, { competition, now: update.timeUnix });
        expect([...update.scores.keys()].sort()).toEqual([...expected.keys()].sort());
        for (const [miner, score] of expected) {
          const actual = update.scores.get(miner)!;
          if (!Number.isFinite(score)) expect(actual).toBe(score);
          else expect(Math.abs(actual - score)).toBeLessThanOrEqual(1e-11 * Math.max(1, score));
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(1000);
      expect(() => smoothedScoreHistory(prompts, { competition, updates: [END, END - 1] })).toThrow(
        `smoothedScoreHistory requires updates in ascending order, got ${END} then ${END - 1}`,
      );
    });
  }
});
