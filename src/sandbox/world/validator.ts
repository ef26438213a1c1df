/**
 * The sandbox's validator: it scores each prompt of the scored series once its realized path is
 * complete (`promptScoring.ts`), and after each scored minute updates every competition's smoothed
 * scores ({@link smoothedScores}) and reward weights ({@link softmaxRewardWeights}) — with
 * `src/reference/`, the competitions and parameters of `domain/` in force at that minute, and the
 * hotkeys as the miners' identities (a new hotkey on a uid starts afresh and is back-filled).
 * The update after minute t is made at u = t + 120 s over the prompts scored in (u − window,
 * u − 60 s), as the network's validator pools them.
 */

import { canonicalCompetition, type PromptName } from "../../domain/assets.ts";
import {
  CURRENT_COMPETITIONS,
  TWO_COMPETITIONS,
  type CompetitionName,
  type CompetitionParameters,
} from "../../domain/competitions.ts";
import { softmaxRewardWeights } from "../../reference/rewardWeights.ts";
import { smoothedScores, type ScoredPrompt } from "../../reference/smoothedScores.ts";
import { competitionsAt, UPDATE_DELAY_SECONDS, UPDATE_GATE_SECONDS } from "../../domain/eras.ts";
import type { MinerRoster } from "./minerRoster.ts";
import type { PromptSeries } from "./promptSchedule.ts";
import {
  SCORING_DELAY_SECONDS,
  type PromptScoring,
  type ScoredPromptRecord,
} from "./promptScoring.ts";

/**
 * One holder's state in one competition after an update.
 * @example update.rows[0].rewardWeight // => the best miner's weight
 */
export interface UpdateRow {
  readonly minerUid: number;
  readonly holderKey: number;
  readonly smoothedScore: number;
  /** rewardShare × softmax(β·L); 0 where the softmax underflows (the reference leaves it out). */
  readonly rewardWeight: number;
}

/**
 * A competition's smoothed scores and weights after the prompts of one scored minute: the holders
 * of the uids at that time that have a smoothed score, by weight (descending), then smoothed
 * score, then uid.
 * @example validator.updates("crypto-24h").at(-1)?.rows.length
 */
export interface CompetitionUpdate {
  readonly competition: CompetitionName;
  /** When the update was made: the scored minute + {@link UPDATE_DELAY_SECONDS} (`updated_at`). */
  readonly timeUnix: number;
  readonly rows: readonly UpdateRow[];
}

/**
 * The validator, as {@link createValidator} returns it.
 * @example const updates = validator.updates("crypto-1h");
 */
export interface Validator extends PromptScoring {
  /** Every update of a competition, ascending by time. */
  updates(competition: CompetitionName): readonly CompetitionUpdate[];
  /** The competition a prompt name stands for at `atUnix` (legacy `low`/`high` before 2026-06-23). */
  resolveCompetition(name: PromptName, atUnix: number): CompetitionName;
  /** The parameters of a competition by name. */
  competitionParameters(name: CompetitionName): CompetitionParameters;
  /**
   * The scoring of every competition in force now, one miner's prompt CRPS per step (≈ 0.03–0.06 s),
   * for a caller that interleaves it with other work; the results are the same as on demand.
   */
  warmUpSteps(): Generator<void, void, void>;
}

/**
 * The validator of a world (see the module comment). `table` lists every prompt series; only the
 * scored ones are scored.
 * @example const validator = createValidator({ nowUnix, table, roster, scoring });
 */
export function createValidator(parts: {
  readonly nowUnix: number;
  readonly table: readonly PromptSeries[];
  readonly roster: MinerRoster;
  readonly scoring: PromptScoring;
}): Validator {
  const { nowUnix, table, roster, scoring } = parts;
  const lastScoredTime = nowUnix - SCORING_DELAY_SECONDS;
  const updatesByCompetition = new Map<CompetitionName, readonly CompetitionUpdate[]>();

  function competitionParameters(name: CompetitionName): CompetitionParameters {
    const found = [...CURRENT_COMPETITIONS, ...TWO_COMPETITIONS].find(
      (competition) => competition.name === name,
    );
    if (found === undefined) {
      throw new RangeError(`competitionParameters requires a competition name, got ${name}`);
    }
    return found;
  }

  function seriesOf(competition: CompetitionParameters): PromptSeries[] {
    return table.filter(
      (series) =>
        series.scored &&
        series.horizon === competition.horizon &&
        (competition.assets === undefined || competition.assets.includes(series.asset)),
    );
  }

  function updates(name: CompetitionName): readonly CompetitionUpdate[] {
    const cached = updatesByCompetition.get(name);
    if (cached !== undefined) return cached;
    const competition = competitionParameters(name);
    const prompts = scoring.scoredPrompts(seriesOf(competition), -Infinity, lastScoredTime);
    const times = [...new Set(prompts.map((prompt) => prompt.scoredTimeUnix))].filter((time) =>
      competitionsAt(time).some((current) => current.name === name),
    );
    const computed = Object.freeze(
      times.map((time) => updateAt(competition, prompts, time + UPDATE_DELAY_SECONDS)),
    );
    updatesByCompetition.set(name, computed);
    return computed;
  }

  function updateAt(
    competition: CompetitionParameters,
    prompts: readonly ScoredPromptRecord[],
    timeUnix: number,
  ): CompetitionUpdate {
    const windowStart = timeUnix - competition.windowDays * 86400;
    const windowEnd = timeUnix - UPDATE_GATE_SECONDS;
    const inWindow: ScoredPrompt[] = prompts
      .filter((prompt) => prompt.scoredTimeUnix > windowStart && prompt.scoredTimeUnix < windowEnd)
      .map((prompt) => ({
        scoredTimeUnix: prompt.scoredTimeUnix,
        asset: prompt.series.asset,
        worstScore: prompt.worstScore,
        minerScores: prompt.entries.map((entry) => ({
          minerUid: entry.holderKey,
          promptScore: entry.promptScore,
        })),
      }));
    const smoothed = smoothedScores(inWindow, timeUnix, competition.windowDays);
    const active = new Map<number, number>();
    const uidOfHolder = new Map<number, number>();
    for (const uid of roster.uids) {
      const holder = roster.holderAt(uid, timeUnix);
      if (holder === undefined) continue;
      const score = smoothed.get(holder.holderKey);
      if (score === undefined || !Number.isFinite(score)) continue;
      active.set(holder.holderKey, score);
      uidOfHolder.set(holder.holderKey, uid);
    }
    const weights =
      active.size === 0
        ? new Map<number, number>()
        : softmaxRewardWeights(active, competition.softmaxBeta, competition.rewardShare);
    const rows: UpdateRow[] = [...active].map(([holderKey, smoothedScore]) => ({
      minerUid: uidOfHolder.get(holderKey)!,
      holderKey,
      smoothedScore,
      rewardWeight: weights.get(holderKey) ?? 0,
    }));
    rows.sort(
      (first, second) =>
        second.rewardWeight - first.rewardWeight ||
        first.smoothedScore - second.smoothedScore ||
        first.minerUid - second.minerUid,
    );
    return Object.freeze({ competition: competition.name, timeUnix, rows: Object.freeze(rows) });
  }

  function resolveCompetition(name: PromptName, atUnix: number): CompetitionName {
    if (competitionsAt(atUnix) === TWO_COMPETITIONS) {
      return name === "high" || name === "crypto-1h" ? "high" : "low";
    }
    return canonicalCompetition(name);
  }

  function* warmUpSteps(): Generator<void, void, void> {
    const names = new Set(
      (["crypto-24h", "crypto-1h", "com-equ-24h"] as const).map((name) =>
        resolveCompetition(name, nowUnix),
      ),
    );
    for (const name of names) {
      for (const series of seriesOf(competitionParameters(name))) {
        for (const startUnix of scoring.startsToScore(series)) {
          yield* scoring.scoringSteps(series, startUnix);
        }
      }
      updates(name);
      yield;
    }
  }

  return {
    ...scoring,
    updates,
    resolveCompetition,
    competitionParameters,
    warmUpSteps,
  };
}
