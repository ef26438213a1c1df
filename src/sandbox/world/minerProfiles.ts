/**
 * The sandbox's miners: what each uid does. Every behaviour the issue asks for appears at least
 * once — calibrated, under- and over-dispersed, biased drift, fat tails, a stale start price, a
 * copier, submissions that fail validation (time-outs, 288 points, 999 paths) and that fail the
 * current price rules as real miners' do (unrounded floats, 9 significant digits, a path blown up
 * beyond float32 or collapsed below it), a zero price (fails at scoring), miners absent for some
 * prompts, and uids whose holder changes.
 */

import type { Competition } from "../../domain/assets.ts";

/**
 * How a submission fails: `timeout` (no answer), `shortPaths` (one point too few per path),
 * `wrongPathCount` (999 paths), `tooManyDigits` (unrounded prices), `nineDigits` (prices rounded
 * to 9 significant digits), `float32Overflow` / `float32Underflow` (one path blows up beyond
 * float32, about 10⁴⁰ × the price, or collapses to about 10⁻⁵⁵ × the price, from a random point
 * on, still rounded to 8 digits), `zeroPrice` (one price 0: passes validation, scores −1).
 * @example const failure: FailureMode = "shortPaths";
 */
export type FailureMode =
  | "timeout"
  | "shortPaths"
  | "wrongPathCount"
  | "tooManyDigits"
  | "nineDigits"
  | "float32Overflow"
  | "float32Underflow"
  | "zeroPrice";

/**
 * The main trait of a miner: a way of forecasting, or the way its submissions fail.
 * @example const behaviour: MinerBehaviour = "overDispersed";
 */
export type MinerBehaviour =
  | "calibrated"
  | "underDispersed"
  | "overDispersed"
  | "biasedDrift"
  | "fatTails"
  | "staleStart"
  | "copier"
  | FailureMode;

/**
 * What one holder of a uid does.
 * @example MINER_SLOTS[0].profile.behaviour // => "calibrated"
 */
export interface MinerProfile {
  readonly behaviour: MinerBehaviour;
  /** The competitions whose prompts it answers; for the others it is absent. */
  readonly competitions: readonly Competition[];
  /** Multiplier of the market's volatility it simulates with (1 = calibrated). */
  readonly dispersion: number;
  /** Drift it adds, in daily standard deviations per day (0 = none). */
  readonly driftSigmasPerDay: number;
  /** Student-t degrees of freedom of its shocks (0 = normal shocks). */
  readonly tailDegrees: number;
  /** How old its spot price is, in minutes (0 = the price at the prompt's start). */
  readonly staleMinutes: number;
  /** The uid whose answer it copies (`copier`). */
  readonly copiesUid: number | undefined;
  /** How its submissions fail, if they do. */
  readonly failure: FailureMode | undefined;
  /** Probability that a submission fails (given `failure`). */
  readonly failureRate: number;
  /** Probability that it is absent for a prompt (no answer at all). */
  readonly absenceRate: number;
  /** Typical seconds to answer. */
  readonly responseSeconds: number;
}

/**
 * One uid of the network: a fixed profile, or (`tenureDays` set) a uid whose holder changes every
 * `tenureDays`, each new holder drawing its profile from {@link CHURN_PROFILES}.
 * @example MINER_SLOTS.map((slot) => slot.uid).includes(47) // => true
 */
export interface MinerSlot {
  readonly uid: number;
  readonly profile: MinerProfile;
  readonly tenureDays: number | undefined;
}

const ALL: readonly Competition[] = ["crypto-1h", "crypto-24h", "com-equ-24h"];
const HOURLY: readonly Competition[] = ["crypto-1h"];
const CRYPTO_DAILY: readonly Competition[] = ["crypto-24h"];
const EQUITIES_DAILY: readonly Competition[] = ["com-equ-24h"];

const BASE: MinerProfile = {
  behaviour: "calibrated",
  competitions: ALL,
  dispersion: 1,
  driftSigmasPerDay: 0,
  tailDegrees: 0,
  staleMinutes: 0,
  copiesUid: undefined,
  failure: undefined,
  failureRate: 0,
  absenceRate: 0,
  responseSeconds: 2,
};

function miner(fields: Partial<MinerProfile>): MinerProfile {
  return Object.freeze({ ...BASE, ...fields });
}

function slot(uid: number, profile: MinerProfile, tenureDays?: number): MinerSlot {
  return Object.freeze({ uid, profile, tenureDays });
}

/**
 * Profiles a new holder of a churning uid draws from (the competitions are the slot's).
 * @example CHURN_PROFILES.length // => 5
 */
export const CHURN_PROFILES: readonly MinerProfile[] = Object.freeze([
  miner({ behaviour: "calibrated" }),
  miner({ behaviour: "overDispersed", dispersion: 1.4 }),
  miner({ behaviour: "underDispersed", dispersion: 0.7 }),
  miner({ behaviour: "fatTails", tailDegrees: 3 }),
  miner({ behaviour: "biasedDrift", driftSigmasPerDay: 0.3 }),
]);

/**
 * The 36 uids of the sandbox's network. Nine answer every competition; each competition has nine
 * specialists more, so that about 12 valid, distinct submissions are scored per prompt.
 * @example MINER_SLOTS.length // => 36
 */
export const MINER_SLOTS: readonly MinerSlot[] = Object.freeze([
  // Every competition.
  slot(47, miner({})),
  slot(150, miner({ dispersion: 1.1, responseSeconds: 3 })),
  slot(144, miner({ behaviour: "underDispersed", dispersion: 0.6 })),
  slot(129, miner({ behaviour: "overDispersed", dispersion: 1.5 })),
  slot(50, miner({ behaviour: "fatTails", tailDegrees: 3 })),
  slot(202, miner({ behaviour: "copier", copiesUid: 47, responseSeconds: 1 })),
  slot(218, miner({ behaviour: "timeout", failure: "timeout", failureRate: 1 })),
  slot(235, miner({ dispersion: 0.9, absenceRate: 0.4 })),
  slot(91, miner({ dispersion: 1.05, responseSeconds: 4 })),
  // crypto-1h.
  slot(1, miner({ competitions: HOURLY, dispersion: 0.95 })),
  slot(5, miner({ competitions: HOURLY, behaviour: "biasedDrift", driftSigmasPerDay: 0.4 })),
  slot(12, miner({ competitions: HOURLY, behaviour: "staleStart", staleMinutes: 20 })),
  slot(18, miner({ competitions: HOURLY, behaviour: "underDispersed", dispersion: 0.8 })),
  slot(
    23,
    miner({ competitions: HOURLY, behaviour: "shortPaths", failure: "shortPaths", failureRate: 1 }),
  ),
  slot(
    31,
    miner({ competitions: HOURLY, behaviour: "zeroPrice", failure: "zeroPrice", failureRate: 1 }),
  ),
  slot(37, miner({ competitions: HOURLY }), 2.5),
  slot(42, miner({ competitions: HOURLY, dispersion: 1.05, failure: "timeout", failureRate: 0.3 })),
  slot(
    7,
    miner({ competitions: HOURLY, behaviour: "nineDigits", failure: "nineDigits", failureRate: 1 }),
  ),
  // crypto-24h.
  slot(58, miner({ competitions: CRYPTO_DAILY })),
  slot(
    64,
    miner({ competitions: CRYPTO_DAILY, behaviour: "biasedDrift", driftSigmasPerDay: -0.4 }),
  ),
  slot(71, miner({ competitions: CRYPTO_DAILY, behaviour: "staleStart", staleMinutes: 90 })),
  slot(77, miner({ competitions: CRYPTO_DAILY, behaviour: "overDispersed", dispersion: 1.3 })),
  slot(
    85,
    miner({
      competitions: CRYPTO_DAILY,
      behaviour: "tooManyDigits",
      failure: "tooManyDigits",
      failureRate: 1,
    }),
  ),
  slot(
    99,
    miner({
      competitions: CRYPTO_DAILY,
      behaviour: "wrongPathCount",
      failure: "wrongPathCount",
      failureRate: 1,
    }),
  ),
  slot(104, miner({ competitions: CRYPTO_DAILY }), 4),
  slot(
    66,
    miner({
      competitions: CRYPTO_DAILY,
      behaviour: "float32Overflow",
      dispersion: 1.1,
      failure: "float32Overflow",
      failureRate: 0.25,
    }),
  ),
  slot(
    112,
    miner({ competitions: CRYPTO_DAILY, behaviour: "fatTails", tailDegrees: 4, absenceRate: 0.2 }),
  ),
  // com-equ-24h.
  slot(118, miner({ competitions: EQUITIES_DAILY })),
  slot(133, miner({ competitions: EQUITIES_DAILY, behaviour: "underDispersed", dispersion: 0.75 })),
  slot(161, miner({ competitions: EQUITIES_DAILY, behaviour: "staleStart", staleMinutes: 180 })),
  slot(
    172,
    miner({ competitions: EQUITIES_DAILY, behaviour: "biasedDrift", driftSigmasPerDay: 0.3 }),
  ),
  slot(
    188,
    miner({
      competitions: EQUITIES_DAILY,
      behaviour: "shortPaths",
      failure: "shortPaths",
      failureRate: 1,
    }),
  ),
  slot(229, miner({ competitions: EQUITIES_DAILY, failure: "tooManyDigits", failureRate: 0.5 })),
  slot(247, miner({ competitions: EQUITIES_DAILY }), 6),
  slot(
    121,
    miner({
      competitions: EQUITIES_DAILY,
      behaviour: "float32Underflow",
      dispersion: 0.95,
      failure: "float32Underflow",
      failureRate: 0.25,
    }),
  ),
  slot(
    240,
    miner({
      competitions: EQUITIES_DAILY,
      behaviour: "overDispersed",
      dispersion: 1.2,
      absenceRate: 0.25,
    }),
  ),
]);
