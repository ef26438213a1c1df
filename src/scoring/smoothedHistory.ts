/**
 * Smoothed scores at every update of a range at once (rank over time), in O(updates × miners)
 * instead of one {@link smoothedScores} pass over the window per update.
 */

import { assetCoefficient } from "../domain/assetCoefficients.ts";
import type { CompetitionName, CompetitionParameters } from "../domain/competitions.ts";
import { competitionParameters } from "./scoringTarget.ts";
import { UPDATE_GATE_SECONDS } from "../domain/eras.ts";
import type { ScoredPrompt } from "./smoothedScores.ts";

/**
 * The smoothed scores after one update, as {@link smoothedScoreHistory} returns them.
 * @example history[0].scores.get(17) // => 12.5
 */
export interface SmoothedUpdate {
  readonly timeUnix: number;
  /** Per miner present in the update's window: its smoothed score (+Infinity without a valid one). */
  readonly scores: Map<number, number>;
}

/** One miner's rows in time order, with running sums (index k = sums of its first k rows). */
interface MinerRows {
  readonly timeIndexes: number[];
  readonly weighted: number[];
  readonly coefficients: number[];
  readonly counts: number[];
  /** First row at or after the window's start, and first row at or after its end. */
  start: number;
  end: number;
}

/**
 * The smoothed scores of {@link smoothedScores} at each time of `updates` (ascending Unix
 * seconds): per update u, over the prompts scored in (u − windowDays·86,400 s, u − 60 s), with the
 * same back-fill of late miners. Method: running sums per miner and over the back-fill of each
 * distinct scored time, so an update costs O(miners); the window's sums are differences of
 * running sums, which agree with `smoothedScores` to ~1e-12 relative rather than bit for bit.
 * Throws `RangeError` for updates out of order or an unknown competition.
 * @param prompts - the competition's scored prompts, in the order the validator saved them.
 * @param options - the competition and the times of its updates.
 * @param options.competition - the competition, by name or its parameters: its `windowDays` sets
 *   the look-back.
 * @param options.updates - the times of the updates, ascending Unix seconds.
 * @example smoothedScoreHistory(prompts, { competition: "crypto-1h", updates: [1784160120, 1784160180] })[1].scores
 */
export function smoothedScoreHistory(
  prompts: readonly ScoredPrompt[],
  options: {
    readonly competition: CompetitionName | CompetitionParameters;
    readonly updates: readonly number[];
  },
): SmoothedUpdate[] {
  const competition =
    typeof options.competition === "string"
      ? competitionParameters(options.competition)
      : options.competition;
  const windowSeconds = competition.windowDays * 86400;
  const { updates } = options;
  for (let index = 1; index < updates.length; index++) {
    if (!(updates[index] >= updates[index - 1])) {
      throw new RangeError(
        `smoothedScoreHistory requires updates in ascending order, got ${updates[index - 1]} then ${updates[index]}`,
      );
    }
  }
  // Stable by scored time: prompts of one minute keep the order the validator saved them in.
  const ordered = prompts
    .map((prompt, index) => ({ prompt, index }))
    .sort((a, b) => a.prompt.scoredTimeUnix - b.prompt.scoredTimeUnix || a.index - b.index)
    .map((item) => item.prompt);
  const times: number[] = [];
  // Running back-fill sums over distinct times: index j = sums over the first j times.
  const fillWeighted = [0];
  const fillCoefficients = [0];
  const fillCounts = [0];
  const miners = new Map<number, MinerRows>();
  for (const prompt of ordered) {
    const coefficient = assetCoefficient(prompt.asset);
    if (times.at(-1) !== prompt.scoredTimeUnix) {
      times.push(prompt.scoredTimeUnix);
      const valid = !Number.isNaN(prompt.worstScore);
      fillWeighted.push(fillWeighted.at(-1)! + (valid ? coefficient * prompt.worstScore : 0));
      fillCoefficients.push(fillCoefficients.at(-1)! + (valid ? coefficient : 0));
      fillCounts.push(fillCounts.at(-1)! + (valid ? 1 : 0));
    }
    const timeIndex = times.length - 1;
    for (const { minerUid, promptScore } of prompt.minerScores) {
      let rows = miners.get(minerUid);
      if (rows === undefined) {
        rows = { timeIndexes: [], weighted: [0], coefficients: [0], counts: [0], start: 0, end: 0 };
        miners.set(minerUid, rows);
      }
      const valid = !Number.isNaN(promptScore);
      rows.timeIndexes.push(timeIndex);
      rows.weighted.push(rows.weighted.at(-1)! + (valid ? coefficient * promptScore : 0));
      rows.coefficients.push(rows.coefficients.at(-1)! + (valid ? coefficient : 0));
      rows.counts.push(rows.counts.at(-1)! + (valid ? 1 : 0));
    }
  }

  const history: SmoothedUpdate[] = [];
  let low = 0;
  let high = 0;
  for (const update of updates) {
    while (low < times.length && times[low] <= update - windowSeconds) low++;
    while (high < times.length && times[high] < update - UPDATE_GATE_SECONDS) high++;
    const scores = new Map<number, number>();
    for (const [minerUid, rows] of miners) {
      const { timeIndexes } = rows;
      while (rows.start < timeIndexes.length && timeIndexes[rows.start] < low) rows.start++;
      while (rows.end < timeIndexes.length && timeIndexes[rows.end] < high) rows.end++;
      if (rows.end <= rows.start) continue;
      let weighted = rows.weighted[rows.end] - rows.weighted[rows.start];
      let coefficients = rows.coefficients[rows.end] - rows.coefficients[rows.start];
      let count = rows.counts[rows.end] - rows.counts[rows.start];
      const first = timeIndexes[rows.start];
      if (first > low) {
        weighted += fillWeighted[first] - fillWeighted[low];
        coefficients += fillCoefficients[first] - fillCoefficients[low];
        count += fillCounts[first] - fillCounts[low];
      }
      scores.set(minerUid, count > 0 ? weighted / coefficients : Infinity);
    }
    history.push({ timeUnix: update, scores });
  }
  return history;
}
