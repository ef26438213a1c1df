import { describe, expect, it } from "vitest";
import { assetCoefficient } from "../../src/domain/assetCoefficients.ts";
import { smoothedScores, type ScoredPrompt } from "../../src/reference/smoothedScores.ts";

// Coefficients as printed in DOMAIN.md §3 (not read from the table under test).
const ETH = 0.7064366394033871;
const XAU = 1.7370922597118699;
const SOL = 0.6310037175639559;

describe("smoothedScores", () => {
  const end = Date.UTC(2026, 6, 17) / 1000;
  // The update after the minute `end`: it pools the prompts scored in (update − window, update − 60).
  const update = end + 120;
  const scores = (entries: [number, number][]) =>
    entries.map(([minerUid, promptScore]) => ({ minerUid, promptScore }));
  const prompts: ScoredPrompt[] = [
    {
      scoredTimeUnix: end - 100_000,
      asset: "BTC",
      worstScore: 99,
      minerScores: scores([[1, 1000]]),
    },
    {
      scoredTimeUnix: end - 86_400,
      asset: "BTC",
      worstScore: 99,
      minerScores: scores([[1, 1000]]),
    },
    {
      scoredTimeUnix: end - 80_000,
      asset: "BTC",
      worstScore: 40,
      minerScores: scores([
        [1, 0],
        [2, 10],
      ]),
    },
    {
      scoredTimeUnix: end - 80_000,
      asset: "ETH",
      worstScore: 30,
      minerScores: scores([
        [1, 5],
        [2, 0],
      ]),
    },
    {
      scoredTimeUnix: end - 40_000,
      asset: "XAU",
      worstScore: 20,
      minerScores: scores([
        [1, 4],
        [2, 8],
        [3, 0],
      ]),
    },
    {
      scoredTimeUnix: end,
      asset: "SOL",
      worstScore: 10,
      minerScores: scores([
        [1, 2],
        [3, 6],
      ]),
    },
  ];

  it("smoothedScores is the coefficient-weighted mean of prompt scores in (update − window, update − 60 s)", () => {
    const result = smoothedScores(prompts, update, 1);
    // The prompts at end − 100000 and at end − 86400 lie before the window; the one at end is in.
    expect(result.get(1)).toBeCloseTo(
      (0 + ETH * 5 + XAU * 4 + SOL * 2) / (1 + ETH + XAU + SOL),
      12,
    );
    expect(result.get(2)).toBeCloseTo((10 + ETH * 0 + XAU * 8) / (1 + ETH + XAU), 12);
  });

  it("smoothedScores back-fills a miner that joined inside the window with each earlier scored time's worst score", () => {
    // Miner 3 first appears at end − 40000: one back-fill row for end − 80000, taken from the first
    // prompt at that time (BTC, worst 40) — not one per prompt of that minute.
    const result = smoothedScores(prompts, update, 1);
    expect(result.get(3)).toBeCloseTo((1 * 40 + XAU * 0 + SOL * 6) / (1 + XAU + SOL), 12);
  });

  it("smoothedScores does not back-fill miners present at the window's first scored time", () => {
    // Miner 2 misses the SOL prompt at the end; being present from the start, it is not filled.
    const result = smoothedScores(prompts, update, 1);
    expect(result.get(2)).toBeCloseTo((10 + XAU * 8) / (1 + ETH + XAU), 12);
  });

  it("smoothedScores weighs an unknown asset 1.0 and drops NaN scores, leaving +Infinity when none remain", () => {
    expect(assetCoefficient("DOGE")).toBe(1);
    const result = smoothedScores(
      [
        {
          scoredTimeUnix: end - 10,
          asset: "DOGE",
          worstScore: 5,
          minerScores: scores([
            [1, 3],
            [2, NaN],
          ]),
        },
        {
          scoredTimeUnix: end,
          asset: "BTC",
          worstScore: 5,
          minerScores: scores([
            [1, 1],
            [2, NaN],
          ]),
        },
      ],
      update,
      1,
    );
    expect(result.get(1)).toBeCloseTo(2, 15);
    expect(result.get(2)).toBe(Infinity);
  });

  it("smoothedScores leaves out the prompts scored in the last minute before the update", () => {
    // An update at end + 60 pools prompts scored before end: the prompts at end are not yet in.
    const early = smoothedScores(prompts, end + 60, 1);
    expect(early.get(1)).toBeCloseTo((0 + ETH * 5 + XAU * 4) / (1 + ETH + XAU), 12);
  });
});
