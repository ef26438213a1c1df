/**
 * What the sandbox's insight and venue responses are computed from: the world's state at the
 * request, gathered by the server (`src/sandbox/server`) and handed to the record builders
 * (`src/sandbox/insights`), which compute with `src/reference/` only.
 */

import type { RebaseOption, TimeInIntervalUnit } from "../../domain/insightConventions.ts";

/**
 * Modes of the sandbox's "service" that differ from the insight conventions' defaults, so that a
 * cross-check can be shown to diagnose them (issue 5: a sandbox that reports time in interval in
 * hours, or re-bases multiplicatively).
 * @example const options: SandboxInsightOptions = { timeInIntervalUnit: "hours" };
 */
export interface SandboxInsightOptions {
  /** How the ensemble is re-based to the current price; default `"additive"`. */
  readonly rebase?: RebaseOption;
  /** Unit of `expected_time_in_interval` in LP bounds; default `"minutes"`. */
  readonly timeInIntervalUnit?: TimeInIntervalUnit;
}

/**
 * One request's view of the world, for one asset and horizon.
 * @example
 * const inputs: SandboxInsightInputs = { operationPath: "/insights/liquidation", asset: "BTC", horizon: "24h", nowUnix, currentPrice, forecastStartUnix, timeIncrement: 300, minerUids, paths, previousPaths, minuteClose, priceAt, seed: 42 };
 */
export interface SandboxInsightInputs {
  /** The spec's path of the operation (neutral naming), e.g. `/insights/venuea/up-down/hourly`. */
  readonly operationPath: string;
  /** The canonical asset (`SPYX` for `SPY`), as the world knows it. */
  readonly asset: string;
  /** The horizon of the ensemble below: the request's `horizon`, or the operation's default. */
  readonly horizon: "1h" | "24h";
  /** The request's clock (the sandbox's `now`, or the requested `start_time`), unix seconds. */
  readonly nowUnix: number;
  /** The market price at `nowUnix`: the last observed 1-minute close at or before it. */
  readonly currentPrice: number;
  /** Start of the prompt whose ensemble is used (the latest prompt at `nowUnix`), unix seconds. */
  readonly forecastStartUnix: number;
  /** Seconds between path points: 300 (24h) or 60 (1h). */
  readonly timeIncrement: number;
  /** Miners of the ensemble, in meta-leaderboard order (top 10 with a valid submission). */
  readonly minerUids: readonly number[];
  /**
   * The pooled ensemble, raw (not re-based): every miner's paths, miner after miner (each path an
   * array of prices, or a view of a miner's Float64Array).
   */
  readonly paths: readonly ArrayLike<number>[];
  /** The pooled ensemble of the prompt one horizon before `forecastStartUnix` (for `forecast_past`). */
  readonly previousPaths: readonly ArrayLike<number>[] | undefined;
  /**
   * Start of the prompt of `previousPaths`, unix seconds, when it is not exactly one horizon
   * before `forecastStartUnix` (added after the first contract; default: one horizon before). Its
   * ensemble is re-based to the market price at this time.
   */
  readonly previousForecastStartUnix?: number;
  /** Close of the 1-minute candle that starts at `minuteUnix` (a multiple of 60); NaN where missing. */
  readonly minuteClose: (minuteUnix: number) => number;
  /** The last observed close at or before `unix` (NaN before the market's history). */
  readonly priceAt: (unix: number) => number;
  /** The sandbox's seed, for the venues' deterministic noise. */
  readonly seed: number;
  /** Optional modes that depart from the conventions' defaults (added after the first contract). */
  readonly options?: SandboxInsightOptions;
}
