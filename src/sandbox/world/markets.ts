/**
 * The sandbox's 1-minute markets, generated on demand in day chunks: any minute of any asset
 * since {@link MARKET_HISTORY_START_UNIX} can be read in any order and is always the same for the
 * same seed, whatever the world's clock (the clock only hides the future).
 *
 * Model, per asset (parameters in `marketProfiles.ts`), with day d = a UTC day:
 * - daily log-volatility s_d = φ·s_{d−1} + √(1−φ²)·η·ε, σ_d = σ·exp(s_d − η²) (so E[σ_d²] = σ²);
 * - the log price at each day's first minute, L_{d+1} = L_d + D_d + (jumps of day d), where the
 *   diffusive part D_d = (−κ(L_d − ln anchor) − σ_d²/2)/365 + σ_d/√365·ε' mean-reverts slowly;
 *   these need one short random stream per day, so day d's level costs O(d) tiny steps once;
 * - within the day, a random walk whose minute volatility is σ_d × exp(u − τ²) with u an
 *   Ornstein–Uhlenbeck factor, bridged so that it ends exactly at D_d (a Brownian-bridge
 *   construction: the walk minus the linear share of its own end point error), plus the day's
 *   jumps at their minutes — so consecutive days join without a seam;
 * - a few gaps of 1–3 missing minutes per day (NaN);
 * - closes rounded like the miners' prices (8 significant digits, `priceDigits.ts`).
 */

import { BoundedCache } from "./boundedCache.ts";
import { MARKET_ASSETS, MARKET_PROFILES, type MarketProfile } from "./marketProfiles.ts";
import { roundPrice } from "./priceDigits.ts";
import { RandomStream, streamSeed } from "./randomStream.ts";

/**
 * First instant of the markets' history, 2024-01-01T00:00:00Z: earlier minutes do not exist.
 * @example MARKET_HISTORY_START_UNIX // => 1704067200
 */
export const MARKET_HISTORY_START_UNIX = Date.UTC(2024, 0, 1) / 1000;

const SECONDS_PER_DAY = 86400;
const MINUTES_PER_DAY = 1440;
const MINUTES_PER_YEAR = 525600;
const DAYS_PER_YEAR = 365;
const FIRST_DAY = MARKET_HISTORY_START_UNIX / SECONDS_PER_DAY;
/** Stream namespaces (the first part of every market stream key). */
const DAY_DRAWS_STREAM = 1;
const INTRADAY_STREAM = 2;
/** How far back {@link Markets.priceAt} looks for an observed close (one week of minutes). */
const PRICE_LOOKBACK_MINUTES = 7 * MINUTES_PER_DAY;
/** Day chunks kept: 14 assets × ~70 days, about 32 MB. */
const DAY_CACHE_CAPACITY = 1024;

/**
 * Prices and volatility regimes of every market, as {@link createMarkets} returns them. Assets are
 * the symbols of {@link MARKET_ASSETS}; times are unix seconds.
 * @example const price = createMarkets(7, nowUnix).priceAt("BTC", nowUnix);
 */
export interface Markets {
  /** Close stamped `minuteUnix` (floored to the minute); NaN if missing, after now, or before history. */
  minuteClose(asset: string, minuteUnix: number): number;
  /** The last observed close at or before `unix` (clamped to now), looking back at most a week. */
  priceAt(asset: string, unix: number): number;
  /** Closes of every minute from `fromMinuteUnix` to `toMinuteUnix` inclusive (floored to minutes). */
  minuteCloses(asset: string, fromMinuteUnix: number, toMinuteUnix: number): Float64Array;
  /** The annualized volatility σ_d (a fraction) of the UTC day containing `unix`. */
  dailyVolatility(asset: string, unix: number): number;
  /** The annualized minute volatility at `unix`: σ_d × the intraday factor of that minute. */
  spotVolatility(asset: string, unix: number): number;
}

interface DayDraws {
  readonly volatilityShock: number;
  readonly levelShock: number;
  /** Jumps of the day: minute (1…1439) and log size, by minute. */
  readonly jumps: readonly { readonly minute: number; readonly size: number }[];
  /** Missing minutes of the day. */
  readonly missingMinutes: readonly number[];
}

interface DailyStates {
  /** Log price at the first minute of each day since the start of history. */
  readonly levels: number[];
  /** Annualized volatility σ_d of each day. */
  readonly volatilities: number[];
  /** Diffusive log increment D_d of each day. */
  readonly diffusiveIncrements: number[];
  /** Daily log-volatility state s_d. */
  readonly logVolatilityStates: number[];
}

interface DayChunk {
  /** Close of each minute of the day (NaN where missing). */
  readonly closes: Float64Array;
  /** The intraday volatility factor of each minute. */
  readonly volatilityFactors: Float64Array;
}

/**
 * The markets of the world with `seed`, observable up to `nowUnix`.
 * Throws `RangeError` for a non-finite `nowUnix`.
 * @example
 * const markets = createMarkets(7, Date.UTC(2026, 10, 21) / 1000);
 * markets.minuteClose("ETH", Date.UTC(2026, 10, 20, 12) / 1000) // => about 2600
 */
export function createMarkets(seed: number, nowUnix: number): Markets {
  if (!Number.isFinite(nowUnix)) {
    throw new RangeError(`createMarkets requires a finite nowUnix, got ${nowUnix}`);
  }
  const statesByAsset = new Map<string, DailyStates>();
  const dayCache = new BoundedCache<string, DayChunk>(DAY_CACHE_CAPACITY);

  function profileOf(operation: string, asset: string): MarketProfile {
    if (!Object.hasOwn(MARKET_PROFILES, asset)) {
      throw new RangeError(
        `${operation} requires a market asset (${MARKET_ASSETS.join(", ")}), got ${asset}`,
      );
    }
    return MARKET_PROFILES[asset];
  }

  function dayDraws(asset: string, profile: MarketProfile, day: number): DayDraws {
    const stream = new RandomStream(
      streamSeed(seed, DAY_DRAWS_STREAM, MARKET_ASSETS.indexOf(asset), day),
    );
    const volatilityShock = stream.normal();
    const levelShock = stream.normal();
    const jumpCount = stream.poisson(profile.jumpsPerDay);
    const jumps: { minute: number; size: number }[] = [];
    for (let index = 0; index < jumpCount; index++) {
      jumps.push({
        minute: 1 + stream.integer(MINUTES_PER_DAY - 1),
        size: profile.jumpSize * stream.normal(),
      });
    }
    jumps.sort((first, second) => first.minute - second.minute);
    const gapCount = stream.poisson(profile.missingGapsPerDay);
    const missingMinutes: number[] = [];
    for (let index = 0; index < gapCount; index++) {
      const start = stream.integer(MINUTES_PER_DAY);
      const length = 1 + stream.integer(3);
      for (let minute = start; minute < Math.min(start + length, MINUTES_PER_DAY); minute++) {
        missingMinutes.push(minute);
      }
    }
    return { volatilityShock, levelShock, jumps, missingMinutes };
  }

  /** The daily states of `asset` up to day index `dayIndex` (0 = the first day of history). */
  function statesThrough(asset: string, profile: MarketProfile, dayIndex: number): DailyStates {
    let states = statesByAsset.get(asset);
    if (states === undefined) {
      states = {
        levels: [Math.log(profile.anchorPrice)],
        volatilities: [],
        diffusiveIncrements: [],
        logVolatilityStates: [],
      };
      statesByAsset.set(asset, states);
    }
    const anchorLevel = Math.log(profile.anchorPrice);
    const persistence = profile.volatilityPersistence;
    const volatilityOfVolatility = profile.volatilityOfVolatility;
    while (states.volatilities.length <= dayIndex) {
      const index = states.volatilities.length;
      const draws = dayDraws(asset, profile, FIRST_DAY + index);
      const previousState = index === 0 ? 0 : states.logVolatilityStates[index - 1];
      const logVolatilityState =
        persistence * previousState +
        Math.sqrt(1 - persistence * persistence) * volatilityOfVolatility * draws.volatilityShock;
      const volatility =
        profile.annualVolatility *
        Math.exp(logVolatilityState - volatilityOfVolatility * volatilityOfVolatility);
      const level = states.levels[index];
      const diffusiveIncrement =
        (-profile.priceReversionPerYear * (level - anchorLevel) - (volatility * volatility) / 2) /
          DAYS_PER_YEAR +
        (volatility / Math.sqrt(DAYS_PER_YEAR)) * draws.levelShock;
      let jumpTotal = 0;
      for (const jump of draws.jumps) jumpTotal += jump.size;
      states.logVolatilityStates.push(logVolatilityState);
      states.volatilities.push(volatility);
      states.diffusiveIncrements.push(diffusiveIncrement);
      states.levels.push(level + diffusiveIncrement + jumpTotal);
    }
    return states;
  }

  function generateDay(asset: string, profile: MarketProfile, day: number): DayChunk {
    const dayIndex = day - FIRST_DAY;
    const states = statesThrough(asset, profile, dayIndex);
    const volatility = states.volatilities[dayIndex];
    const level = states.levels[dayIndex];
    const diffusiveIncrement = states.diffusiveIncrements[dayIndex];
    const draws = dayDraws(asset, profile, day);
    const stream = new RandomStream(
      streamSeed(seed, INTRADAY_STREAM, MARKET_ASSETS.indexOf(asset), day),
    );
    const factorDeviation = profile.intradayVolatilityOfVolatility;
    const factorPersistence = Math.exp(-1 / profile.intradayReversionMinutes);
    const factorInnovation = factorDeviation * Math.sqrt(1 - factorPersistence * factorPersistence);
    const minuteScale = volatility / Math.sqrt(MINUTES_PER_YEAR);
    const walk = new Float64Array(MINUTES_PER_DAY + 1);
    const volatilityFactors = new Float64Array(MINUTES_PER_DAY);
    let factor = factorDeviation * stream.normal();
    for (let minute = 0; minute < MINUTES_PER_DAY; minute++) {
      const multiplier = Math.exp(factor - factorDeviation * factorDeviation);
      volatilityFactors[minute] = multiplier;
      walk[minute + 1] = walk[minute] + minuteScale * multiplier * stream.normal();
      factor = factorPersistence * factor + factorInnovation * stream.normal();
    }
    const bridgeSlope = (walk[MINUTES_PER_DAY] - diffusiveIncrement) / MINUTES_PER_DAY;
    const closes = new Float64Array(MINUTES_PER_DAY);
    let jumpIndex = 0;
    let jumpTotal = 0;
    for (let minute = 0; minute < MINUTES_PER_DAY; minute++) {
      while (jumpIndex < draws.jumps.length && draws.jumps[jumpIndex].minute <= minute) {
        jumpTotal += draws.jumps[jumpIndex].size;
        jumpIndex++;
      }
      closes[minute] = roundPrice(
        Math.exp(level + walk[minute] - bridgeSlope * minute + jumpTotal),
      );
    }
    for (const minute of draws.missingMinutes) closes[minute] = NaN;
    return { closes, volatilityFactors };
  }

  function chunkAt(asset: string, profile: MarketProfile, day: number): DayChunk {
    return dayCache.getOrCreate(`${asset}|${day}`, () => generateDay(asset, profile, day));
  }

  function minuteClose(asset: string, minuteUnix: number): number {
    const profile = profileOf("minuteClose", asset);
    const minute = Math.floor(minuteUnix / 60) * 60;
    if (!(minute >= MARKET_HISTORY_START_UNIX && minute <= nowUnix)) return NaN;
    const day = Math.floor(minute / SECONDS_PER_DAY);
    return chunkAt(asset, profile, day).closes[(minute - day * SECONDS_PER_DAY) / 60];
  }

  function priceAt(asset: string, unix: number): number {
    profileOf("priceAt", asset);
    let minute = Math.floor(Math.min(unix, nowUnix) / 60) * 60;
    for (let step = 0; step <= PRICE_LOOKBACK_MINUTES; step++, minute -= 60) {
      if (minute < MARKET_HISTORY_START_UNIX) return NaN;
      const close = minuteClose(asset, minute);
      if (!Number.isNaN(close)) return close;
    }
    return NaN;
  }

  function minuteCloses(asset: string, fromMinuteUnix: number, toMinuteUnix: number): Float64Array {
    profileOf("minuteCloses", asset);
    const from = Math.floor(fromMinuteUnix / 60) * 60;
    const to = Math.floor(toMinuteUnix / 60) * 60;
    if (!(to >= from)) {
      throw new RangeError(
        `minuteCloses requires toMinuteUnix ≥ fromMinuteUnix, got ${fromMinuteUnix} and ${toMinuteUnix}`,
      );
    }
    const closes = new Float64Array((to - from) / 60 + 1);
    for (let index = 0; index < closes.length; index++) {
      closes[index] = minuteClose(asset, from + index * 60);
    }
    return closes;
  }

  function dailyVolatility(asset: string, unix: number): number {
    const profile = profileOf("dailyVolatility", asset);
    const dayIndex = Math.floor(unix / SECONDS_PER_DAY) - FIRST_DAY;
    if (dayIndex < 0) return NaN;
    return statesThrough(asset, profile, dayIndex).volatilities[dayIndex];
  }

  function spotVolatility(asset: string, unix: number): number {
    const profile = profileOf("spotVolatility", asset);
    const minute = Math.floor(unix / 60) * 60;
    const day = Math.floor(minute / SECONDS_PER_DAY);
    if (day < FIRST_DAY) return NaN;
    const factor = chunkAt(asset, profile, day).volatilityFactors[
      (minute - day * SECONDS_PER_DAY) / 60
    ];
    return dailyVolatility(asset, unix) * factor;
  }

  return { minuteClose, priceAt, minuteCloses, dailyVolatility, spotVolatility };
}
