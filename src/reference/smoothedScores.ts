/**
 * Smoothed scores (the validator's scoring rules): per miner, the asset-coefficient-weighted mean of its prompt
 * scores over a look-back window, with late joiners back-filled with each earlier prompt's worst
 * score. Follows the validator's `prepare_df_for_moving_average` and `compute_smoothed_score`.
 */

import { assetCoefficient } from "../domain/assetCoefficients.ts";

/**
 * One scored prompt of a competition, as {@link smoothedScores} reads it.
 * @example
 * const prompt: ScoredPrompt = {
 *   scoredTimeUnix: 1784246400, asset: "BTC", worstScore: 40,
 *   minerScores: [{ minerUid: 1, promptScore: 0 }, { minerUid: 2, promptScore: 12.5 }],
 * };
 */
export interface ScoredPrompt {
  /** start + length, unix seconds. */
  readonly scoredTimeUnix: number;
  /** Asset symbol as the validator stores it (selects the coefficient). */
  readonly asset: string;
  /** The prompt's worst score, {@link PromptScores.worstScore} (fill value − lowest). */
  readonly worstScore: number;
  /** The miners scored on this prompt and their prompt scores. */
  readonly minerScores: readonly { readonly minerUid: number; readonly promptScore: number }[];
}

/**
 * Smoothed score per miner at the update made at `updateUnix`, over the prompts scored in
 * (updateUnix − windowDays·86400, updateUnix − 60 s) (the validator's window):
 * L = Σ c(asset)·S / Σ c(asset) over the miner's prompt scores S in the window (plus back-fill),
 * c from {@link assetCoefficient}. Lower is better.
 *
 * Back-fill (as the validator does it): a miner whose first score in the window comes after the
 * window's earliest scored time is "new"; for every distinct scored time before its first one it
 * gets one extra row, score = worstScore and asset = asset of the FIRST prompt (in input order)
 * with that scored time. Choice, and a difference from "for each earlier prompt" in the validator's scoring rules:
 * the validator keys its back-fill by scored time, so when several assets are scored in the same
 * minute a new miner gets one row for that minute, not one per prompt. Pass prompts sharing a
 * scored time in the order the validator saved them (the multi-asset minute row's `assets`).
 * Miners present at the window's earliest time are never back-filled. NaN prompt scores are
 * dropped; a miner left with no scores gets +Infinity (the validator's "no valid scores").
 * Keys are the callers' miner ids; the validator groups by miner (hotkey), so give distinct ids to
 * distinct hotkeys that held the same uid within the window.
 * Throws `RangeError` for a non-positive window or a non-finite update time.
 * @example smoothedScores(prompts, Date.UTC(2026, 6, 20) / 1000, 10) // => Map { 1 => 0, 2 => 12.5 }
 */
export function smoothedScores(
  prompts: readonly ScoredPrompt[],
  updateUnix: number,
  windowDays: number,
): Map<number, number> {
  if (!Number.isFinite(updateUnix)) {
    throw new RangeError(`smoothedScores requires a finite updateUnix, got ${updateUnix}`);
  }
  if (!(windowDays > 0 && Number.isFinite(windowDays))) {
    throw new RangeError(`smoothedScores requires a positive windowDays, got ${windowDays}`);
  }
  const windowStartUnix = updateUnix - windowDays * 86400;
  const windowEndUnix = updateUnix - 60;
  const inWindow = prompts.filter(
    (prompt) => prompt.scoredTimeUnix > windowStartUnix && prompt.scoredTimeUnix < windowEndUnix,
  );
  if (inWindow.length === 0) return new Map();

  // Rows (miner, asset, score) from the prompts; the first appearance of each miner.
  const rows: { minerUid: number; asset: string; promptScore: number }[] = [];
  const firstTimeOfMiner = new Map<number, number>();
  for (const prompt of inWindow) {
    for (const { minerUid, promptScore } of prompt.minerScores) {
      rows.push({ minerUid, asset: prompt.asset, promptScore });
      const first = firstTimeOfMiner.get(minerUid);
      if (first === undefined || prompt.scoredTimeUnix < first) {
        firstTimeOfMiner.set(minerUid, prompt.scoredTimeUnix);
      }
    }
  }

  // One back-fill source per distinct scored time: the first prompt (input order) at that time.
  const firstPromptAtTime = new Map<number, ScoredPrompt>();
  for (const prompt of inWindow) {
    if (!firstPromptAtTime.has(prompt.scoredTimeUnix)) {
      firstPromptAtTime.set(prompt.scoredTimeUnix, prompt);
    }
  }
  const earliestTime = Math.min(...firstPromptAtTime.keys());
  for (const [minerUid, firstTime] of firstTimeOfMiner) {
    if (firstTime <= earliestTime) continue;
    for (const [time, prompt] of firstPromptAtTime) {
      if (time < firstTime) {
        rows.push({ minerUid, asset: prompt.asset, promptScore: prompt.worstScore });
      }
    }
  }

  // L = Σ c·S / Σ c per miner, over rows with a score.
  const weightedSums = new Map<number, number>();
  const coefficientSums = new Map<number, number>();
  for (const { minerUid, asset, promptScore } of rows) {
    if (Number.isNaN(promptScore)) continue;
    const coefficient = assetCoefficient(asset);
    weightedSums.set(minerUid, (weightedSums.get(minerUid) ?? 0) + coefficient * promptScore);
    coefficientSums.set(minerUid, (coefficientSums.get(minerUid) ?? 0) + coefficient);
  }
  const result = new Map<number, number>();
  for (const minerUid of firstTimeOfMiner.keys()) {
    const coefficientSum = coefficientSums.get(minerUid);
    result.set(
      minerUid,
      coefficientSum === undefined ? Infinity : weightedSums.get(minerUid)! / coefficientSum,
    );
  }
  return result;
}
