/**
 * The validator's eras (the validator's dated rules) as one dated table: every rule of scoring and validation
 * that changed over time, and the instant it changed. Everything in pathlab that depends on the
 * date (the competitions and their shares, the prompt-score rule, the 1h gap formula, the response
 * format, SPYX → SP500, the owner burn, the volatility CRPS, VHFT) asks {@link validatorEraAt}.
 * Changes whose date is not public are settings ({@link EraSettings}).
 */

import {
  CURRENT_COMPETITIONS,
  TWO_COMPETITIONS,
  type CompetitionParameters,
} from "./competitions.ts";

/**
 * How a prompt's raw CRPS values become prompt scores (the validator's scoring and its dated rules):
 * - `legacy-p90`: cap at p90, invalid miners get p90 (until 2026-07-16);
 * - `p95`: no cap, invalid miners get p95 of the valid raws (from 2026-07-16);
 * - `current`: cap at 10 × median, invalid miners get p95 of the uncapped valid raws (from the
 *   outlier-cap setting on).
 * @example const rule: PromptScoreRule = "current";
 */
export type PromptScoreRule = "legacy-p90" | "p95" | "current";

/**
 * Which rule checks a response's prices (the validator's dated rules): `legacy` counts the characters of
 * Python's `str(price)` without its `.`; `v1.10.3` asks for int or float (not bool), finite, within
 * float32 and equal to its own 8-significant-digit form.
 * @example const rule: ResponseFormatRule = "v1.10.3";
 */
export type ResponseFormatRule = "legacy" | "v1.10.3";

/**
 * The dates of changes that the validator's public record does not date, in Unix seconds. Each
 * defaults to the value in {@link DEFAULT_ERA_SETTINGS}; `null` turns the change off for every date.
 * @example const settings: EraSettings = { volatilityCrpsFromUnix: null };
 */
export interface EraSettings {
  /** From when the 10 × median outlier cap joins the p95 rule. */
  readonly outlierCapFromUnix?: number | null;
  /** From when crypto-1h prompts add the volatility CRPS. */
  readonly volatilityCrpsFromUnix?: number | null;
  /** From when responses are checked with the v1.10.3 format rule. */
  readonly responseFormatFromUnix?: number | null;
  /** Whether the VHFT competition takes part (only when its external scores are supplied). */
  readonly vhft?: boolean;
}

/** Unix seconds of a UTC calendar day. */
function day(year: number, month: number, date: number): number {
  return Date.UTC(year, month - 1, date) / 1000;
}

/**
 * The dated changes of the validator's rules, in Unix seconds.
 * @example ERA_DATES.sp500ReplacesSpyx // => 1784764800
 */
export const ERA_DATES = Object.freeze({
  /** 1h `_gaps` intervals keep only the first change (before: scored like ordinary intervals). */
  gapsFixed: day(2026, 3, 11),
  /** Three competitions, each × 1/3. */
  threeCompetitions: day(2026, 6, 23),
  /** p95 fill instead of the p90 cap. */
  p95Fill: day(2026, 7, 16),
  /** SP500 replaces SPYX in com-equ-24h; the owner burn ends. */
  sp500ReplacesSpyx: day(2026, 7, 23),
});

/**
 * The defaults of the undated changes. The outlier cap's start is not public: it is taken to start
 * with the p95 fill (`--outlier-cap-from` sets another). The volatility CRPS starts on the date of
 * the validator change that added it (synthdataco/synth-subnet PR #323, 2026-09-08; its merge date
 * is not public), the v1.10.3 format rule on its release date.
 * @example DEFAULT_ERA_SETTINGS.outlierCapFromUnix // => 1784160000
 */
export const DEFAULT_ERA_SETTINGS: Required<EraSettings> = Object.freeze({
  outlierCapFromUnix: ERA_DATES.p95Fill,
  volatilityCrpsFromUnix: day(2026, 9, 8),
  // Validator release v1.10.3 (synthdataco/synth-subnet CHANGELOG, PR #301), 2026-07-16.
  responseFormatFromUnix: day(2026, 7, 16),
  vhft: false,
});

/**
 * The rules in force at one instant, as {@link validatorEraAt} returns them.
 * @example validatorEraAt(day(2026, 2, 10)).competitions.map((c) => c.rewardShare) // => [0.5, 0.5]
 */
export interface ValidatorEra {
  /** The instant (Unix seconds) of the latest change in force; −Infinity for the first era. */
  readonly sinceUnix: number;
  /**
   * The era's rules in one line, for reports, e.g. `since 2026-07-23: crypto-1h, crypto-24h,
   * com-equ-24h × 1/3; p95 fill, 10 × median cap; format v1.10.3`.
   */
  readonly label: string;
  /** The competitions, with their assets (SPYX or SP500), betas, windows and shares. */
  readonly competitions: readonly CompetitionParameters[];
  readonly promptScoreRule: PromptScoreRule;
  /** Whether 1h `_gaps` intervals keep only their first change (else: ordinary intervals). */
  readonly gapsFirstChangeOnly: boolean;
  readonly responseFormat: ResponseFormatRule;
  /** Whether crypto-1h prompt CRPS adds the volatility CRPS (the validator's dated rules). */
  readonly volatilityCrps: boolean;
  /** Whether the owner uid receives the sum of the miners' weights (the burn). */
  readonly ownerBurn: boolean;
  /** Whether the VHFT competition takes part (never without its external scores). */
  readonly vhft: boolean;
}

const WITHOUT_SPYX: readonly CompetitionParameters[] = Object.freeze(
  CURRENT_COMPETITIONS.map((competition) =>
    Object.freeze({
      ...competition,
      assets: competition.assets?.filter((asset) => asset !== "SPYX"),
    }),
  ),
);
const WITHOUT_SP500: readonly CompetitionParameters[] = Object.freeze(
  CURRENT_COMPETITIONS.map((competition) =>
    Object.freeze({
      ...competition,
      assets: competition.assets?.filter((asset) => asset !== "SP500"),
    }),
  ),
);

/**
 * The rules of the validator at `timeUnix` (the scored time of a prompt, or the time of an update),
 * under `settings` for the changes without a public date.
 * Throws `RangeError` for a time that is not finite or looks like milliseconds.
 * @param timeUnix - the time, in Unix seconds (a value beyond 10¹¹, likely milliseconds, throws).
 * @param settings - the dates of the changes without a public date; each omitted one is
 *   {@link DEFAULT_ERA_SETTINGS}'s.
 * @example validatorEraAt(Date.UTC(2026, 1, 10) / 1000).promptScoreRule // => "legacy-p90"
 * @example validatorEraAt(Date.UTC(2026, 7, 1) / 1000).competitions[2].assets?.includes("SPYX") // => false
 */
export function validatorEraAt(timeUnix: number, settings: EraSettings = {}): ValidatorEra {
  if (typeof timeUnix !== "number" || !Number.isFinite(timeUnix) || Math.abs(timeUnix) > 1e11) {
    throw new RangeError(
      `validatorEraAt requires a time in Unix seconds, got ${String(timeUnix)}${Math.abs(timeUnix) > 1e11 ? " (milliseconds? divide by 1000)" : ""}`,
    );
  }
  const resolved = { ...DEFAULT_ERA_SETTINGS, ...settings };
  const since = (from: number | null) => from !== null && timeUnix >= from;
  const changes = [
    ...Object.values(ERA_DATES),
    resolved.outlierCapFromUnix,
    resolved.volatilityCrpsFromUnix,
    resolved.responseFormatFromUnix,
  ];
  let sinceUnix = -Infinity;
  for (const from of changes) {
    if (from !== null && timeUnix >= from && from > sinceUnix) sinceUnix = from;
  }
  const p95 = since(ERA_DATES.p95Fill);
  const era: Omit<ValidatorEra, "label"> = {
    sinceUnix,
    competitions: !since(ERA_DATES.threeCompetitions)
      ? TWO_COMPETITIONS
      : since(ERA_DATES.sp500ReplacesSpyx)
        ? WITHOUT_SPYX
        : WITHOUT_SP500,
    promptScoreRule: !p95 ? "legacy-p90" : since(resolved.outlierCapFromUnix) ? "current" : "p95",
    gapsFirstChangeOnly: since(ERA_DATES.gapsFixed),
    responseFormat: since(resolved.responseFormatFromUnix) ? "v1.10.3" : "legacy",
    volatilityCrps: since(resolved.volatilityCrpsFromUnix),
    ownerBurn: !since(ERA_DATES.sp500ReplacesSpyx),
    vhft: resolved.vhft,
  };
  return Object.freeze({ ...era, label: eraLabel(era) });
}

/**
 * The competitions in force at `timeUnix`, as the era table has them ({@link validatorEraAt}):
 * `low` and `high` before 2026-06-23; then crypto-1h, crypto-24h and com-equ-24h, whose
 * com-equ-24h has SP500 in place of SPYX from 2026-07-23.
 * Throws `RangeError` for a time that is not finite or looks like milliseconds.
 * @param timeUnix - the time, in Unix seconds.
 * @example competitionsAt(Date.UTC(2026, 0, 1) / 1000).length // => 2
 * @example competitionsAt(Date.UTC(2026, 7, 1) / 1000)[2].assets?.includes("SPYX") // => false
 */
export function competitionsAt(timeUnix: number): readonly CompetitionParameters[] {
  return validatorEraAt(timeUnix).competitions;
}

/** The rules of an era in one line, for reports. */
function eraLabel(era: Omit<ValidatorEra, "label">): string {
  const names = era.competitions.map((competition) => competition.name).join(", ");
  const share = era.competitions.length === 2 ? "0.5" : `1/${era.competitions.length}`;
  const rules = [
    `${names} × ${share}`,
    { "legacy-p90": "p90 cap", p95: "p95 fill", current: "p95 fill, 10 × median cap" }[
      era.promptScoreRule
    ],
    era.gapsFirstChangeOnly ? undefined : "1h gaps as ordinary intervals",
    `format ${era.responseFormat}`,
    era.volatilityCrps ? "crypto-1h volatility CRPS" : undefined,
    era.ownerBurn ? "owner burn" : undefined,
    era.vhft ? "VHFT" : undefined,
  ];
  const since =
    era.sinceUnix === -Infinity
      ? "from the start"
      : `since ${new Date(era.sinceUnix * 1000).toISOString().slice(0, 10)}`;
  return `${since}: ${rules.filter((rule) => rule !== undefined).join("; ")}`;
}

/**
 * When the validator updates the smoothed scores after the prompts of a scored minute t: at
 * t + 120 s, the first whole minute past the 90 s scoring gate (the validator's scoring rules).
 * @example UPDATE_DELAY_SECONDS // => 120
 */
export const UPDATE_DELAY_SECONDS = 120;

/**
 * An update at u pools the prompts scored in (u − window, u − 60 s) (the validator's dated rules).
 * @example UPDATE_GATE_SECONDS // => 60
 */
export const UPDATE_GATE_SECONDS = 60;
