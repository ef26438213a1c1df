/**
 * Miners answering prompts: for one (uid, asset, horizon, start), whether the holder of the uid
 * answers, what it sends, and what the validator's format checks make of it — generated on
 * demand from streams keyed by the holder and the prompt, so the same question always gets the
 * same answer.
 */

import { BoundedCache } from "./boundedCache.ts";
import type { Markets } from "./markets.ts";
import { MARKET_ASSETS, MARKET_PROFILES } from "./marketProfiles.ts";
import type { MinerHolder, MinerRoster } from "./minerRoster.ts";
import { simulatePricePaths } from "./pathSimulation.ts";
import { PROMPT_LAYOUTS, type PromptHorizon, type PromptSeries } from "./promptSchedule.ts";
import { RandomStream, streamSeed } from "./randomStream.ts";
import { CORRECT_REASON, submissionReason, TIMEOUT_REASON } from "./submissionReason.ts";
import type { Competition } from "../../domain/assets.ts";
import { roundPrice } from "../../domain/priceFormat.ts";

/** Paths every prompt asks for. */
export const PATHS_PER_PROMPT = 1000;
const DRAWS_STREAM = 20;
const PATHS_STREAM = 21;
/** Prediction sets kept (about 2.3 MB each for 24h). */
const SUBMISSION_CACHE_CAPACITY = 24;

/**
 * One miner's answer to one prompt; see `World.predictionSet` for the meaning of each status.
 * @example if (submission.status === "valid") console.log(submission.values![0]);
 */
export type Submission =
  | {
      readonly status: "valid" | "invalid";
      readonly minerUid: number;
      /** The hotkey that held the uid at the prompt's start. */
      readonly hotkey: string;
      /** The validator's identity of that hotkey (see `MinerHolder.holderKey`). */
      readonly holderKey: number;
      readonly asset: string;
      readonly startUnix: number;
      readonly timeIncrement: number;
      readonly timeLength: number;
      /** `CORRECT` or the validator's first failure (the network's prompts). */
      readonly reason: string;
      /** Seconds the miner took to answer; NaN for a time-out. */
      readonly responseTimeSeconds: number;
      /** Paths sent (0 for a time-out). */
      readonly pathCount: number;
      /** Points per path sent (0 for a time-out). */
      readonly pointCount: number;
      /** The prices sent, path-major; `undefined` for a time-out. Shared: do not modify. */
      readonly values: Float64Array | undefined;
    }
  | {
      readonly status: "absent";
      readonly minerUid: number;
      readonly asset: string;
      readonly startUnix: number;
      readonly timeIncrement: number;
      readonly timeLength: number;
    };

/**
 * The answers of every miner, as {@link createSubmissions} returns them.
 * @example const answer = submissions.answer(47, { asset: "BTC", horizon: "24h", competition: "crypto-24h" }, start);
 */
export interface Submissions {
  /**
   * The answer of `uid` to the prompt of the series (`asset` a market symbol) starting at
   * `startUnix`, whose miners are those of the series' `competition`.
   */
  answer(
    uid: number,
    series: Pick<PromptSeries, "asset" | "horizon" | "competition">,
    startUnix: number,
  ): Submission;
}

/**
 * The miners' answers in the world with `seed`. A holder answers a prompt when it competes in the
 * prompt's competition, is past its warm-up and not leaving, and its per-prompt absence draw
 * passes; then, with its failure rate, it fails in its way; otherwise it simulates 1,000 paths
 * from its view of the spot (the last close at or before the start, or `staleMinutes` earlier)
 * with the market's volatility regime (24h: the day's σ; 1h: the minute's σ) times its dispersion,
 * its drift and tails, and the market's jump intensity. A copier sends its source's paths when
 * the source's answer is valid (the same array), else simulates as a calibrated miner. Every
 * answer that carries prices is checked by {@link submissionReason} under the rules of the
 * prompt's start: its status and reason are what the validator's checks say about the content,
 * not what the miner intended.
 * @example const submissions = createSubmissions(7, markets, roster);
 */
export function createSubmissions(
  seed: number,
  markets: Markets,
  roster: MinerRoster,
): Submissions {
  const cache = new BoundedCache<string, Submission>(SUBMISSION_CACHE_CAPACITY);

  function answer(
    uid: number,
    { asset, horizon, competition }: Pick<PromptSeries, "asset" | "horizon" | "competition">,
    startUnix: number,
  ): Submission {
    return cache.getOrCreate(`${uid}|${asset}|${horizon}|${startUnix}`, () =>
      compute(uid, asset, horizon, startUnix, competition),
    );
  }

  function compute(
    uid: number,
    asset: string,
    horizon: PromptHorizon,
    startUnix: number,
    competition: Competition,
  ): Submission {
    const layout = PROMPT_LAYOUTS[horizon];
    const prompt = {
      minerUid: uid,
      asset,
      startUnix,
      timeIncrement: layout.timeIncrement,
      timeLength: layout.timeLength,
    };
    const absent: Submission = { status: "absent", ...prompt };
    const holder = roster.holderAt(uid, startUnix);
    if (holder === undefined) return absent;
    const profile = holder.profile;
    if (!profile.competitions.includes(competition)) return absent;
    if (startUnix < holder.answersFromUnix || startUnix >= holder.answersUntilUnix) return absent;
    const assetIndex = MARKET_ASSETS.indexOf(asset);
    const horizonIndex = horizon === "1h" ? 0 : 1;
    const draws = new RandomStream(
      streamSeed(seed, DRAWS_STREAM, holder.holderKey, assetIndex, horizonIndex, startUnix),
    );
    const absenceDraw = draws.uniform();
    const failureDraw = draws.uniform();
    const responseTimeSeconds =
      Math.round(profile.responseSeconds * (0.5 + draws.uniform()) * 1000) / 1000;
    if (absenceDraw < profile.absenceRate) return absent;
    const failure =
      profile.failure !== undefined && failureDraw < profile.failureRate
        ? profile.failure
        : undefined;
    const identity = { ...prompt, hotkey: holder.hotkey, holderKey: holder.holderKey };
    if (failure === "timeout") {
      return {
        status: "invalid",
        ...identity,
        reason: TIMEOUT_REASON,
        responseTimeSeconds: NaN,
        pathCount: 0,
        pointCount: 0,
        values: undefined,
      };
    }
    if (profile.copiesUid !== undefined) {
      const source = answer(profile.copiesUid, { asset, horizon, competition }, startUnix);
      if (source.status === "valid") {
        return {
          status: "valid",
          ...identity,
          reason: CORRECT_REASON,
          responseTimeSeconds,
          pathCount: source.pathCount,
          pointCount: source.pointCount,
          values: source.values,
        };
      }
    }
    const values = simulate(holder, asset, horizon, startUnix, failure, draws);
    if (values === undefined) return absent;
    const pathCount = failure === "wrongPathCount" ? PATHS_PER_PROMPT - 1 : PATHS_PER_PROMPT;
    const pointCount = failure === "shortPaths" ? layout.pointCount - 1 : layout.pointCount;
    const reason = submissionReason(values, pathCount, pointCount, {
      startTimeUnix: startUnix,
      timeIncrement: layout.timeIncrement,
      timeLength: layout.timeLength,
      numSimulations: PATHS_PER_PROMPT,
    });
    return {
      status: reason === CORRECT_REASON ? "valid" : "invalid",
      ...identity,
      reason,
      responseTimeSeconds,
      pathCount,
      pointCount,
      values,
    };
  }

  /** The holder's paths, or `undefined` when it has no view of the spot (before the markets). */
  function simulate(
    holder: MinerHolder,
    asset: string,
    horizon: PromptHorizon,
    startUnix: number,
    failure: string | undefined,
    draws: RandomStream,
  ): Float64Array | undefined {
    const profile = holder.profile;
    const layout = PROMPT_LAYOUTS[horizon];
    const market = MARKET_PROFILES[asset];
    const startPrice = markets.priceAt(asset, startUnix - profile.staleMinutes * 60);
    const regimeVolatility =
      horizon === "1h"
        ? markets.spotVolatility(asset, startUnix)
        : markets.dailyVolatility(asset, startUnix);
    if (!(startPrice > 0) || !(regimeVolatility > 0)) return undefined;
    const annualVolatility = regimeVolatility * profile.dispersion;
    const pathCount = failure === "wrongPathCount" ? PATHS_PER_PROMPT - 1 : PATHS_PER_PROMPT;
    const pointCount = failure === "shortPaths" ? layout.pointCount - 1 : layout.pointCount;
    const stream = new RandomStream(
      streamSeed(
        seed,
        PATHS_STREAM,
        holder.holderKey,
        MARKET_ASSETS.indexOf(asset),
        horizon === "1h" ? 0 : 1,
        startUnix,
      ),
    );
    const values = simulatePricePaths(
      {
        startPrice,
        annualVolatility,
        annualDrift: profile.driftSigmasPerDay * regimeVolatility * Math.sqrt(365),
        tailDegrees: profile.tailDegrees,
        jumpsPerDay: market.jumpsPerDay,
        jumpSize: market.jumpSize,
        stepMinutes: layout.timeIncrement / 60,
        pathCount,
        pointCount,
        significantDigits: failure === "tooManyDigits" ? 0 : failure === "nineDigits" ? 9 : 8,
      },
      stream,
    );
    if (failure === "zeroPrice") {
      values[draws.integer(pathCount) * pointCount + 1 + draws.integer(pointCount - 1)] = 0;
    }
    if (failure === "float32Overflow" || failure === "float32Underflow") {
      const factor = failure === "float32Overflow" ? 1e40 : 1e-55;
      const offset = draws.integer(pathCount) * pointCount;
      for (let point = 1 + draws.integer(pointCount - 1); point < pointCount; point++) {
        values[offset + point] = roundPrice(values[offset + point] * factor);
      }
    }
    return values;
  }

  return { answer };
}
