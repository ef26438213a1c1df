/**
 * Prompt scores (the validator's scoring rules): every miner's prompt CRPS of one prompt turned into a score
 * relative to the prompt's best miner, under the legacy p90 rule, the p95 rule or the current
 * median-capped p95 rule.
 */

import { quantileSorted } from "../core/quantiles.ts";
import {
  ERA_DATES,
  validatorEraAt,
  type EraSettings,
  type PromptScoreRule,
} from "../domain/eras.ts";
import type { PromptScores } from "../domain/promptScores.ts";

export type { PromptScoreRule, PromptScores };

/**
 * The instant the p95 rules took over from the p90 rule: 2026-07-16T00:00:00Z, in Unix seconds
 * (`ERA_DATES.p95Fill` of the era table).
 * @example CURRENT_PROMPT_SCORE_RULE_START_UNIX // => 1784160000
 */
export const CURRENT_PROMPT_SCORE_RULE_START_UNIX = ERA_DATES.p95Fill;

/**
 * The rule in force for a prompt scored at `scoredTime` (start + length), from the validator's
 * era table (`validatorEraAt`): `legacy-p90` strictly before 2026-07-16T00:00:00Z, `p95` from
 * then, `current` (p95 with the 10 × median cap) from the outlier-cap setting on (by default the
 * same instant). `scoredTime` is a Date or Unix seconds.
 * Throws `RangeError` for an invalid date, or a number that is not finite or looks like
 * milliseconds (beyond the year 5000 in seconds).
 * @param scoredTime - the prompt's scored time (start + length): a Date, or Unix seconds.
 * @param settings - the dates of the changes without a public date; {@link DEFAULT_ERA_SETTINGS}'s
 *   by default.
 * @example promptScoreRuleAt(new Date("2026-07-15T23:59:59Z")) // => "legacy-p90"
 * @example promptScoreRuleAt(1784160000) // => "current"
 * @example promptScoreRuleAt(1784160000, { outlierCapFromUnix: null }) // => "p95"
 */
export function promptScoreRuleAt(
  scoredTime: Date | number,
  settings: EraSettings = {},
): PromptScoreRule {
  const seconds = unixSecondsOf("promptScoreRuleAt", "scoredTime", scoredTime);
  return validatorEraAt(seconds, settings).promptScoreRule;
}

/**
 * Unix seconds of a Date or of a number of Unix seconds, checked.
 * @example unixSecondsOf("smoothedScores", "now", new Date(0)) // => 0
 */
export function unixSecondsOf(operation: string, field: string, time: Date | number): number {
  const seconds = time instanceof Date ? time.getTime() / 1000 : time;
  if (typeof seconds !== "number" || !Number.isFinite(seconds)) {
    throw new RangeError(
      `${operation} requires ${field} to be a valid Date or Unix seconds, got ${String(time)}`,
    );
  }
  if (!(time instanceof Date) && Math.abs(seconds) > 1e11) {
    throw new RangeError(
      `${operation} requires ${field} in Unix seconds, got ${seconds} (milliseconds? divide by 1000)`,
    );
  }
  return seconds;
}

/**
 * Prompt scores of one prompt from each miner's raw prompt CRPS (−1 = missing or invalid; NaN and
 * other non-finite values count as invalid too):
 * - `legacy-p90`: p90 = 90th percentile of the valid raws; valid raws capped at p90; invalid
 *   miners get p90; score = capped − min(capped) (the validator's `compute_prompt_scores`).
 * - `p95`: no cap; invalid miners get p95 of the valid raws; score = filled − min(filled).
 * - `current`: cap = 10 × median of the valid raws; valid raws capped at it; p95 = 95th percentile
 *   of the valid raws the cap left unchanged (raw ≤ cap), or of all valid raws if none is; invalid
 *   miners get p95; score = filled − min(filled).
 * Percentiles are numpy's `linear` method with numpy's arithmetic (core {@link quantileSorted}), so
 * p90 equals `np.percentile(valid, 90)` bit for bit; the median is the 0.5 quantile by the same
 * rule (for an even count it may differ from `np.median`'s (a + b)/2 in the last bit).
 * `src/reference/promptScores.ts` interpolates as a + (b − a)·g throughout, so results agree with
 * it to ~1e-15 relative (bit for bit when every interpolation weight is below ½).
 * Returns `null` when no raw is valid (the validator skips such a prompt). O(n log n).
 * @param rawScores - each miner's raw prompt CRPS; −1, NaN or another non-finite value for a
 *   missing or invalid one.
 * @param options - which of the validator's rules to score by.
 * @param options.rule - `"legacy-p90"`, `"p95"` or `"current"`; {@link promptScoreRuleAt} gives the
 *   rule of a date.
 * @example promptScores([10, 20, -1, 30], { rule: "legacy-p90" })?.scores // => [0, 10, 18, 18]
 */
export function promptScores(
  rawScores: ArrayLike<number>,
  options: { readonly rule: PromptScoreRule },
): PromptScores | null {
  const rule = options?.rule;
  if (rule !== "legacy-p90" && rule !== "p95" && rule !== "current") {
    throw new RangeError(
      `promptScores requires rule "legacy-p90", "p95" or "current", got ${JSON.stringify(rule)}`,
    );
  }
  const count = rawScores.length;
  let validCount = 0;
  for (let index = 0; index < count; index++) {
    if (isValidRaw(rawScores[index])) validCount++;
  }
  if (validCount === 0) return null;
  const sorted = new Float64Array(validCount);
  for (let index = 0, next = 0; index < count; index++) {
    if (isValidRaw(rawScores[index])) sorted[next++] = rawScores[index];
  }
  sorted.sort();
  let cap: number;
  let fillValue: number;
  if (rule === "legacy-p90") {
    cap = quantileSorted(sorted, 0.9);
    fillValue = cap;
  } else if (rule === "p95") {
    cap = Infinity;
    fillValue = quantileSorted(sorted, 0.95);
  } else {
    cap = 10 * quantileSorted(sorted, 0.5);
    let uncapped = 0;
    while (uncapped < validCount && sorted[uncapped] <= cap) uncapped++;
    fillValue = quantileSorted(uncapped > 0 ? sorted.subarray(0, uncapped) : sorted, 0.95);
  }
  const filled = new Array<number>(count);
  let lowestScore = Infinity;
  for (let index = 0; index < count; index++) {
    const raw = rawScores[index];
    const value = isValidRaw(raw) ? Math.min(raw, cap) : fillValue;
    filled[index] = value;
    if (value < lowestScore) lowestScore = value;
  }
  for (let index = 0; index < count; index++) filled[index] -= lowestScore;
  return { scores: filled, fillValue, lowestScore, worstScore: fillValue - lowestScore };
}

/** A raw prompt CRPS counts when it is finite and not the validator's −1. */
function isValidRaw(raw: number): boolean {
  return raw !== -1 && raw - raw === 0;
}
