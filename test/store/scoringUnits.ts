/**
 * Rows of the scoring tables for the store tests: one scored prompt (BTC, 2026-02-25 23:45) with a
 * service row, a miner's score and its calibration, and one competition's smoothed scores.
 */

import type { ScoredPromptEntry } from "../../src/store/scoredPrompts.ts";
import type { SmoothedScoreEntry } from "../../src/store/smoothedScoreRows.ts";
import { FORECAST_START } from "./units.ts";

/** One scored BTC prompt (2026-02-25) with a service row, a miner's score and its calibration. */
export const SCORED_PROMPT: ScoredPromptEntry = {
  asset: "BTC",
  timeIncrement: 300,
  timeLength: 3600,
  startTimeUnix: FORECAST_START,
  competition: "crypto-1h",
  scoreRule: "current",
  realizedPrices: [68000, null, 68010.5],
  serviceRows: [
    {
      asset: "BTC",
      crps: 81.25,
      miner_uid: 17,
      prompt_score: 12,
      scored_time: "2026-02-26T00:45:00Z",
      time_length: 3600,
    },
  ],
  minerScores: [
    {
      source: "network",
      minerUid: 17,
      crps: 81.25,
      intervals: { "5min": 3.5 },
      promptScore: 12,
      invalidReason: null,
      serviceCrps: 81.25,
      servicePromptScore: 12,
      verdict: "agree",
      calibration: {
        horizon: "1h",
        nPaths: 100,
        observedPoints: 12,
        pitCounts: [1, 2, 3],
        levels: [0.5, 0.9],
        coveredCounts: [6, 11],
        widthSums: [10, 20],
        relativeWidthSumsBps: [1.5, 3],
        stepCrpsBps: [0.25, 0.5],
      },
    },
  ],
};

/** Smoothed scores of one miner (write them for `crypto-1h` at a time of your choosing). */
export const SMOOTHED_SCORES: readonly SmoothedScoreEntry[] = [
  {
    source: "network",
    minerUid: 17,
    smoothedScore: 12,
    rewardWeight: 1,
    serviceSmoothedScore: 12,
    serviceRewardWeight: 1,
    verdict: "agree",
  },
];
