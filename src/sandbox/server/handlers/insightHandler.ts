/**
 * The insights and venue operations: gathers one request's view of the world
 * ({@link SandboxInsightInputs}) and hands it to the record builders of `src/sandbox/insights`,
 * which compute with `src/reference/` only.
 */
import { canonicalAsset, type Horizon } from "../../../domain/assets.ts";
import { InvalidParamsError } from "../../../domain/errors.ts";
import {
  ENSEMBLE_DAYS,
  ENSEMBLE_SIZE,
  HORIZON_LAYOUTS,
} from "../../../domain/insightConventions.ts";
import { insightKind, isInsightPath } from "../../../domain/insightKindLists.ts";
import { buildInsightResponse } from "../../insights/buildInsightResponse.ts";
import type { SandboxInsightInputs, SandboxInsightOptions } from "../../insights/inputs.ts";
import { pooledAnswers } from "../../world/pathRows.ts";
import type { World } from "../../world/world.ts";
import type { OperationHandler } from "../handlerTypes.ts";
import { createLruCache } from "../lruCache.ts";
import { timeParamUnix } from "../requestTimes.ts";
import { requireDaysOfHistory } from "./paramChecks.ts";

/**
 * What {@link createInsightHandler} needs.
 * @example const options: InsightHandlerOptions = { world, insightOptions: { timeInIntervalUnit: "hours" } };
 */
export interface InsightHandlerOptions {
  readonly world: World;
  /** Modes of the sandbox's "service" that depart from the insight conventions (default none). */
  readonly insightOptions?: SandboxInsightOptions;
  /**
   * Ensembles kept (each the miners' 10 sets and, once an insight is built from it, its
   * 10,000 × 289 re-based prices in one Float64Array, about 23 MB, and its sorted columns as much
   * again; plus the previous prompt's for the volatility records). Default 3.
   */
  readonly ensembleCacheEntries?: number;
}

/**
 * Most miners an insight request may pool with the earlier `limit` parameter (the default is
 * 10): an ensemble of 32,000 paths is the most the sandbox computes per request.
 * @example MAX_ENSEMBLE_LIMIT // => 32
 */
export const MAX_ENSEMBLE_LIMIT = 32;

/**
 * Most days the earlier `days` parameter may aggregate: the sandbox keeps 30 days of history.
 * @example MAX_ENSEMBLE_DAYS // => 30
 */
export const MAX_ENSEMBLE_DAYS = 30;

type Paths = readonly ArrayLike<number>[];

/** One cached ensemble; `previous` is filled on first need (volatility records only). */
interface EnsembleEntry {
  readonly minerUids: readonly number[];
  readonly paths: Paths;
  previous: Paths | undefined | null;
}

/**
 * Creates the handler of every insights and venue operation. Per request: the asset (remapped,
 * `SPY` → `SPYX`), the horizon (the operation's default when omitted), the clock (the sandbox's
 * `now`, or `start_time` for a historical snapshot), the market price at that clock, the latest
 * prompt at or before it (`forecast_start_time`), and the ensemble of that prompt: the world's
 * top-10 ensemble (meta-leaderboard over 14 days, ranked at the request's clock — or at the
 * sandbox's clock for a snapshot older than the sandbox's validator, which began scoring shortly
 * before `now` (`world.scoringStartUnix`) and so has no ranking earlier), or, with the
 * earlier `limit`/`days`, the first `limit` miners of the `days`-day meta-leaderboard that sent a
 * valid submission with positive prices. The volatility records also get the ensemble of the
 * prompt one horizon earlier (`forecast_start_time` − 24h or − 1h; the latest prompt at or before
 * that time if none starts exactly then), ranked at the same clock.
 *
 * 400 (`InvalidParamsError`) for a `start_time` after the sandbox's clock or before the market's
 * history, a horizon at which the world has no prompt of the asset before that clock, and
 * `limit` > {@link MAX_ENSEMBLE_LIMIT} or `days` > {@link MAX_ENSEMBLE_DAYS}.
 * @example
 * const handler = createInsightHandler({ world });
 * handler({ operation: operationTable.insights.liquidation, params: { asset: "ETH" }, shape: undefined });
 */
export function createInsightHandler(options: InsightHandlerOptions): OperationHandler {
  const { world, insightOptions } = options;
  const ensembles = createLruCache<string, EnsembleEntry>({
    maxEntries: options.ensembleCacheEntries ?? 3,
  });

  function pooled(
    asset: string,
    horizon: Horizon,
    startUnix: number,
    rankingAtUnix: number,
    limit: number,
    days: number,
  ): { minerUids: readonly number[]; paths: Paths } {
    if (limit === ENSEMBLE_SIZE && days === ENSEMBLE_DAYS) {
      const ensemble = world.ensemble(asset, horizon, startUnix, rankingAtUnix);
      return { minerUids: ensemble.minerUids, paths: ensemble.paths };
    }
    const competition = world.competitionFor(asset, horizon);
    const ranking = world.topMiners(competition, rankingAtUnix, world.minerUids.length, days);
    const { timeIncrement, timeLength } = horizonGrid(horizon);
    return pooledAnswers(ranking, limit, (uid) =>
      world.predictionSet(uid, asset, startUnix, timeIncrement, timeLength),
    );
  }

  return ({ operation, params }) => {
    const path = operation.path;
    const asset = canonicalAsset(typeof params.asset === "string" ? params.asset : "BTC");
    const horizon = (
      typeof params.horizon === "string" ? params.horizon : defaultHorizon(operation.params)
    ) as Horizon;
    const limit = typeof params.limit === "number" ? params.limit : ENSEMBLE_SIZE;
    const days = typeof params.days === "number" ? params.days : ENSEMBLE_DAYS;
    if (limit > MAX_ENSEMBLE_LIMIT) {
      throw new InvalidParamsError(
        path,
        "limit",
        `an integer from 1 to ${MAX_ENSEMBLE_LIMIT}`,
        String(limit),
      );
    }
    requireDaysOfHistory(path, days, MAX_ENSEMBLE_DAYS);
    const nowUnix = timeParamUnix(path, params, "start_time", world.nowUnix) ?? world.nowUnix;
    const currentPrice = world.priceAt(asset, nowUnix);
    const forecastStartUnix = world.latestPromptStart(asset, horizon, nowUnix);
    if (!(currentPrice > 0) || forecastStartUnix === undefined) {
      if (typeof params.start_time === "string" && !(currentPrice > 0)) {
        throw new InvalidParamsError(
          path,
          "start_time",
          `a time within the sandbox's market history of ${asset}`,
          JSON.stringify(params.start_time),
        );
      }
      throw new InvalidParamsError(
        path,
        "horizon",
        `a horizon with a prompt of ${asset} at or before ${new Date(nowUnix * 1000).toISOString()}`,
        JSON.stringify(horizon),
      );
    }
    // The validator began scoring shortly before the sandbox's clock: no ranking exists earlier.
    const competition = world.competitionFor(asset, horizon);
    const rankingAtUnix =
      world.metaLeaderboard(competition, days, nowUnix).length > 0 ? nowUnix : world.nowUnix;
    const key = `${asset}|${horizon}|${forecastStartUnix}|${nowUnix}|${limit}|${days}`;
    const entry = ensembles.getOrCompute(key, () => ({
      ...pooled(asset, horizon, forecastStartUnix, rankingAtUnix, limit, days),
      previous: null,
    }));
    if (entry.minerUids.length === 0) {
      throw new Error(
        `no miner of ${asset} ${horizon} sent a valid submission for the prompt at ${forecastStartUnix}`,
      );
    }
    if (entry.previous === null && readsPreviousPrompt(path)) {
      const target = forecastStartUnix - HORIZON_LAYOUTS[horizon].horizonMinutes * 60;
      const previousStart = world.isPromptStart(asset, horizon, target)
        ? target
        : world.latestPromptStart(asset, horizon, target);
      entry.previous =
        previousStart === undefined
          ? undefined
          : pooled(asset, horizon, previousStart, rankingAtUnix, limit, days).paths;
    }
    const inputs: SandboxInsightInputs = {
      operationPath: path,
      asset,
      horizon,
      nowUnix,
      currentPrice,
      forecastStartUnix,
      timeIncrement: horizonGrid(horizon).timeIncrement,
      minerUids: entry.minerUids,
      paths: entry.paths,
      previousPaths: entry.previous ?? undefined,
      minuteClose: (minuteUnix) =>
        minuteUnix <= nowUnix ? world.minuteClose(asset, minuteUnix) : NaN,
      priceAt: (unix) => world.priceAt(asset, Math.min(unix, nowUnix)),
      seed: world.seed,
      ...(insightOptions !== undefined && { options: insightOptions }),
    };
    return { json: buildInsightResponse(inputs) };
  };
}

/** Step and length in seconds of a horizon's prompts (insight conventions). */
function horizonGrid(horizon: Horizon): { timeIncrement: number; timeLength: number } {
  const layout = HORIZON_LAYOUTS[horizon];
  return { timeIncrement: layout.timeIncrement, timeLength: layout.horizonMinutes * 60 };
}

function defaultHorizon(params: readonly { name: string; default?: string | number }[]): string {
  const spec = params.find((param) => param.name === "horizon");
  return typeof spec?.default === "string" ? spec.default : "24h";
}

/** Whether the record of `path` reads the previous prompt's ensemble (the volatility records). */
function readsPreviousPrompt(path: string): boolean {
  return isInsightPath(path) && insightKind(path).inputs.includes("previous-prompt");
}
