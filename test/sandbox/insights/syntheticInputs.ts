/**
 * Test helper: `SandboxInsightInputs` over a synthetic world — a seeded 1-minute GBM market with a
 * few missing minutes, and GBM ensembles for the current and the previous prompt — so that every
 * builder can be checked against closed forms, numpy and direct reference calls.
 */

import type { Horizon } from "../../../src/domain/assets.ts";
import { HORIZON_LAYOUTS } from "../../../src/domain/insightConventions.ts";
import { simulateGbmPaths } from "../../../src/reference/gbm.ts";
import { createRandom } from "../../../src/reference/random.ts";
import type {
  SandboxInsightInputs,
  SandboxInsightOptions,
} from "../../../src/sandbox/insights/inputs.ts";

/** 2026-02-25T23:45:17Z, the captured snapshot time. */
export const NOW_UNIX = 1_772_063_117;

/** A seeded minute market: closes every minute over [fromUnix, toUnix], NaN at a few minutes. */
export interface SyntheticMarket {
  readonly fromUnix: number;
  readonly closes: readonly number[];
  readonly minuteClose: (minuteUnix: number) => number;
  readonly priceAt: (unix: number) => number;
}

/** Every `missingEvery`-th minute is missing; `fromUnix` must be a whole minute. */
export function syntheticMarket(
  seed: number,
  startPrice: number,
  annualVolatility: number,
  fromUnix: number,
  toUnix: number,
  missingEvery = 97,
): SyntheticMarket {
  if (fromUnix % 60 !== 0)
    throw new RangeError(`syntheticMarket needs a whole minute, got ${fromUnix}`);
  const random = createRandom(seed);
  const count = Math.floor((toUnix - fromUnix) / 60) + 1;
  const perMinute = annualVolatility / Math.sqrt(525600);
  const closes: number[] = [];
  let price = startPrice;
  for (let index = 0; index < count; index++) {
    price *= Math.exp(perMinute * random.normal() - (perMinute * perMinute) / 2);
    closes.push(index > 0 && index % missingEvery === 0 ? NaN : price);
  }
  const minuteClose = (minuteUnix: number): number => {
    const index = (minuteUnix - fromUnix) / 60;
    return Number.isInteger(index) && index >= 0 && index < count ? closes[index] : NaN;
  };
  const priceAt = (unix: number): number => {
    for (let index = Math.floor((unix - fromUnix) / 60); index >= 0; index--) {
      if (index < count && Number.isFinite(closes[index])) return closes[index];
    }
    return NaN;
  };
  return { fromUnix, closes, minuteClose, priceAt };
}

/** Options of {@link syntheticInputs}. */
export interface SyntheticOptions {
  readonly operationPath?: string;
  readonly asset?: string;
  readonly horizon?: Horizon;
  readonly nowUnix?: number;
  /** Paths per miner (10 miners). */
  readonly pathsPerMiner?: number;
  /** Annualized volatility of the ensembles' GBM (fraction). */
  readonly annualVolatility?: number;
  /** Relative spread of the miners' start prices around the market price (0 = all at it). */
  readonly startSpread?: number;
  readonly seed?: number;
  readonly options?: SandboxInsightOptions;
}

/** The inputs a server would gather, over a synthetic BTC-like market. */
export function syntheticInputs(settings: SyntheticOptions = {}): SandboxInsightInputs {
  const horizon = settings.horizon ?? "24h";
  const nowUnix = settings.nowUnix ?? NOW_UNIX;
  const { timeIncrement, nPoints } = HORIZON_LAYOUTS[horizon];
  const annualVolatility = settings.annualVolatility ?? 0.5;
  const pathsPerMiner = settings.pathsPerMiner ?? 100;
  const startSpread = settings.startSpread ?? 0;
  const firstMinute = Math.floor(nowUnix / 60) * 60 - 8 * 86400;
  const market = syntheticMarket(7, 67000, annualVolatility, firstMinute, firstMinute + 9 * 86400);
  // The latest prompt: 24h prompts every 4 minutes, 1h prompts every minute (for BTC).
  const cadence = horizon === "24h" ? 240 : 60;
  const forecastStartUnix = Math.floor(nowUnix / cadence) * cadence;
  const horizonSeconds = (nPoints - 1) * timeIncrement;
  const ensembleAt = (startUnix: number, seed: number): number[][] => {
    const paths: number[][] = [];
    const random = createRandom(seed);
    for (let miner = 0; miner < 10; miner++) {
      const start = market.priceAt(startUnix) * (1 + startSpread * (miner - 4.5));
      paths.push(
        ...simulateGbmPaths(random, {
          startPrice: start,
          annualVolatility,
          stepMinutes: timeIncrement / 60,
          stepCount: nPoints - 1,
          pathCount: pathsPerMiner,
        }),
      );
    }
    return paths;
  };
  return {
    operationPath: settings.operationPath ?? "/insights/liquidation",
    asset: settings.asset ?? "BTC",
    horizon,
    nowUnix,
    currentPrice: market.priceAt(nowUnix),
    forecastStartUnix,
    timeIncrement,
    minerUids: [5, 17, 23, 31, 42, 47, 58, 64, 71, 88],
    paths: ensembleAt(forecastStartUnix, 101),
    previousPaths: ensembleAt(forecastStartUnix - horizonSeconds, 202),
    minuteClose: market.minuteClose,
    priceAt: market.priceAt,
    seed: settings.seed ?? 42,
    options: settings.options,
  };
}
