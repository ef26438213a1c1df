/**
 * The sandbox's world: a pure, deterministic, in-memory model of the network behind the
 * interface — 1-minute markets, a population of miners, and a validator that prompts, scores and
 * ranks them. No HTTP here (`src/sandbox/server` serves it). Everything is a function of
 * (`seed`, `nowUnix`): two worlds created with the same pair answer every question identically.
 * Over 300 lines because it is the one documented surface of the world (its interface) and the
 * composition of its parts; the parts live in the sibling files.
 */

import { setImmediate as nextTurn } from "node:timers/promises";
import { canonicalAsset, type Competition, type PromptName } from "../../domain/assets.ts";
import type { LeaderboardV1Row, LeaderboardV2Row } from "../../domain/records/leaderboard.ts";
import type {
  MinerValidation,
  MultiAssetMinuteRow,
  ScoreRow,
  SmoothedScoreRow,
  UidHolderRow,
} from "../../domain/records/validation.ts";
import { BoundedCache } from "./boundedCache.ts";
import { isoSeconds } from "./isoTime.ts";
import { createLeaderboards } from "./leaderboards.ts";
import { MARKET_ASSETS, MARKET_PROFILES } from "./marketProfiles.ts";
import { createMarkets } from "./markets.ts";
import { MINER_SLOTS } from "./minerProfiles.ts";
import { createMinerRoster } from "./minerRoster.ts";
import { pooledAnswers } from "./pathRows.ts";
import {
  PROMPT_LAYOUTS,
  isStartOf,
  latestStartAtOrBefore,
  promptSeriesTable,
  promptStartsBetween,
  type PromptCadence,
  type PromptHorizon,
  type PromptSeries,
} from "./promptSchedule.ts";
import { createSubmissions, type Submission } from "./submissions.ts";
import { createPromptScoring } from "./promptScoring.ts";
import { createValidationRecords } from "./validationRecords.ts";
import { createValidator } from "./validator.ts";

export type { PromptCadence, PromptHorizon } from "./promptSchedule.ts";
export type { Submission } from "./submissions.ts";

/**
 * Options of {@link createWorld}.
 * @example const options: WorldOptions = { seed: 7, nowUnix: 1795258140 };
 */
export interface WorldOptions {
  /** Seed of every random stream (an integer; reduced modulo 2³²). */
  readonly seed: number;
  /** The world's clock, unix seconds (floored to the minute). Nothing after it is observable. */
  readonly nowUnix: number;
  /** Prompt cadence; default `sandbox`. */
  readonly cadence?: PromptCadence;
  /**
   * How long before `nowUnix` the sandbox's validator began scoring, in minutes: prompts whose
   * scored time (start + length) is later than `nowUnix − scoringMinutes·60` are scored, earlier
   * ones have no scores. Default 32 (`sandbox` cadence: the period then always holds exactly one
   * 30-minute slot of each 24h competition) or 10 (`real`). Cost grows linearly.
   */
  readonly scoringMinutes?: number;
  /**
   * How many miners the network has: the first `miners` uids of the roster (`MINER_SLOTS`: the
   * nine that answer every competition first, then each competition's own). Default all 36. A
   * smaller world costs less to score and serve — fewer submissions per prompt, ensembles of at
   * most this many miners — for tests where the network's size is not the point.
   */
  readonly miners?: number;
}

/**
 * Pooled paths of the top miners for one prompt, as {@link World.ensemble} returns them: raw (not
 * re-based), miner after miner in ranking order, each miner's 1,000 paths in submission order.
 * @example const { minerUids, paths } = world.ensemble("BTC", "24h", start);
 */
export interface WorldEnsemble {
  /** The miners pooled, in meta-leaderboard order (at most 10). */
  readonly minerUids: readonly number[];
  /**
   * `paths[p][t]`: every pooled path (1,000 per miner), a view of its miner's Float64Array, which
   * the world's submissions share: read it, do not modify it.
   */
  readonly paths: readonly Float64Array[];
  readonly startUnix: number;
  readonly timeIncrement: number;
  /** Points per path (289 or 61). */
  readonly pointCount: number;
}

/**
 * Query of {@link World.scoreRows}.
 * @example const query: ScoreRowsQuery = { asset: "BTC", horizon: "24h", fromUnix, toUnix };
 */
export interface ScoreRowsQuery {
  readonly asset: string;
  readonly horizon: PromptHorizon;
  /** Scored times (start + length) from this instant, inclusive. */
  readonly fromUnix: number;
  /** Scored times up to this instant, inclusive. */
  readonly toUnix: number;
  /** Only this uid's rows. */
  readonly minerUid?: number;
}

/**
 * Query of {@link World.smoothedScoreRows}.
 * @example const query: SmoothedScoreRowsQuery = { fromUnix, toUnix, competition: "crypto-1h" };
 */
export interface SmoothedScoreRowsQuery {
  /** Leaderboard updates from this instant, inclusive. */
  readonly fromUnix: number;
  /** Leaderboard updates up to this instant, inclusive. */
  readonly toUnix: number;
  /** Only rows of this uid (every hotkey that held it). */
  readonly minerUid?: number;
  /** Only this competition (or legacy prompt name); default all. */
  readonly competition?: PromptName;
}

/**
 * What the world knows about the holder of a uid at one time.
 * @example world.minerAt(47)?.behaviour // => "calibrated"
 */
export interface MinerDescription {
  readonly minerUid: number;
  readonly hotkey: string;
  readonly coldkey: string;
  /** When this hotkey was first seen on the uid, unix seconds. */
  readonly registeredUnix: number;
  /** The behaviour of this holder (`calibrated`, `underDispersed`, `timeout`, …). */
  readonly behaviour: string;
  /** The competitions whose prompts this holder answers. */
  readonly competitions: readonly Competition[];
}

/**
 * The sandbox's network at one instant. Every method is synchronous and deterministic; results
 * that cost time (prompt scores) are computed on first use and kept in bounded caches.
 * Assets may be given as the cross-listed (`SPYX`) or short (`SPY`) symbols. Times after `nowUnix`
 * are not observable: a query about them throws `RangeError` (or, for prices, yields NaN).
 * @example
 * const world = createWorld({ seed: 7, nowUnix: Date.UTC(2026, 10, 21, 10, 49) / 1000 });
 * const start = world.latestPromptStart("BTC", "24h")!;
 * const top = world.topMiners("crypto-24h", world.nowUnix, 10, 14);
 */
export interface World {
  readonly seed: number;
  readonly nowUnix: number;
  readonly cadence: PromptCadence;
  /** The validator's scoring began after this instant (prompts scored earlier have no scores). */
  readonly scoringStartUnix: number;

  // ── Markets ──
  /** Every asset with a 1-minute market (cross-listed symbols, `SP500`). */
  readonly marketAssets: readonly string[];
  /** Whether `asset` (either symbol form) has a market. */
  hasMarket(asset: string): boolean;
  /** Close of the 1-minute candle stamped `minuteUnix` (a multiple of 60); NaN if missing or later than now. */
  minuteClose(asset: string, minuteUnix: number): number;
  /** The last observed close at or before `unix` (clamped to now); NaN before the market's history. */
  priceAt(asset: string, unix: number): number;
  /** Closes of every minute from `fromMinuteUnix` to `toMinuteUnix`, both inclusive (NaN where missing). */
  minuteCloses(asset: string, fromMinuteUnix: number, toMinuteUnix: number): Float64Array;

  // ── Miners ──
  /** Every uid of the network. */
  readonly minerUids: readonly number[];
  /** The holder of `uid` at `atUnix` (default now); `undefined` for an unknown uid. */
  minerAt(uid: number, atUnix?: number): MinerDescription | undefined;
  /** One row per (uid, hotkey) first seen between `fromUnix` and `toUnix` (inclusive), by time. */
  uidHolders(fromUnix: number, toUnix: number): UidHolderRow[];
  /** The miner's answer to the prompt (see {@link Submission}). */
  predictionSet(
    uid: number,
    asset: string,
    startUnix: number,
    timeIncrement: number,
    timeLength: number,
  ): Submission;

  // ── Validator ──
  /** The horizon of a (time_increment, time_length) pair, `undefined` if no prompt has it. */
  horizonOf(timeIncrement: number, timeLength: number): PromptHorizon | undefined;
  /** The competition whose miners answer (and whose meta-leaderboard ranks) `asset` at `horizon`. */
  competitionFor(asset: string, horizon: PromptHorizon): Competition;
  /** Start times of the prompts of `asset` at `horizon` in [fromUnix, toUnix], ascending. */
  promptStarts(asset: string, horizon: PromptHorizon, fromUnix: number, toUnix: number): number[];
  /** The latest prompt start at or before `atUnix` (default now). */
  latestPromptStart(asset: string, horizon: PromptHorizon, atUnix?: number): number | undefined;
  /** Whether a prompt of `asset` at `horizon` starts at `startUnix`. */
  isPromptStart(asset: string, horizon: PromptHorizon, startUnix: number): boolean;
  /** Closes at the grid times start, start + increment, …, start + length (NaN where missing or future). */
  realizedPrices(
    asset: string,
    startUnix: number,
    timeIncrement: number,
    timeLength: number,
  ): Float64Array;
  /** The validation of the miner's latest submission at or before `atUnix` (default now). */
  minerValidation(uid: number, atUnix?: number): MinerValidation | undefined;
  /** Score rows of the scored prompts of one asset and horizon (see {@link ScoreRowsQuery}). */
  scoreRows(query: ScoreRowsQuery): ScoreRow[];
  /** Score rows of the latest scored prompt of `asset` at `horizon`. */
  latestScoreRows(asset: string, horizon: PromptHorizon): ScoreRow[];
  /** Smoothed scores and reward weights at every leaderboard update in the range. */
  smoothedScoreRows(query: SmoothedScoreRowsQuery): SmoothedScoreRow[];
  /** Minutes (scored times) in [fromUnix, toUnix] where several assets were scored. */
  multiAssetMinutes(fromUnix: number, toUnix: number, timeLength: number): MultiAssetMinuteRow[];
  /** V1 rows (combined incentives) at the last update at or before `atUnix` (default now). */
  leaderboardV1(atUnix?: number): LeaderboardV1Row[];
  /** V1 rows of every update in [fromUnix, toUnix]. */
  leaderboardV1History(fromUnix: number, toUnix: number): LeaderboardV1Row[];
  /** V2 rows (`rewards` = reward weight) of the competition at the last update at or before `atUnix`. */
  leaderboardV2(promptName: PromptName, atUnix?: number): LeaderboardV2Row[];
  /** V2 rows of every update of the competition in [fromUnix, toUnix]. */
  leaderboardV2History(
    promptName: PromptName,
    fromUnix: number,
    toUnix: number,
  ): LeaderboardV2Row[];
  /** Meta-leaderboard: mean reward weight over the updates of the last `days` days, descending. */
  metaLeaderboard(promptName: PromptName, days: number, atUnix?: number): LeaderboardV2Row[];
  /** The first `limit` uids of {@link World.metaLeaderboard}. */
  topMiners(promptName: PromptName, atUnix: number, limit: number, days: number): number[];
  /**
   * The insight ensemble of a prompt: the top 10 (meta-leaderboard, 14 days, ranked at
   * `rankingAtUnix`, default now) miners of the asset's competition with a valid submission with
   * positive prices for the prompt starting at `startUnix`, pooled raw.
   */
  ensemble(
    asset: string,
    horizon: PromptHorizon,
    startUnix: number,
    rankingAtUnix?: number,
  ): WorldEnsemble;
  /**
   * Scores, in the background, everything the leaderboards of the competitions in force need —
   * one miner's prompt CRPS (≈ 0.03–0.06 s) per event-loop turn — so that a server stays responsive and
   * its first leaderboard request finds the work done. Optional: results are identical with or
   * without it (what is not done yet is computed on demand).
   */
  warmUp(): Promise<void>;
}

/** Miners pooled in an insight ensemble and the meta-leaderboard days that rank them (the service's insight conventions). */
const ENSEMBLE_MINERS = 10;
const ENSEMBLE_RANKING_DAYS = 14;
const DEFAULT_SCORING_MINUTES: Readonly<Record<PromptCadence, number>> = { sandbox: 32, real: 10 };

/**
 * Creates the sandbox's world for `seed` and `nowUnix` (see {@link WorldOptions}); cheap — every
 * part is computed on first use.
 *
 * Honest simplifications (the real network is intractable offline; each number the world reports
 * is still computed by `src/reference/` from the very paths and realized prices it serves, so a
 * validator-equivalent scorer reproduces it exactly):
 * - Cadence: by default prompts are thinned (`sandbox` cadence, see {@link PromptCadence}); `real`
 *   gives the network's.
 * - Scoring period: the validator began scoring `scoringMinutes` before now (default 32): prompts
 *   scored earlier have no scores, and leaderboards, smoothed scores and meta-leaderboards only see
 *   the updates since (before that they are empty, and so is an ensemble ranked then). One 24h
 *   prompt costs about 0.8 s to score (≈ 13 valid miners × 0.06 s of paths and reference CRPS), a
 *   1h prompt about 0.4 s; with the defaults (two 24h prompts per 24h competition, seven or eight
 *   1h prompts) the first leaderboard of a competition costs 1.5–3 s of CPU, all three about
 *   5.5 s, once per world — {@link World.warmUp} does it in the background.
 * - Competitions: each miner answers the prompts of the competitions in its profile (nine answer
 *   all, eight specialize in each); for the others it is absent (not queried).
 * - Unscored series: 1h prompts of the non-crypto assets and 24h prompts of `SPYX` are answered by
 *   the miners (so every insight of FULL has an ensemble at both horizons) but not scored; the
 *   validator scores `SP500`.
 * - Leaderboards update after each scored minute (visible 90 s after it); `rewards` are reward
 *   weights, unrounded; V2 and meta rows have empty `coldkey` and `ip_address`, as captured.
 * - Meta-leaderboard: per uid, the mean of its reward weight (0 when absent) over the updates of
 *   the competition in the last `days` days.
 * - Markets exist from 2024-01-01 and trade around the clock (see `markets.ts`).
 * Throws `RangeError` for a non-integer seed, a non-finite clock, a non-positive scoring period,
 * or a count of miners that is not a whole number from 1 to 36.
 * @param options - the seed and the clock (`nowUnix`), and the cadence, scoring period and miners
 *   when not the defaults.
 * @example
 * const world = createWorld({ seed: 7, nowUnix: Date.UTC(2026, 10, 21, 10, 49) / 1000 });
 * world.priceAt("BTC", world.nowUnix) // => about 80000
 */
export function createWorld(options: WorldOptions): World {
  const { seed } = options;
  if (!Number.isInteger(seed)) {
    throw new RangeError(`createWorld requires an integer seed, got ${seed}`);
  }
  if (!Number.isFinite(options.nowUnix)) {
    throw new RangeError(`createWorld requires a finite nowUnix, got ${options.nowUnix}`);
  }
  const nowUnix = Math.floor(options.nowUnix / 60) * 60;
  const cadence = options.cadence ?? "sandbox";
  if (cadence !== "sandbox" && cadence !== "real") {
    throw new RangeError(
      `createWorld requires cadence "sandbox" or "real", got ${String(cadence)}`,
    );
  }
  const scoringMinutes = options.scoringMinutes ?? DEFAULT_SCORING_MINUTES[cadence];
  if (!(scoringMinutes > 0 && Number.isFinite(scoringMinutes))) {
    throw new RangeError(`createWorld requires a positive scoringMinutes, got ${scoringMinutes}`);
  }
  const miners = options.miners ?? MINER_SLOTS.length;
  if (!(Number.isInteger(miners) && miners >= 1 && miners <= MINER_SLOTS.length)) {
    throw new RangeError(
      `createWorld requires miners from 1 to ${MINER_SLOTS.length} (a whole number), got ${miners}`,
    );
  }
  const scoringStartUnix = nowUnix - Math.round(scoringMinutes * 60);
  const table = promptSeriesTable(cadence);
  const markets = createMarkets(seed, nowUnix);
  const roster = createMinerRoster(seed, miners);
  const submissions = createSubmissions(seed, markets, roster);
  const scoring = createPromptScoring({ nowUnix, scoringStartUnix, markets, roster, submissions });
  const validator = createValidator({ nowUnix, table, roster, scoring });
  const leaderboards = createLeaderboards(validator, roster, nowUnix);
  const records = createValidationRecords(validator, submissions, roster, nowUnix);
  const ensembles = new BoundedCache<string, WorldEnsemble>(2);

  function marketAsset(operation: string, asset: string): string {
    const symbol = canonicalAsset(asset);
    if (!Object.hasOwn(MARKET_PROFILES, symbol)) {
      throw new RangeError(
        `${operation} requires an asset with a market (${MARKET_ASSETS.join(", ")}), got ${asset}`,
      );
    }
    return symbol;
  }

  function seriesOf(operation: string, asset: string, horizon: PromptHorizon): PromptSeries {
    const symbol = marketAsset(operation, asset);
    const series = table.find(
      (candidate) => candidate.asset === symbol && candidate.horizon === horizon,
    );
    if (series === undefined) {
      throw new RangeError(`${operation} requires horizon "1h" or "24h", got ${String(horizon)}`);
    }
    return series;
  }

  function notAfterNow(operation: string, field: string, unix: number): number {
    if (!Number.isFinite(unix)) {
      throw new RangeError(`${operation} requires a finite ${field}, got ${unix}`);
    }
    if (unix > nowUnix) {
      throw new RangeError(
        `${operation} requires ${field} at or before the world's now (${isoSeconds(nowUnix)}), got ${isoSeconds(unix)}`,
      );
    }
    return unix;
  }

  function horizonOf(timeIncrement: number, timeLength: number): PromptHorizon | undefined {
    for (const horizon of ["1h", "24h"] as const) {
      const layout = PROMPT_LAYOUTS[horizon];
      if (layout.timeIncrement === timeIncrement && layout.timeLength === timeLength)
        return horizon;
    }
    return undefined;
  }

  function predictionSet(
    uid: number,
    asset: string,
    startUnix: number,
    timeIncrement: number,
    timeLength: number,
  ): Submission {
    const horizon = horizonOf(timeIncrement, timeLength);
    if (horizon === undefined) {
      throw new RangeError(
        `predictionSet requires (timeIncrement, timeLength) (60, 3600) or (300, 86400), got (${timeIncrement}, ${timeLength})`,
      );
    }
    const series = seriesOf("predictionSet", asset, horizon);
    if (!Number.isInteger(startUnix)) {
      throw new RangeError(`predictionSet requires an integer startUnix, got ${startUnix}`);
    }
    notAfterNow("predictionSet", "startUnix", startUnix);
    return submissions.answer(uid, series, startUnix);
  }

  function metaLeaderboard(
    promptName: PromptName,
    days: number,
    atUnix = nowUnix,
  ): LeaderboardV2Row[] {
    return leaderboards.meta(promptName, days, notAfterNow("metaLeaderboard", "atUnix", atUnix));
  }

  function ensemble(
    asset: string,
    horizon: PromptHorizon,
    startUnix: number,
    rankingAtUnix = nowUnix,
  ): WorldEnsemble {
    const series = seriesOf("ensemble", asset, horizon);
    notAfterNow("ensemble", "startUnix", startUnix);
    const ranked = metaLeaderboard(series.competition, ENSEMBLE_RANKING_DAYS, rankingAtUnix).map(
      (row) => row.neuron_uid,
    );
    const key = `${series.asset}|${horizon}|${startUnix}|${ranked.join(",")}`;
    return ensembles.getOrCreate(key, () => {
      const layout = PROMPT_LAYOUTS[horizon];
      const { minerUids, paths } = pooledAnswers(ranked, ENSEMBLE_MINERS, (uid) =>
        submissions.answer(uid, series, startUnix),
      );
      return Object.freeze({
        minerUids: Object.freeze(minerUids),
        paths: Object.freeze(paths),
        startUnix,
        timeIncrement: layout.timeIncrement,
        pointCount: layout.pointCount,
      });
    });
  }

  return {
    seed,
    nowUnix,
    cadence,
    scoringStartUnix,

    marketAssets: MARKET_ASSETS,
    hasMarket: (asset) => Object.hasOwn(MARKET_PROFILES, canonicalAsset(asset)),
    minuteClose: (asset, minuteUnix) =>
      markets.minuteClose(marketAsset("minuteClose", asset), minuteUnix),
    priceAt: (asset, unix) => markets.priceAt(marketAsset("priceAt", asset), unix),
    minuteCloses: (asset, fromMinuteUnix, toMinuteUnix) =>
      markets.minuteCloses(marketAsset("minuteCloses", asset), fromMinuteUnix, toMinuteUnix),

    minerUids: roster.uids,
    minerAt(uid, atUnix = nowUnix) {
      const holder = roster.holderAt(uid, notAfterNow("minerAt", "atUnix", atUnix));
      if (holder === undefined) return undefined;
      return {
        minerUid: uid,
        hotkey: holder.hotkey,
        coldkey: holder.coldkey,
        registeredUnix: holder.registeredUnix,
        behaviour: holder.profile.behaviour,
        competitions: holder.profile.competitions,
      };
    },
    uidHolders: (fromUnix, toUnix) =>
      roster.holdersRegisteredBetween(fromUnix, Math.min(toUnix, nowUnix)).map((holder) => ({
        created_at: isoSeconds(holder.registeredUnix),
        hotkey: holder.hotkey,
        miner_uid: holder.uid,
      })),
    predictionSet,

    horizonOf,
    competitionFor: (asset, horizon) => seriesOf("competitionFor", asset, horizon).competition,
    promptStarts: (asset, horizon, fromUnix, toUnix) =>
      promptStartsBetween(
        seriesOf("promptStarts", asset, horizon),
        fromUnix,
        Math.min(toUnix, nowUnix),
      ),
    latestPromptStart(asset, horizon, atUnix = nowUnix) {
      const series = seriesOf("latestPromptStart", asset, horizon);
      return latestStartAtOrBefore(series, notAfterNow("latestPromptStart", "atUnix", atUnix));
    },
    isPromptStart: (asset, horizon, startUnix) =>
      startUnix <= nowUnix && isStartOf(seriesOf("isPromptStart", asset, horizon), startUnix),
    realizedPrices(asset, startUnix, timeIncrement, timeLength) {
      const symbol = marketAsset("realizedPrices", asset);
      if (!(timeIncrement > 0 && timeLength >= 0 && Number.isInteger(timeLength / timeIncrement))) {
        throw new RangeError(
          `realizedPrices requires a positive timeIncrement dividing timeLength, got ${timeIncrement} and ${timeLength}`,
        );
      }
      const prices = new Float64Array(timeLength / timeIncrement + 1);
      for (let point = 0; point < prices.length; point++) {
        prices[point] = markets.minuteClose(symbol, startUnix + point * timeIncrement);
      }
      return prices;
    },
    minerValidation: (uid, atUnix = nowUnix) =>
      records.minerValidation(uid, notAfterNow("minerValidation", "atUnix", atUnix), table),
    scoreRows: (query) =>
      records.scoreRows(
        seriesOf("scoreRows", query.asset, query.horizon),
        query.fromUnix,
        query.toUnix,
        query.minerUid,
      ),
    latestScoreRows: (asset, horizon) =>
      records.latestScoreRows(seriesOf("latestScoreRows", asset, horizon)),
    smoothedScoreRows: (query) =>
      leaderboards.smoothedScoreRows(
        query.fromUnix,
        query.toUnix,
        query.competition,
        query.minerUid,
      ),
    multiAssetMinutes: (fromUnix, toUnix, timeLength) =>
      records.multiAssetMinutes(
        table.filter((series) => PROMPT_LAYOUTS[series.horizon].timeLength === timeLength),
        fromUnix,
        toUnix,
      ),
    leaderboardV1: (atUnix = nowUnix) =>
      leaderboards.v1(notAfterNow("leaderboardV1", "atUnix", atUnix)),
    leaderboardV1History: (fromUnix, toUnix) => leaderboards.v1History(fromUnix, toUnix),
    leaderboardV2: (promptName, atUnix = nowUnix) =>
      leaderboards.v2(promptName, notAfterNow("leaderboardV2", "atUnix", atUnix)),
    leaderboardV2History: (promptName, fromUnix, toUnix) =>
      leaderboards.v2History(promptName, fromUnix, toUnix),
    metaLeaderboard,
    topMiners: (promptName, atUnix, limit, days) =>
      metaLeaderboard(promptName, days, atUnix)
        .slice(0, limit)
        .map((row) => row.neuron_uid),
    ensemble,
    async warmUp() {
      const steps = validator.warmUpSteps();
      while (!steps.next().done) await nextTurn();
    },
  };
}
