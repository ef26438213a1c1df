/**
 * What a prompt is scored against: a competition (whose scoring intervals are known) or an explicit
 * interval set (name → seconds, DOMAIN.md §2).
 */

import {
  CURRENT_COMPETITIONS,
  TWO_COMPETITIONS,
  type CompetitionName,
  type CompetitionParameters,
} from "../spec/competitions.ts";

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
