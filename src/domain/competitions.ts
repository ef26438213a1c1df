/**
 * The validator's competitions and their parameters by era (the validator's scoring rules): which prompts are
 * pooled, over how many days the smoothed score looks back, the softmax β, and the competition's
 * share of the rewards.
 */

import { COMPETITION_ASSETS, type Competition, type LegacyPromptName } from "./assets.ts";
import { SCORING_INTERVALS_1H, SCORING_INTERVALS_24H } from "./intervals.ts";

/**
 * Names of competitions: the three current ones, and `low` (24h) / `high` (1h) of the
 * two-competition era before 2026-06-23.
 * @example const name: CompetitionName = "crypto-1h";
 */
export type CompetitionName = Competition | LegacyPromptName;

/**
 * Parameters of one competition in one era.
 * @example CURRENT_COMPETITIONS[0].softmaxBeta // => -0.3
 */
export interface CompetitionParameters {
  readonly name: CompetitionName;
  /** Prompt length: `1h` (60 s steps) or `24h` (300 s steps). */
  readonly horizon: "1h" | "24h";
  /** Assets whose prompts the competition pools; `undefined` = every asset of that horizon. */
  readonly assets: readonly string[] | undefined;
  /** Look-back of the smoothed score, in days. */
  readonly windowDays: number;
  /** β of softmax(β·L); negative, so a lower smoothed score earns more. */
  readonly softmaxBeta: number;
  /** Factor applied to the competition's softmax weights (its share of all rewards). */
  readonly rewardShare: number;
  /** Scoring intervals of its prompts (name → seconds). */
  readonly scoringIntervals: Readonly<Record<string, number>>;
}

/**
 * The current competitions (from 2026-06-23): crypto-1h, crypto-24h, com-equ-24h, each × 1/3.
 * @example CURRENT_COMPETITIONS.map((competition) => competition.windowDays) // => [5, 10, 10]
 */
export const CURRENT_COMPETITIONS: readonly CompetitionParameters[] = Object.freeze([
  {
    name: "crypto-1h",
    horizon: "1h",
    assets: COMPETITION_ASSETS["crypto-1h"],
    windowDays: 5,
    softmaxBeta: -0.3,
    rewardShare: 1 / 3,
    scoringIntervals: SCORING_INTERVALS_1H,
  },
  {
    name: "crypto-24h",
    horizon: "24h",
    assets: COMPETITION_ASSETS["crypto-24h"],
    windowDays: 10,
    softmaxBeta: -0.15,
    rewardShare: 1 / 3,
    scoringIntervals: SCORING_INTERVALS_24H,
  },
  {
    name: "com-equ-24h",
    horizon: "24h",
    assets: COMPETITION_ASSETS["com-equ-24h"],
    windowDays: 10,
    softmaxBeta: -0.15,
    rewardShare: 1 / 3,
    scoringIntervals: SCORING_INTERVALS_24H,
  },
]);

/**
 * The competitions before 2026-06-23: `low` (every 24h prompt; β −0.1 over 10 days) and `high`
 * (every 1h prompt; β −0.2 over 3 days), each × 0.5.
 * @example TWO_COMPETITIONS.map((competition) => competition.name) // => ["low", "high"]
 */
export const TWO_COMPETITIONS: readonly CompetitionParameters[] = Object.freeze([
  {
    name: "low",
    horizon: "24h",
    assets: undefined,
    windowDays: 10,
    softmaxBeta: -0.1,
    rewardShare: 0.5,
    scoringIntervals: SCORING_INTERVALS_24H,
  },
  {
    name: "high",
    horizon: "1h",
    assets: undefined,
    windowDays: 3,
    softmaxBeta: -0.2,
    rewardShare: 0.5,
    scoringIntervals: SCORING_INTERVALS_1H,
  },
]);
