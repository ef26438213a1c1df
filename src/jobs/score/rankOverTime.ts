/**
 * Stage 4 of the score job, the validator's updates: after each scored minute t of the range the
 * validator updates at u = t + 120 s over the prompts scored in (u − window, u − 60 s). At every
 * such update: each miner's smoothed score, reward weight and rank (miners keyed by hotkey, shown
 * by the uid they hold then), and the candidate's, placed among them.
 */

import { rewardWeights } from "../../scoring/rewardWeights.ts";
import { smoothedScoreHistory } from "../../scoring/smoothedHistory.ts";
import type { ScoredPrompt } from "../../scoring/smoothedScores.ts";
import type { CompetitionParameters } from "../../domain/competitions.ts";
import { UPDATE_DELAY_SECONDS, validatorEraAt, type EraSettings } from "../../domain/eras.ts";
import type { RankHistoryEntry } from "../../store/rankHistory.ts";
import { CANDIDATE_MINER_UID } from "./candidate.ts";
import type { MinerKeys } from "./minerKeys.ts";

/**
 * The β and reward share of `competition` at `timeUnix` (its era's), or its given parameters when
 * the era has no competition of that name.
 * @example parametersAt(parameters, 1784160120, {}).rewardShare // => 0.3333…
 */
export function parametersAt(
  competition: CompetitionParameters,
  timeUnix: number,
  settings: EraSettings,
): CompetitionParameters {
  return (
    validatorEraAt(timeUnix, settings).competitions.find(
      (item) => item.name === competition.name,
    ) ?? competition
  );
}

/**
 * One ranked line: a miner (by key) or the candidate (key −1) at one update.
 */
export interface RankedMiner {
  readonly minerKey: number;
  readonly smoothedScore: number;
  readonly rewardWeight: number;
}

/**
 * Ranks the miners of one update: reward weights from their smoothed scores (softmax with the
 * competition's β and share), ranked by weight, then smoothed score, then uid (`uidOf` the key;
 * the candidate's key −1 is its uid).
 * @example rankMiners(new Map([[0, 10], [1, 12]]), parameters)[0].minerKey // => 0
 */
export function rankMiners(
  smoothed: ReadonlyMap<number, number>,
  parameters: CompetitionParameters,
  uidOf: (minerKey: number) => number = (minerKey) => minerKey,
): RankedMiner[] {
  const finite = new Map([...smoothed].filter(([, score]) => Number.isFinite(score)));
  const weights = rewardWeights(finite, {
    beta: parameters.softmaxBeta,
    share: parameters.rewardShare,
  });
  return [...finite]
    .map(([minerKey, smoothedScore]) => ({
      minerKey,
      smoothedScore,
      rewardWeight: weights.get(minerKey) ?? 0,
    }))
    .sort(
      (first, second) =>
        second.rewardWeight - first.rewardWeight ||
        first.smoothedScore - second.smoothedScore ||
        uidOf(first.minerKey) - uidOf(second.minerKey),
    );
}

/**
 * The rank history of a competition over `updates` (ascending): every network miner that holds its
 * uid at the update, and the candidate ranked among the same miners as every pool with it in
 * (`candidatePrompts`) scores them: its rank and weight are those it would have had as one more
 * miner.
 * @example const rows = rankHistory(prompts, candidatePrompts, { competition, updates, keys, settings: {} });
 */
export function rankHistory(
  prompts: readonly ScoredPrompt[],
  candidatePrompts: readonly ScoredPrompt[] | undefined,
  context: {
    readonly competition: CompetitionParameters;
    readonly updates: readonly number[];
    readonly keys: MinerKeys;
    readonly settings: EraSettings;
    /** The first scored time of the range's prompts: earlier windows reach before the range. */
    readonly firstScoredUnix: number;
  },
): RankHistoryEntry[] {
  const { competition, updates, keys } = context;
  const uidOf = uidOfKey(keys);
  const network = smoothedScoreHistory(prompts, { competition, updates });
  const withCandidate =
    candidatePrompts === undefined
      ? undefined
      : smoothedScoreHistory(candidatePrompts, { competition, updates });
  const rows: RankHistoryEntry[] = [];
  for (const [index, update] of network.entries()) {
    const parameters = parametersAt(competition, update.timeUnix, context.settings);
    const windowInRange =
      update.timeUnix - competition.windowDays * 86400 >= context.firstScoredUnix - 1;
    const holding = new Map(
      [...update.scores].filter(([minerKey]) => keys.holdsAt(minerKey, update.timeUnix)),
    );
    const ranked = rankMiners(holding, parameters, uidOf);
    // The candidate among the miners as they score with it in every pool (its own prompt scores
    // move the pools' minimum, and so every miner's).
    const fieldWithCandidate = withCandidate?.[index].scores;
    const candidateScore = fieldWithCandidate?.get(CANDIDATE_MINER_UID);
    const candidateRanked =
      candidateScore !== undefined && Number.isFinite(candidateScore)
        ? rankMiners(
            new Map(
              [...fieldWithCandidate!].filter(
                ([minerKey]) =>
                  minerKey === CANDIDATE_MINER_UID || keys.holdsAt(minerKey, update.timeUnix),
              ),
            ),
            parameters,
            uidOf,
          )
        : undefined;
    for (const [position, miner] of ranked.entries()) {
      const { uid, hotkey } = keys.minerOf(miner.minerKey);
      rows.push({
        updatedAtUnix: update.timeUnix,
        source: "network",
        minerUid: uid,
        hotkey,
        rank: position + 1,
        of: ranked.length,
        smoothedScore: miner.smoothedScore,
        rewardWeight: miner.rewardWeight,
        windowInRange,
      });
    }
    if (candidateRanked !== undefined) {
      const position = candidateRanked.findIndex((miner) => miner.minerKey === CANDIDATE_MINER_UID);
      rows.push({
        updatedAtUnix: update.timeUnix,
        source: "candidate",
        minerUid: CANDIDATE_MINER_UID,
        hotkey: null,
        rank: position + 1,
        of: candidateRanked.length,
        smoothedScore: candidateRanked[position].smoothedScore,
        rewardWeight: candidateRanked[position].rewardWeight,
        windowInRange,
      });
    }
  }
  return rows;
}

/**
 * The update times of the scored minutes of `prompts`: each distinct scored time + 120 s, up to
 * `nowUnix`, ascending.
 * @example updateTimes(prompts, nowUnix)[0] // => first scored minute + 120
 */
export function updateTimes(prompts: readonly ScoredPrompt[], nowUnix: number): number[] {
  const times = new Set<number>();
  for (const prompt of prompts) {
    const update = prompt.scoredTimeUnix + UPDATE_DELAY_SECONDS;
    if (update <= nowUnix) times.add(update);
  }
  return [...times].sort((a, b) => a - b);
}

/**
 * The uid of a miner key of `keys`, the candidate's key (−1) being its own uid: the tie-break of
 * {@link rankMiners}.
 * @example rankMiners(smoothed, parameters, uidOfKey(keys))
 */
export function uidOfKey(keys: MinerKeys): (minerKey: number) => number {
  return (minerKey) =>
    minerKey === CANDIDATE_MINER_UID ? CANDIDATE_MINER_UID : keys.minerOf(minerKey).uid;
}
