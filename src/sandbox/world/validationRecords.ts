/**
 * The validation data of the sandbox's network as the interface's records: score rows, scoring
 * minutes shared by several assets, and a miner's latest validation.
 */

import type {
  MinerValidation,
  MultiAssetMinuteRow,
  ScoreRow,
} from "../../domain/records/validation.ts";
import { isoSeconds } from "./isoTime.ts";
import type { MinerRoster } from "./minerRoster.ts";
import { PROMPT_LAYOUTS, promptStartsBetween, type PromptSeries } from "./promptSchedule.ts";
import type { Submissions } from "./submissions.ts";
import { SCORING_DELAY_SECONDS, type ScoredPromptRecord } from "./promptScoring.ts";
import type { Validator } from "./validator.ts";

/** How far back {@link ValidationRecords.minerValidation} looks for a prompt the miner answered. */
const VALIDATION_LOOKBACK_SECONDS = 2 * 86400;

/**
 * The validation queries of a world, as {@link createValidationRecords} returns them.
 * @example records.scoreRows(series, fromUnix, toUnix, undefined).length
 */
export interface ValidationRecords {
  /** Rows of the scored prompts of `series` with scored time in [fromUnix, toUnix], by time then uid. */
  scoreRows(
    series: PromptSeries,
    fromUnix: number,
    toUnix: number,
    minerUid: number | undefined,
  ): ScoreRow[];
  /** Rows of the latest scored prompt of `series` (empty if none in the scoring period). */
  latestScoreRows(series: PromptSeries): ScoreRow[];
  /** Scored minutes in [fromUnix, toUnix] shared by at least two assets of `seriesList`, in save order. */
  multiAssetMinutes(
    seriesList: readonly PromptSeries[],
    fromUnix: number,
    toUnix: number,
  ): MultiAssetMinuteRow[];
  /** The validation of the latest prompt (of the competitions it answers) the holder of `uid` answered. */
  minerValidation(
    uid: number,
    atUnix: number,
    table: readonly PromptSeries[],
  ): MinerValidation | undefined;
}

/**
 * The validation records of a world whose clock is `nowUnix`.
 * @example const records = createValidationRecords(validator, submissions, roster, nowUnix);
 */
export function createValidationRecords(
  validator: Validator,
  submissions: Submissions,
  roster: MinerRoster,
  nowUnix: number,
): ValidationRecords {
  function rowsOf(record: ScoredPromptRecord, minerUid: number | undefined): ScoreRow[] {
    const scoredTime = isoSeconds(record.scoredTimeUnix);
    const timeLength = PROMPT_LAYOUTS[record.series.horizon].timeLength;
    return record.entries
      .filter((entry) => minerUid === undefined || entry.minerUid === minerUid)
      .map((entry) => ({
        asset: record.series.asset,
        crps: entry.rawCrps,
        miner_uid: entry.minerUid,
        prompt_score: entry.promptScore,
        scored_time: scoredTime,
        time_length: timeLength,
      }));
  }

  return {
    scoreRows(series, fromUnix, toUnix, minerUid) {
      return validator
        .scoredPrompts([series], fromUnix, toUnix)
        .flatMap((record) => rowsOf(record, minerUid));
    },

    latestScoreRows(series) {
      const layout = PROMPT_LAYOUTS[series.horizon];
      const lastStart = nowUnix - SCORING_DELAY_SECONDS - layout.timeLength;
      const firstStart = validator.scoringStartUnix + 1 - layout.timeLength;
      const starts = promptStartsBetween(series, firstStart, lastStart);
      for (let index = starts.length - 1; index >= 0; index--) {
        const record = validator.scoredPrompt(series, starts[index]);
        if (record !== undefined) return rowsOf(record, undefined);
      }
      return [];
    },

    multiAssetMinutes(seriesList, fromUnix, toUnix) {
      const rows: MultiAssetMinuteRow[] = [];
      let current: { time: number; assets: string[] } | undefined;
      const flush = (): void => {
        if (current !== undefined && current.assets.length >= 2) {
          rows.push({ assets: current.assets, scored_time: isoSeconds(current.time) });
        }
      };
      for (const record of validator.scoredPrompts(seriesList, fromUnix, toUnix)) {
        if (current === undefined || current.time !== record.scoredTimeUnix) {
          flush();
          current = { time: record.scoredTimeUnix, assets: [] };
        }
        current.assets.push(record.series.asset);
      }
      flush();
      return rows;
    },

    minerValidation(uid, atUnix, table) {
      const holder = roster.holderAt(uid, atUnix);
      if (holder === undefined) return undefined;
      const prompts: { series: PromptSeries; startUnix: number }[] = [];
      for (const series of table) {
        if (!holder.profile.competitions.includes(series.competition)) continue;
        for (const startUnix of promptStartsBetween(
          series,
          atUnix - VALIDATION_LOOKBACK_SECONDS,
          atUnix,
        )) {
          prompts.push({ series, startUnix });
        }
      }
      prompts.sort(
        (first, second) =>
          second.startUnix - first.startUnix || second.series.saveOrder - first.series.saveOrder,
      );
      for (const { series, startUnix } of prompts) {
        const submission = submissions.answer(uid, series, startUnix);
        if (submission.status === "absent") continue;
        return {
          validated: submission.status === "valid",
          reason: submission.reason,
          response_time: Number.isNaN(submission.responseTimeSeconds)
            ? ""
            : String(submission.responseTimeSeconds),
        };
      }
      return undefined;
    },
  };
}
