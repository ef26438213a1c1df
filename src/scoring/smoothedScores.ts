/**
 * Smoothed scores (the validator's scoring rules): per miner, the asset-coefficient-weighted mean of its prompt
 * scores over a competition's look-back window, with miners that joined inside the window
 * back-filled with each earlier scored time's worst score.
 */

import { assetCoefficient } from "../domain/assetCoefficients.ts";
import type { CompetitionName, CompetitionParameters } from "../domain/competitions.ts";
import { unixSecondsOf } from "./promptScores.ts";
import { UPDATE_GATE_SECONDS } from "../domain/eras.ts";
import { competitionParameters } from "./scoringTarget.ts";

/**
 * One scored prompt of a competition: its scored time, asset, worst score and its miners' prompt
 * scores (from {@link promptScores}).
 * @example
 * const prompt: ScoredPrompt = {
 *   scoredTimeUnix: 1784246400, asset: "BTC", worstScore: 40,
 *   minerScores: [{ minerUid: 1, promptScore: 0 }, { minerUid: 2, promptScore: 12.5 }],
 * };
 */
export interface ScoredPrompt {
  /** start + length, Unix seconds. */
  readonly scoredTimeUnix: number;
  /** Asset symbol as the validator stores it (selects the coefficient; unknown assets weigh 1). */
  readonly asset: string;
  /** The prompt's worst score, {@link PromptScores.worstScore} (fill value − lowest). */
  readonly worstScore: number;
  /** The miners scored on this prompt and their prompt scores. */
  readonly minerScores: readonly { readonly minerUid: number; readonly promptScore: number }[];
}

/**
 * Options of {@link smoothedScores}.
 * @example const options: SmoothedScoreOptions = { competition: "crypto-1h", now: new Date("2026-07-20T00:00:00Z") };
 */
export interface SmoothedScoreOptions {
  /** The competition (by name, or its parameters): its `windowDays` sets the look-back. */
  readonly competition: CompetitionName | CompetitionParameters;
  /** The time of the update (a Date or Unix seconds): prompts scored before `now − 60 s` count. */
  readonly now: Date | number;
}

/**
 * Smoothed score per miner at the update made at `now`, over the prompts scored in
 * (now − windowDays·86,400 s, now − 60 s) (the validator's window; the competition's
 * window: crypto-1h 5 days, crypto-24h and com-equ-24h 10, legacy `low` 10 and `high` 3):
 * L = Σ c(asset)·S / Σ c(asset) over the miner's prompt scores S in the window, c the asset
 * coefficient. Lower is better. `prompts` are the competition's scored prompts, in the order the
 * validator saved them.
 * Back-fill, as the validator's `prepare_df_for_moving_average`: a miner whose first score in the
 * window comes after the window's earliest scored time is new; for every distinct scored time
 * before its first one it gets one row, score = worstScore and asset = those of the FIRST prompt
 * (input order) with that scored time (so a minute in which several assets were scored gives one
 * row, not one per prompt). Miners present at the earliest time are never back-filled. NaN scores
 * are dropped; a miner left with none gets +Infinity (the validator's "no valid scores").
 * Keys are the callers' miner ids (give distinct ids to distinct hotkeys that held one uid).
 * Agreement: the same additions in the same order per miner as `src/reference/smoothedScores.ts`,
 * so equal to it bit for bit, and the map lists miners in the same order (first appearance).
 * O(rows + new miners × distinct scored times).
 * Throws `RangeError` for an unknown competition or an invalid `now`.
 * @param prompts - the competition's scored prompts, in the order the validator saved them.
 * @param options - the competition (by name or its parameters) and the time of the update.
 * @example smoothedScores(prompts, { competition: "crypto-24h", now: new Date("2026-07-20T00:00:00Z") }) // => Map { 17 => 12.3, … }
 */
export function smoothedScores(
  prompts: readonly ScoredPrompt[],
  options: SmoothedScoreOptions,
): Map<number, number> {
  const competition =
    typeof options.competition === "string"
      ? competitionParameters(options.competition)
      : options.competition;
  const windowDays = competition.windowDays;
  if (!(windowDays > 0 && windowDays < Infinity)) {
    throw new RangeError(`smoothedScores requires a positive windowDays, got ${windowDays}`);
  }
  const windowEnd = unixSecondsOf("smoothedScores", "now", options.now);
  const windowStart = windowEnd - windowDays * 86400;
  const lastScoredTime = windowEnd - UPDATE_GATE_SECONDS;

  // Per miner, in order of first appearance: running Σ c·S and Σ c over its own rows, added in
  // input order (as the reference adds its rows), and its first scored time.
  const weightedSums = new Map<number, number>();
  const coefficientSums = new Map<number, number>();
  const firstTimes = new Map<number, number>();
  const scoredMiners = new Set<number>();
  // One back-fill source per distinct scored time: the first prompt (input order) at that time.
  const backFillTimes: number[] = [];
  const backFillCoefficients: number[] = [];
  const backFillScores: number[] = [];
  const seenTimes = new Set<number>();
  let earliestTime = Infinity;
  for (const prompt of prompts) {
    const time = prompt.scoredTimeUnix;
    if (!(time > windowStart && time < lastScoredTime)) continue;
    const coefficient = assetCoefficient(prompt.asset);
    if (!seenTimes.has(time)) {
      seenTimes.add(time);
      backFillTimes.push(time);
      backFillCoefficients.push(coefficient);
      backFillScores.push(prompt.worstScore);
      if (time < earliestTime) earliestTime = time;
    }
    for (const { minerUid, promptScore } of prompt.minerScores) {
      const first = firstTimes.get(minerUid);
      if (first === undefined) {
        firstTimes.set(minerUid, time);
        weightedSums.set(minerUid, 0);
        coefficientSums.set(minerUid, 0);
      } else if (time < first) {
        firstTimes.set(minerUid, time);
      }
      if (Number.isNaN(promptScore)) continue;
      scoredMiners.add(minerUid);
      weightedSums.set(minerUid, weightedSums.get(minerUid)! + coefficient * promptScore);
      coefficientSums.set(minerUid, coefficientSums.get(minerUid)! + coefficient);
    }
  }

  const result = new Map<number, number>();
  for (const [minerUid, firstTime] of firstTimes) {
    let weightedSum = weightedSums.get(minerUid)!;
    let coefficientSum = coefficientSums.get(minerUid)!;
    let hasScore = scoredMiners.has(minerUid);
    if (firstTime > earliestTime) {
      for (let index = 0; index < backFillTimes.length; index++) {
        if (backFillTimes[index] >= firstTime || Number.isNaN(backFillScores[index])) continue;
        weightedSum += backFillCoefficients[index] * backFillScores[index];
        coefficientSum += backFillCoefficients[index];
        hasScore = true;
      }
    }
    result.set(minerUid, hasScore ? weightedSum / coefficientSum : Infinity);
  }
  return result;
}
