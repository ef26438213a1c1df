/**
 * Prompt scores: every miner's prompt CRPS turned into a score relative to the best miner of the
 * prompt (the validator's scoring and its dated rules), under the legacy p90 rule, the p95 rule and the current
 * median-capped p95 rule.
 */

import { validatorEraAt, type EraSettings, type PromptScoreRule } from "../domain/eras.ts";
import type { PromptScores } from "../domain/promptScores.ts";
import { percentileLinear } from "./percentiles.ts";

export type { PromptScoreRule, PromptScores };

/**
 * The rule in force for a prompt scored at `scoredTimeUnix` (start + length, unix seconds), from
 * the era table: `legacy-p90` before 2026-07-16T00:00:00Z, then `p95`, and `current` (p95 with the
 * 10 × median cap) from the outlier-cap setting on.
 * @example promptScoreRuleAt(Date.UTC(2026, 6, 15, 23) / 1000) // => "legacy-p90"
 */
export function promptScoreRuleAt(
  scoredTimeUnix: number,
  settings: EraSettings = {},
): PromptScoreRule {
  return validatorEraAt(scoredTimeUnix, settings).promptScoreRule;
}

/**
 * Prompt scores of one prompt from each miner's raw prompt CRPS (−1 = missing or invalid; NaN and
 * other non-finite values are treated as invalid too). Percentiles are numpy `linear`.
 * - `legacy-p90`: p90 = 90th percentile of the valid raws; every valid raw capped at p90; invalid
 *   miners get p90; score = capped − min(capped).
 * - `p95`: no cap; invalid miners get p95 of the valid raws; score = filled − min(filled).
 * - `current`: cap = 10 × median of the valid raws; valid raws capped at it; p95 = 95th percentile
 *   of the valid raws that the cap left unchanged (raw ≤ cap), or of all valid raws if none is;
 *   invalid miners get p95; score = filled − min(filled).
 * Returns `null` when no raw is valid (the validator skips such a prompt).
 * @example promptScores([10, 20, -1, 30], "legacy-p90").scores // => [0, 10, 18, 18]
 */
export function promptScores(
  rawCrps: readonly number[],
  rule: PromptScoreRule,
): PromptScores | null {
  const isValid = (raw: number): boolean => raw !== -1 && Number.isFinite(raw);
  const valid = rawCrps.filter(isValid);
  if (valid.length === 0) return null;
  let filled: number[];
  let fillValue: number;
  if (rule === "legacy-p90") {
    fillValue = percentileLinear(valid, 0.9);
    filled = rawCrps.map((raw) => (isValid(raw) ? Math.min(raw, fillValue) : fillValue));
  } else if (rule === "p95") {
    fillValue = percentileLinear(valid, 0.95);
    filled = rawCrps.map((raw) => (isValid(raw) ? raw : fillValue));
  } else if (rule === "current") {
    const cap = 10 * percentileLinear(valid, 0.5);
    const uncapped = valid.filter((raw) => raw <= cap);
    fillValue = percentileLinear(uncapped.length > 0 ? uncapped : valid, 0.95);
    filled = rawCrps.map((raw) => (isValid(raw) ? Math.min(raw, cap) : fillValue));
  } else {
    throw new RangeError(
      `promptScores requires rule "legacy-p90", "p95" or "current", got ${String(rule)}`,
    );
  }
  const lowestScore = Math.min(...filled);
  return {
    scores: filled.map((value) => value - lowestScore),
    fillValue,
    lowestScore,
    worstScore: fillValue - lowestScore,
  };
}
