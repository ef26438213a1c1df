/**
 * Validator-exact scoring of one prompt for 250 miners (issue 7: ≤ 0.5 s on this 2-core machine)
 * on two worker threads (`ScoringThreads`), beside the calling thread and a numpy/properscoring
 * peer.
 *
 * The 250 miners cycle through the bench data's 10 miners (uids 0 … 249), read as the score job
 * reads them: from prediction set records by `pathSetFromPrediction` into shared memory, which the
 * threads read in place (`PathSetAllocation`). Ordinary Float64Arrays, which `ScoringThreads`
 * first copies into shared memory on the calling thread, have a row of their own. The threads
 * start once, at load (a thread takes ~0.3 s to start, paid once per process, not per prompt; the
 * warm-up runs pay it), and each run awaits `scoreMiners`.
 *
 * The bench prompts start 2026-02-25, before the 1h gap fix (2026-03-11) and the volatility CRPS:
 * the 1h cases set the dated rules explicitly (`gapsFirstChangeOnly: true`, the current 121
 * terms), and the volatility CRPS rows add `volatility: true` (crypto-1h's 17 blocks), so that
 * the two are compared on the same prompt in the same process (issue 19: ≤ 1.3× the price-only
 * time).
 */

import { pathSetFromPrediction } from "../../src/paths/fromPrediction.ts";
import type { PathSet } from "../../src/paths/pathSet.ts";
import { promptCrps } from "../../src/reference/promptCrps.ts";
import { blockVolatilitiesOf } from "../../src/reference/volatilityCrps.ts";
import { pathBlockVolatilities } from "../../src/core/pathBlockVolatilities.ts";
import { gatherReturns } from "../../src/scoring/gatherTerms.ts";
import { scorePrompt } from "../../src/scoring/scorePrompt.ts";
import { scoreMiners } from "../../src/scoring/scoreMiners.ts";
import { ScoringThreads } from "../../src/scoring/scoringThreads.ts";
import { SCORING_INTERVALS_1H, SCORING_INTERVALS_24H } from "../../src/domain/intervals.ts";
import type { RealizedPath } from "../../src/domain/records/validation.ts";
import { defineSuite, MINERS, PATHS_PER_MINER, POINTS, TIME_INCREMENT } from "../harness.ts";

/** Miners scored per prompt: the size of the network's leaderboard. */
const PROMPT_MINERS = 250;
const START_TIME = 1772063100;
/** Points of the 1h prompts cut from the 24h bench paths (their first 61 points, read as minutes). */
const HOUR_POINTS = 61;

const threads = new ScoringThreads(2);

/** The realized path record of `prices`. */
function realizedOf(prices: Float64Array, timeIncrement: number): RealizedPath {
  return {
    asset: "BTC",
    real_prices: Array.from(prices),
    start_time: new Date(START_TIME * 1000).toISOString(),
    time_increment: timeIncrement,
    time_length: (prices.length - 1) * timeIncrement,
  };
}

/**
 * 250 path sets cycling through `miners`: with `read`, each miner's prediction set record read by
 * `pathSetFromPrediction` into shared memory, as the score job reads them; otherwise the ordinary
 * Float64Arrays themselves.
 */
function promptPathSets(
  miners: readonly Float64Array[],
  nPoints: number,
  timeIncrement: number,
  read: boolean,
): PathSet[] {
  const values = miners.map((miner, minerUid) => {
    if (!read) return miner;
    const record = {
      miner_uid: minerUid,
      start_time: START_TIME,
      predictions: Array.from({ length: PATHS_PER_MINER }, (_, path) =>
        Array.from(miner.subarray(path * nPoints, (path + 1) * nPoints)),
      ),
    };
    const prompt = { asset: "BTC", timeIncrement, timeLength: (nPoints - 1) * timeIncrement };
    return pathSetFromPrediction(record, prompt, { shared: true }).values;
  });
  return Array.from({ length: PROMPT_MINERS }, (_, minerUid) => ({
    asset: "BTC",
    minerUid,
    startTime: START_TIME,
    timeIncrement,
    nPaths: PATHS_PER_MINER,
    nPoints,
    values: values[minerUid % MINERS],
  }));
}

/** The first `nPoints` points of every path of `values` (path-major). */
function firstPoints(values: Float64Array, nPoints: number): Float64Array {
  const out = new Float64Array(PATHS_PER_MINER * nPoints);
  for (let path = 0; path < PATHS_PER_MINER; path++) {
    out.set(values.subarray(path * POINTS, path * POINTS + nPoints), path * nPoints);
  }
  return out;
}

export const suite = defineSuite({
  name: "scoring",
  cases: (data) => {
    const day = promptPathSets(data.miners, POINTS, TIME_INCREMENT, true);
    const dayOrdinary = promptPathSets(data.miners, POINTS, TIME_INCREMENT, false);
    const dayRealized = realizedOf(data.realized, TIME_INCREMENT);
    const hourMiners = data.miners.map((miner) => firstPoints(miner, HOUR_POINTS));
    const hour = promptPathSets(hourMiners, HOUR_POINTS, 60, true);
    const hourRealized = realizedOf(data.realized.subarray(0, HOUR_POINTS), 60);
    const crypto24h = { competition: "crypto-24h" } as const;
    const crypto1h = { competition: "crypto-1h" } as const;
    const priceOnly = { gapsFirstChangeOnly: true, volatility: false } as const;
    const withVolatility = { gapsFirstChangeOnly: true, volatility: true } as const;
    // The 1h miner's 1-step returns, step-major as the kernel gathers them, for the block rows.
    const hourReturns = new Float64Array(PATHS_PER_MINER * (HOUR_POINTS - 1));
    gatherReturns(
      hour[0].values,
      PATHS_PER_MINER,
      HOUR_POINTS,
      1,
      0,
      HOUR_POINTS - 1,
      false,
      hourReturns,
    );
    const blockVolatilities = new Float64Array(PATHS_PER_MINER * 17);
    const paths = Array.from({ length: PATHS_PER_MINER }, (_, path) =>
      Array.from(data.miner0.subarray(path * POINTS, (path + 1) * POINTS)),
    );
    const realizedPrices = Array.from(data.realized);
    const hourPaths = paths.map((path) => path.slice(0, HOUR_POINTS));
    const hourPrices = realizedPrices.slice(0, HOUR_POINTS);
    return [
      {
        name: "scoreMiners, 24h prompt (345 terms), 2 threads, path sets as read",
        size: "250 × 1,000 × 289",
        pathlab: () => threads.scoreMiners(day, dayRealized, crypto24h),
        peer: { script: "scoring", case: "validator_24h_250" },
        targetMs: 500,
      },
      {
        name: "  same, ordinary Float64Arrays, 2 threads",
        size: "250 × 1,000 × 289",
        pathlab: () => threads.scoreMiners(dayOrdinary, dayRealized, crypto24h),
        note: "staging copies",
      },
      {
        name: "  same, parity mode (properscoring's loop)",
        size: "250 × 1,000 × 289",
        pathlab: () => threads.scoreMiners(day, dayRealized, crypto24h, { method: "parity" }),
      },
      {
        name: "  same, on the calling thread (no threads)",
        size: "250 × 1,000 × 289",
        pathlab: () => scoreMiners(day, dayRealized, crypto24h),
        note: "as on a unit pool thread",
      },
      {
        name: "scoreMiners with calibration (PIT, coverage, step CRPS)",
        size: "250 × 1,000 × 289",
        pathlab: () => threads.scoreMiners(day, dayRealized, crypto24h, { calibration: true }),
      },
      {
        name: "scoreMiners, 1h prompt (121 terms), 2 threads",
        size: "250 × 1,000 × 61",
        pathlab: () => threads.scoreMiners(hour, hourRealized, crypto1h, priceOnly),
        peer: { script: "scoring", case: "validator_1h_250" },
      },
      {
        name: "scoreMiners, 1h prompt with volatility CRPS (+17 blocks), 2 threads",
        size: "250 × 1,000 × 61",
        pathlab: () => threads.scoreMiners(hour, hourRealized, crypto1h, withVolatility),
        peer: { script: "scoring", case: "validator_1h_vol_250" },
        note: "≤ 1.3× the row above",
      },
      {
        name: "scorePrompt, one miner, 24h prompt",
        size: "1,000 × 289",
        pathlab: () => scorePrompt(day[0], dayRealized, crypto24h),
        naive: () => promptCrps(paths, realizedPrices, TIME_INCREMENT, SCORING_INTERVALS_24H),
        peer: { script: "scoring", case: "validator_24h_1" },
        note: "naive = src/reference/promptCrps.ts",
      },
      {
        name: "scorePrompt, one miner, 1h prompt",
        size: "1,000 × 61",
        pathlab: () => scorePrompt(hour[0], hourRealized, crypto1h, priceOnly),
        naive: () => promptCrps(hourPaths, hourPrices, 60, SCORING_INTERVALS_1H, priceOnly),
        peer: { script: "scoring", case: "validator_1h_1" },
      },
      {
        name: "scorePrompt, one miner, 1h prompt with volatility CRPS",
        size: "1,000 × 61",
        pathlab: () => scorePrompt(hour[0], hourRealized, crypto1h, withVolatility),
        naive: () => promptCrps(hourPaths, hourPrices, 60, SCORING_INTERVALS_1H, withVolatility),
        peer: { script: "scoring", case: "validator_1h_vol_1" },
        note: "≤ 1.3× the row above",
      },
      {
        name: "  same, parity mode (two-pass volatilities, properscoring's loop)",
        size: "1,000 × 61",
        pathlab: () =>
          scorePrompt(hour[0], hourRealized, crypto1h, { ...withVolatility, method: "parity" }),
      },
      {
        name: "  its block volatilities (merged: 5-minute blocks, then 15 and 60 merged)",
        size: "1,000 × 17 blocks",
        pathlab: () =>
          pathBlockVolatilities(hourReturns, PATHS_PER_MINER, {
            stepsPerBlock: [60, 15, 5],
            merge: true,
            out: blockVolatilities,
          }),
        naive: () =>
          hourPaths.map((path) => [60, 15, 5].map((steps) => blockVolatilitiesOf(path, steps))),
        note: "naive = src/reference",
      },
      {
        name: "  variant: every block two-pass (parity mode)",
        size: "1,000 × 17 blocks",
        pathlab: () =>
          pathBlockVolatilities(hourReturns, PATHS_PER_MINER, {
            stepsPerBlock: [60, 15, 5],
            merge: false,
            out: blockVolatilities,
          }),
        note: "parity mode only",
      },
    ];
  },
});
