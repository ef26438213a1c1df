/**
 * The validator's scoring of single prompts: every queried miner's prompt CRPS against the
 * realized path (under the validator's era at the scored time: `_gaps` intervals as ordinary ones
 * before 2026-03-11, the volatility CRPS of crypto-1h prompts from its date on), then the prompt
 * scores: the CRPS by {@link validatorPromptCrps} (the reference's `promptCrps` bit for bit, read
 * from the submission's Float64Array), the scores by {@link promptScores} of `src/reference/` with
 * the rule in force at the scored time, on the very paths and realized prices the world serves.
 *
 * Cost, per valid miner (one 1,000-path set of random prices, this machine, 2026-11-27): about
 * 0.03 s per 24h prompt (0.009 s to simulate its paths, 0.018 s of CRPS, two thirds of it sorting
 * 1,000 members per term) and about 0.01 s per 1h prompt (0.002 s to simulate, 0.006 s of price
 * CRPS, 0.003 s of volatility CRPS). Prompts are scored on first need and kept (a few numbers
 * each); only prompts of the scoring period are scored, so the total is bounded.
 */

import type { PromptCrpsOptions } from "../../reference/promptCrps.ts";
import {
  promptScoreRuleAt,
  promptScores,
  type PromptScoreRule,
} from "../../reference/promptScores.ts";
import { validatorEraAt } from "../../domain/eras.ts";
import type { Markets } from "./markets.ts";
import type { MinerRoster } from "./minerRoster.ts";
import { PROMPT_LAYOUTS, promptStartsBetween, type PromptSeries } from "./promptSchedule.ts";
import type { Submissions } from "./submissions.ts";
import { validatorPromptCrps } from "./validatorCrps.ts";

/**
 * Seconds after a prompt's scored time (start + length) before its scores exist (the validator's scoring rules).
 * @example SCORING_DELAY_SECONDS // => 90
 */
export const SCORING_DELAY_SECONDS = 90;

/**
 * One miner's score on one prompt.
 * @example record.entries[0].rawCrps // => 3120.4, or −1 for an invalid submission
 */
export interface ScoreEntry {
  readonly minerUid: number;
  /** The hotkey's identity (holderIndex × 1000 + uid); scores are grouped by it. */
  readonly holderKey: number;
  /** Prompt CRPS, −1 for a failed submission or a −1 from scoring (zero price). */
  readonly rawCrps: number;
  readonly promptScore: number;
}

/**
 * A scored prompt: the miners the validator queried (absent miners are not in it), in uid order.
 * @example scoring.scoredPrompt(series, start)?.worstScore
 */
export interface ScoredPromptRecord {
  readonly series: PromptSeries;
  readonly startUnix: number;
  /** start + length. */
  readonly scoredTimeUnix: number;
  readonly rule: PromptScoreRule;
  readonly entries: readonly ScoreEntry[];
  /** The prompt's worst score (fill value − lowest), which back-fills late miners. */
  readonly worstScore: number;
}

/**
 * The prompt scoring of a world, as {@link createPromptScoring} returns it.
 * @example const record = scoring.scoredPrompt(series, start);
 */
export interface PromptScoring {
  /** Prompts whose scored time is after this instant are scored; earlier ones have no scores. */
  readonly scoringStartUnix: number;
  /**
   * The record of one prompt, or `undefined` if it is not scored: an unscored series, outside the
   * scoring period, not yet due (scored time + 90 s after now), or every queried miner invalid.
   */
  scoredPrompt(series: PromptSeries, startUnix: number): ScoredPromptRecord | undefined;
  /** Records of the given series with scored time in [fromUnix, toUnix], by scored time then save order. */
  scoredPrompts(
    series: readonly PromptSeries[],
    fromUnix: number,
    toUnix: number,
  ): ScoredPromptRecord[];
  /** Starts of the prompts of `series` that are due and inside the scoring period. */
  startsToScore(series: PromptSeries): number[];
  /** Scores `series` at `startUnix` one miner per step (for a caller that interleaves work). */
  scoringSteps(series: PromptSeries, startUnix: number): Generator<void, void, void>;
}

interface QueriedEntry {
  readonly holderKey: number;
  readonly rawCrps: number;
}

/** Work in progress on one prompt: its realized path and the miners scored so far. */
interface PromptWork {
  readonly realized: number[];
  /** Per uid: its entry, or null when it was not queried (absent). */
  readonly queried: Map<number, QueriedEntry | null>;
  /** Prompt CRPS by paths array (a copier sends its source's array: scored once). */
  readonly crpsOfValues: Map<Float64Array, number>;
}

/**
 * The validator's dated prompt-CRPS rules for a prompt of `series` scored at `scoredTimeUnix`
 * (the validator's dated rules), as the scoring layer's `promptCrpsRules` reads them for a competition target:
 * the era's gap formula, and the volatility CRPS for crypto-1h prompts of an era that has it.
 */
function crpsRulesOf(series: PromptSeries, scoredTimeUnix: number): PromptCrpsOptions {
  const era = validatorEraAt(scoredTimeUnix);
  return {
    gapsFirstChangeOnly: era.gapsFirstChangeOnly,
    volatility: series.competition === "crypto-1h" && era.volatilityCrps,
  };
}

/**
 * The scoring of the prompts whose scored time is in (scoringStartUnix, nowUnix − 90 s].
 * @example const scoring = createPromptScoring({ nowUnix, scoringStartUnix, markets, roster, submissions });
 */
export function createPromptScoring(parts: {
  readonly nowUnix: number;
  readonly scoringStartUnix: number;
  readonly markets: Markets;
  readonly roster: MinerRoster;
  readonly submissions: Submissions;
}): PromptScoring {
  const { nowUnix, scoringStartUnix, markets, roster, submissions } = parts;
  const lastScoredTime = nowUnix - SCORING_DELAY_SECONDS;
  const records = new Map<string, ScoredPromptRecord | null>();
  const works = new Map<string, PromptWork>();

  function isScored(series: PromptSeries, startUnix: number): boolean {
    const scoredTimeUnix = startUnix + PROMPT_LAYOUTS[series.horizon].timeLength;
    return series.scored && scoredTimeUnix > scoringStartUnix && scoredTimeUnix <= lastScoredTime;
  }

  function workOf(series: PromptSeries, startUnix: number): PromptWork {
    const key = `${series.saveOrder}|${startUnix}`;
    let work = works.get(key);
    if (work === undefined) {
      const layout = PROMPT_LAYOUTS[series.horizon];
      const realized: number[] = [];
      for (let point = 0; point < layout.pointCount; point++) {
        realized.push(markets.minuteClose(series.asset, startUnix + point * layout.timeIncrement));
      }
      work = { realized, queried: new Map(), crpsOfValues: new Map() };
      works.set(key, work);
    }
    return work;
  }

  /** The raw prompt CRPS of `uid` on the prompt (−1 if invalid), or null if it was not queried. */
  function queriedEntry(series: PromptSeries, startUnix: number, uid: number): QueriedEntry | null {
    const work = workOf(series, startUnix);
    const known = work.queried.get(uid);
    if (known !== undefined) return known;
    const layout = PROMPT_LAYOUTS[series.horizon];
    const submission = submissions.answer(uid, series, startUnix);
    let entry: QueriedEntry | null = null;
    if (submission.status !== "absent") {
      let rawCrps = -1;
      if (submission.status === "valid" && submission.values !== undefined) {
        const values = submission.values;
        let crps = work.crpsOfValues.get(values);
        if (crps === undefined) {
          crps = validatorPromptCrps(
            { values, pathCount: submission.pathCount, pointCount: submission.pointCount },
            work.realized,
            layout.timeIncrement,
            layout.scoringIntervals,
            crpsRulesOf(series, startUnix + layout.timeLength),
          );
          work.crpsOfValues.set(values, crps);
        }
        rawCrps = crps;
      }
      entry = { holderKey: submission.holderKey, rawCrps };
    }
    work.queried.set(uid, entry);
    return entry;
  }

  function scorePrompt(series: PromptSeries, startUnix: number): ScoredPromptRecord | null {
    const scoredTimeUnix = startUnix + PROMPT_LAYOUTS[series.horizon].timeLength;
    const queried: { minerUid: number; holderKey: number; rawCrps: number }[] = [];
    for (const uid of roster.uids) {
      const entry = queriedEntry(series, startUnix, uid);
      if (entry !== null) queried.push({ minerUid: uid, ...entry });
    }
    works.delete(`${series.saveOrder}|${startUnix}`);
    const rule = promptScoreRuleAt(scoredTimeUnix);
    const scores = promptScores(
      queried.map((entry) => entry.rawCrps),
      rule,
    );
    if (scores === null) return null;
    return Object.freeze({
      series,
      startUnix,
      scoredTimeUnix,
      rule,
      entries: Object.freeze(
        queried.map((entry, index) =>
          Object.freeze({ ...entry, promptScore: scores.scores[index] }),
        ),
      ),
      worstScore: scores.worstScore,
    });
  }

  function scoredPrompt(series: PromptSeries, startUnix: number): ScoredPromptRecord | undefined {
    if (!isScored(series, startUnix)) return undefined;
    const key = `${series.saveOrder}|${startUnix}`;
    let record = records.get(key);
    if (record === undefined) {
      record = scorePrompt(series, startUnix);
      records.set(key, record);
    }
    return record ?? undefined;
  }

  function startsToScore(series: PromptSeries): number[] {
    if (!series.scored) return [];
    const timeLength = PROMPT_LAYOUTS[series.horizon].timeLength;
    return promptStartsBetween(
      series,
      scoringStartUnix + 1 - timeLength,
      lastScoredTime - timeLength,
    );
  }

  function scoredPrompts(
    seriesList: readonly PromptSeries[],
    fromUnix: number,
    toUnix: number,
  ): ScoredPromptRecord[] {
    const found: ScoredPromptRecord[] = [];
    for (const series of seriesList) {
      const timeLength = PROMPT_LAYOUTS[series.horizon].timeLength;
      for (const startUnix of startsToScore(series)) {
        const scoredTimeUnix = startUnix + timeLength;
        if (scoredTimeUnix < fromUnix || scoredTimeUnix > toUnix) continue;
        const record = scoredPrompt(series, startUnix);
        if (record !== undefined) found.push(record);
      }
    }
    return found.sort(
      (first, second) =>
        first.scoredTimeUnix - second.scoredTimeUnix ||
        first.series.saveOrder - second.series.saveOrder,
    );
  }

  function* scoringSteps(series: PromptSeries, startUnix: number): Generator<void, void, void> {
    if (!isScored(series, startUnix) || records.has(`${series.saveOrder}|${startUnix}`)) return;
    for (const uid of roster.uids) {
      queriedEntry(series, startUnix, uid);
      yield;
    }
    scoredPrompt(series, startUnix);
  }

  return { scoringStartUnix, scoredPrompt, scoredPrompts, startsToScore, scoringSteps };
}
