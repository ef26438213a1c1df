/**
 * Leaderboards of the sandbox's network, read off the validator's competition updates: V2 rows
 * (`rewards` = a competition's reward weight), meta-leaderboards (mean weight over `days`), V1 rows
 * (on-chain style, incentive = weights summed over the competitions) and smoothed-score rows.
 * An update is visible from the time it was made (the scored minute + 120 s, `validator.ts`).
 */

import type { PromptName } from "../../domain/assets.ts";
import type { CompetitionName } from "../../domain/competitions.ts";
import type { LeaderboardV1Row, LeaderboardV2Row } from "../../domain/records/leaderboard.ts";
import type { SmoothedScoreRow } from "../../domain/records/validation.ts";
import { competitionsAt } from "../../domain/eras.ts";
import { isoSeconds } from "./isoTime.ts";
import type { MinerRoster } from "./minerRoster.ts";
import type { CompetitionUpdate, Validator } from "./validator.ts";

/**
 * Emission per block shared by the miners, in the network's token: V1 `emission` = incentive × it.
 * A sandbox constant (the real value depends on the chain).
 * @example EMISSION_PER_BLOCK // => 0.5
 */
export const EMISSION_PER_BLOCK = 0.5;

/**
 * The leaderboard queries of a world, as {@link createLeaderboards} returns them.
 * @example leaderboards.v2("crypto-24h", nowUnix)[0].neuron_uid
 */
export interface Leaderboards {
  /** V1 rows at `atUnix`: every uid held then, by incentive. Empty before the first update. */
  v1(atUnix: number): LeaderboardV1Row[];
  /** V1 rows of the snapshot after each update in [fromUnix, toUnix]. */
  v1History(fromUnix: number, toUnix: number): LeaderboardV1Row[];
  /** V2 rows of the competition's last update visible at `atUnix`. */
  v2(promptName: PromptName, atUnix: number): LeaderboardV2Row[];
  /** V2 rows of every update of the competition in [fromUnix, toUnix]. */
  v2History(promptName: PromptName, fromUnix: number, toUnix: number): LeaderboardV2Row[];
  /** Mean reward weight per uid over the updates visible at `atUnix` within the last `days` days. */
  meta(promptName: PromptName, days: number, atUnix: number): LeaderboardV2Row[];
  /** Smoothed-score rows of the updates in [fromUnix, toUnix]. */
  smoothedScoreRows(
    fromUnix: number,
    toUnix: number,
    competition: PromptName | undefined,
    minerUid: number | undefined,
  ): SmoothedScoreRow[];
}

/**
 * The leaderboards of a world whose clock is `nowUnix`.
 * @example const leaderboards = createLeaderboards(validator, roster, nowUnix);
 */
export function createLeaderboards(
  validator: Validator,
  roster: MinerRoster,
  nowUnix: number,
): Leaderboards {
  // An update is visible once made: its time already includes the scoring gate.
  const lastVisibleUpdate = nowUnix;

  function visibleUpdates(name: CompetitionName, atUnix: number): readonly CompetitionUpdate[] {
    const limit = Math.min(atUnix, nowUnix);
    return validator.updates(name).filter((update) => update.timeUnix <= limit);
  }

  /** Updates made in [fromUnix, toUnix] that are visible now. */
  function updatesBetween(
    name: CompetitionName,
    fromUnix: number,
    toUnix: number,
  ): readonly CompetitionUpdate[] {
    const last = Math.min(toUnix, lastVisibleUpdate);
    return validator
      .updates(name)
      .filter((update) => update.timeUnix >= fromUnix && update.timeUnix <= last);
  }

  function namesAround(fromUnix: number, toUnix: number): CompetitionName[] {
    const names = new Set<CompetitionName>();
    for (const time of [fromUnix, Math.min(toUnix, nowUnix)]) {
      for (const competition of competitionsAt(time)) names.add(competition.name);
    }
    return [...names];
  }

  /** The coldkey and IP of whoever held `uid` at `atUnix` (as the live rows give them). */
  function identity(uid: number, atUnix: number): { coldkey: string; ip_address: string } {
    const holder = roster.holderAt(uid, atUnix);
    return { coldkey: holder?.coldkey ?? "", ip_address: holder?.ipAddress ?? "" };
  }

  function v2Rows(update: CompetitionUpdate): LeaderboardV2Row[] {
    const updatedAt = isoSeconds(update.timeUnix);
    return update.rows.map((row) => ({
      updated_at: updatedAt,
      neuron_uid: row.minerUid,
      ...identity(row.minerUid, update.timeUnix),
      rewards: row.rewardWeight,
    }));
  }

  function v1Snapshot(atUnix: number): LeaderboardV1Row[] {
    const incentives = new Map<number, number>();
    let updatedUnix = -Infinity;
    for (const competition of competitionsAt(atUnix)) {
      const latest = visibleUpdates(competition.name, atUnix).at(-1);
      if (latest === undefined) continue;
      updatedUnix = Math.max(updatedUnix, latest.timeUnix);
      for (const row of latest.rows) {
        incentives.set(row.minerUid, (incentives.get(row.minerUid) ?? 0) + row.rewardWeight);
      }
    }
    if (updatedUnix === -Infinity) return [];
    const largest = Math.max(0, ...incentives.values());
    const rows: LeaderboardV1Row[] = [];
    for (const uid of roster.uids) {
      const holder = roster.holderAt(uid, atUnix);
      if (holder === undefined) continue;
      const incentive = incentives.get(uid) ?? 0;
      const rank = largest > 0 ? incentive / largest : 0;
      rows.push({
        updated_at: isoSeconds(updatedUnix),
        neuron_uid: uid,
        coldkey: holder.coldkey,
        ip_address: holder.ipAddress,
        incentive,
        emission: incentive * EMISSION_PER_BLOCK,
        stake: holder.stake,
        rank,
        pruning_score: rank,
      });
    }
    return rows.sort(
      (first, second) => second.incentive - first.incentive || first.neuron_uid - second.neuron_uid,
    );
  }

  return {
    v1: (atUnix) => v1Snapshot(atUnix),

    v1History(fromUnix, toUnix) {
      const times = new Set<number>();
      for (const name of namesAround(fromUnix, toUnix)) {
        for (const update of updatesBetween(name, fromUnix, toUnix)) times.add(update.timeUnix);
      }
      return [...times].sort((first, second) => first - second).flatMap((time) => v1Snapshot(time));
    },

    v2(promptName, atUnix) {
      const latest = visibleUpdates(validator.resolveCompetition(promptName, atUnix), atUnix).at(
        -1,
      );
      return latest === undefined ? [] : v2Rows(latest);
    },

    v2History(promptName, fromUnix, toUnix) {
      const name = validator.resolveCompetition(promptName, Math.min(toUnix, nowUnix));
      return updatesBetween(name, fromUnix, toUnix).flatMap(v2Rows);
    },

    meta(promptName, days, atUnix) {
      if (!(days > 0)) throw new RangeError(`meta-leaderboard requires days > 0, got ${days}`);
      const name = validator.resolveCompetition(promptName, atUnix);
      const windowStart = Math.min(atUnix, nowUnix) - days * 86400;
      const inWindow = visibleUpdates(name, atUnix).filter(
        (update) => update.timeUnix > windowStart,
      );
      if (inWindow.length === 0) return [];
      const sums = new Map<number, number>();
      for (const update of inWindow) {
        for (const row of update.rows) {
          sums.set(row.minerUid, (sums.get(row.minerUid) ?? 0) + row.rewardWeight);
        }
      }
      const lastUnix = inWindow[inWindow.length - 1].timeUnix;
      const updatedAt = isoSeconds(lastUnix);
      return [...sums]
        .map(([uid, sum]) => ({
          updated_at: updatedAt,
          neuron_uid: uid,
          ...identity(uid, lastUnix),
          rewards: sum / inWindow.length,
        }))
        .sort(
          (first, second) => second.rewards - first.rewards || first.neuron_uid - second.neuron_uid,
        );
    },

    smoothedScoreRows(fromUnix, toUnix, competition, minerUid) {
      const names =
        competition === undefined
          ? namesAround(fromUnix, toUnix)
          : [validator.resolveCompetition(competition, Math.min(toUnix, nowUnix))];
      const rows: SmoothedScoreRow[] = [];
      for (const name of names) {
        for (const update of updatesBetween(name, fromUnix, toUnix)) {
          const updatedAt = isoSeconds(update.timeUnix);
          for (const row of update.rows) {
            if (minerUid !== undefined && row.minerUid !== minerUid) continue;
            rows.push({
              miner_uid: row.minerUid,
              prompt_name: name,
              reward_weight: row.rewardWeight,
              smoothed_score: row.smoothedScore,
              updated_at: updatedAt,
            });
          }
        }
      }
      return rows;
    },
  };
}
