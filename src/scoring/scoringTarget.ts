/**
 * What a prompt is scored against: a competition (whose scoring intervals are known) or an explicit
 * interval set (name → seconds, the validator's CRPS); and the validator's rules of the prompt's date that
 * change its CRPS (the validator's dated rules: the 1h gap formula, the crypto-1h volatility CRPS).
 */

import {
  CURRENT_COMPETITIONS,
  TWO_COMPETITIONS,
  type CompetitionName,
  type CompetitionParameters,
} from "../domain/competitions.ts";
import { validatorEraAt, type EraSettings } from "../domain/eras.ts";

/**
 * The scoring intervals of a prompt: `{ competition }` takes the competition's own set (the 24h set
 * for `crypto-24h`, `com-equ-24h` and the legacy `low`; the 1h set for `crypto-1h` and `high`);
 * `{ intervals }` gives them explicitly, in the validator's order (insertion order).
 * @example
 * const byName: ScoringTarget = { competition: "crypto-1h" };
 * const explicit: ScoringTarget = { intervals: { "5min": 300, "24hour_abs": 86400 } };
 */
export type ScoringTarget =
  | { readonly competition: CompetitionName }
  | { readonly intervals: Readonly<Record<string, number>> };

/**
 * The parameters of a competition by name, from either era: the three current competitions
 * (`crypto-1h`, `crypto-24h`, `com-equ-24h`) or the two earlier ones (`low`, `high`).
 * Throws `RangeError` naming the known competitions for any other name.
 * @param name - a competition of either era: `crypto-1h`, `crypto-24h`, `com-equ-24h`, `low` or
 *   `high`.
 * @example competitionParameters("crypto-1h").windowDays // => 5
 * @example competitionParameters("low").softmaxBeta // => -0.1
 */
export function competitionParameters(name: CompetitionName): CompetitionParameters {
  for (const competition of CURRENT_COMPETITIONS) {
    if (competition.name === name) return competition;
  }
  for (const competition of TWO_COMPETITIONS) {
    if (competition.name === name) return competition;
  }
  const known = [...CURRENT_COMPETITIONS, ...TWO_COMPETITIONS].map((item) => item.name);
  throw new RangeError(
    `competitionParameters requires one of ${known.join(", ")}, got ${JSON.stringify(name)}`,
  );
}

/**
 * The interval set (name → seconds) of a {@link ScoringTarget}. Explicit intervals are checked:
 * every length must be a positive finite number of seconds.
 * Throws `RangeError` naming `operation`, the interval and the value otherwise, or for an unknown
 * competition.
 * @param target - the competition, or the intervals (name → seconds).
 * @param operation - the name errors give as the caller; `scoringIntervalsOf` by default.
 * @example scoringIntervalsOf({ competition: "crypto-24h" })["24hour_abs"] // => 86400
 */
export function scoringIntervalsOf(
  target: ScoringTarget,
  operation = "scoringIntervalsOf",
): Readonly<Record<string, number>> {
  if ("competition" in target && target.competition !== undefined) {
    return competitionParameters(target.competition).scoringIntervals;
  }
  if (!("intervals" in target) || typeof target.intervals !== "object" || !target.intervals) {
    throw new RangeError(
      `${operation} requires { competition } or { intervals }, got ${JSON.stringify(target)}`,
    );
  }
  for (const [name, seconds] of Object.entries(target.intervals)) {
    if (typeof seconds !== "number" || !(seconds > 0 && seconds < Infinity)) {
      throw new RangeError(
        `${operation} requires interval "${name}" to be a positive number of seconds, got ${String(seconds)}`,
      );
    }
  }
  return target.intervals;
}

/**
 * The dated rules of a prompt CRPS, as {@link promptCrpsRules} resolves them.
 * @example const rules: PromptCrpsRules = { volatility: true, gapsFirstChangeOnly: true };
 */
export interface PromptCrpsRules {
  /** Whether the crypto-1h volatility CRPS is added to the price CRPS. */
  readonly volatility: boolean;
  /** Whether `_gaps` intervals keep only their first change (else: ordinary intervals). */
  readonly gapsFirstChangeOnly: boolean;
}

/**
 * Overrides of the dated rules, and the era settings they are otherwise read with.
 * @example const options: PromptCrpsRuleOptions = { volatility: true };
 */
export interface PromptCrpsRuleOptions {
  /** Dates of the validator changes without a public date (`validatorEraAt`'s settings). */
  readonly eraSettings?: EraSettings;
  /** Adds (true) or leaves out (false) the volatility CRPS whatever the target and the era. */
  readonly volatility?: boolean;
  /** Sets the `_gaps` formula whatever the era. */
  readonly gapsFirstChangeOnly?: boolean;
}

/**
 * The rules a prompt scored at `scoredTimeUnix` (start + time length) is scored by
 * (the validator's dated rules), from the validator's era at that time (`validatorEraAt` with
 * `options.eraSettings`) unless `options` sets them:
 * - `volatility`: for `{ competition: "crypto-1h" }`, whether the era has the volatility CRPS
 *   (from `eraSettings.volatilityCrpsFromUnix`); for every other target false: the validator adds
 *   it to crypto-1h only (its other competitions, and `high` of the two-competition era, have no
 *   volatility blocks), and an explicit interval set names no competition.
 * - `gapsFirstChangeOnly`: the era's gap formula (from 2026-03-11), for every target: before the
 *   fix the validator's suffix test never matched, so every `_gaps` interval, whatever the set,
 *   was scored as an ordinary one.
 * Throws `RangeError` for a time that is not in Unix seconds.
 * @param target - the competition, or the intervals (name → seconds) to score.
 * @param scoredTimeUnix - the prompt's scored time (start + time length), in Unix seconds.
 * @param options - the era settings, and each rule to force whatever the era; the era's rules by
 *   default.
 * @example promptCrpsRules({ competition: "crypto-1h" }, Date.UTC(2026, 1, 26) / 1000) // => { volatility: false, gapsFirstChangeOnly: false }
 * @example promptCrpsRules({ intervals: { "5min": 300 } }, Date.UTC(2026, 10, 1) / 1000, { volatility: true }).volatility // => true
 */
export function promptCrpsRules(
  target: ScoringTarget,
  scoredTimeUnix: number,
  options: PromptCrpsRuleOptions = {},
): PromptCrpsRules {
  const { volatility, gapsFirstChangeOnly } = options;
  if (volatility !== undefined && gapsFirstChangeOnly !== undefined) {
    return { volatility, gapsFirstChangeOnly };
  }
  const era = validatorEraAt(scoredTimeUnix, options.eraSettings);
  const crypto1h = "competition" in target && target.competition === "crypto-1h";
  return {
    volatility: volatility ?? (crypto1h && era.volatilityCrps),
    gapsFirstChangeOnly: gapsFirstChangeOnly ?? era.gapsFirstChangeOnly,
  };
}
