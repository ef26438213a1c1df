/**
 * The plan step of the baseline job: the validator's prompts of the range for each asset, the
 * output folder checked against them, and the realized 1-minute closes each asset's prompts need.
 */

import {
  COMPETITION_ASSETS,
  COMPETITION_HORIZONS,
  VALIDATION_ASSETS,
} from "../../domain/assets.ts";
import { HORIZON_LAYOUTS } from "../../domain/insightConventions.ts";
import type { PromptsParams } from "../../domain/params.ts";
import { isoSeconds, parseIsoTimeMs } from "../../domain/time.ts";
import type { Competition } from "../../domain/assets.ts";
import type { Job } from "../harness/runJob.ts";
import { fetchMinuteCloses, type MinuteCloses } from "../sync/fetchMinuteCloses.ts";
import { baselineFileName, prepareBaselineFolder } from "./file.ts";
import {
  DEFAULT_BASELINE_SEED,
  type BaselineOptions,
  type CheckedBaselineOptions,
} from "./options.ts";

/** Seconds of realized prices before a prompt's start that its volatility is estimated from. */
export const LOOKBACK_SECONDS = 86400;

/**
 * One prompt of the range and the name of its file.
 * @example const prompt: BaselinePrompt = { asset: "BTC", startUnix: 1795251600, file: "BTC-20261121T090000Z-1h.json" };
 */
export interface BaselinePrompt {
  readonly asset: string;
  readonly startUnix: number;
  readonly file: string;
}

/**
 * What a baseline run writes: its prompts (by start, then asset), the closes of each asset, and
 * the shape of the files.
 * @example const { prompts, closesByAsset } = await planBaseline(job, options);
 */
export interface BaselinePlan {
  readonly assets: readonly string[];
  readonly prompts: readonly BaselinePrompt[];
  /** Files of the folder that an earlier `pathlab baseline` wrote and this run replaces. */
  readonly replaced: number;
  readonly closesByAsset: ReadonlyMap<string, MinuteCloses>;
  readonly nPaths: number;
  readonly modelSeed: number;
  readonly timeIncrement: number;
  readonly nPoints: number;
  readonly timeLength: number;
}

/**
 * The validator's prompts of a competition in [from, to] for each of its validated assets (or
 * `assets` of them), by start then asset, with the competition's prompt shape. Shared by the
 * baseline and backtest jobs.
 * @param job - the job whose client asks the service.
 * @param competition - the competition, e.g. `crypto-1h`.
 * @param fromUnix - the first start, Unix seconds.
 * @param toUnix - the last start, Unix seconds.
 * @param only - only these assets (default every validated asset of the competition).
 * @example const { prompts } = await rangeValidatorPrompts(job, "crypto-1h", from, to);
 */
export async function rangeValidatorPrompts(
  job: Job<unknown>,
  competition: Competition,
  fromUnix: number,
  toUnix: number,
  only?: readonly string[],
): Promise<{
  assets: string[];
  prompts: { asset: string; startUnix: number }[];
  timeIncrement: number;
  nPoints: number;
  timeLength: number;
}> {
  const { timeIncrement, nPoints, horizonMinutes } =
    HORIZON_LAYOUTS[COMPETITION_HORIZONS[competition]];
  const timeLength = horizonMinutes * 60;
  const assets = (COMPETITION_ASSETS[competition] as readonly string[]).filter(
    (asset) =>
      (VALIDATION_ASSETS as readonly string[]).includes(asset) &&
      (only === undefined || only.includes(asset)),
  );
  const prompts: { asset: string; startUnix: number }[] = [];
  for (const asset of assets) {
    const { start_times: starts } = await job.client.request("/validation/prompts", {
      from: isoSeconds(fromUnix),
      to: isoSeconds(toUnix),
      asset: asset as PromptsParams["asset"],
      time_increment: timeIncrement as PromptsParams["time_increment"],
      time_length: timeLength as PromptsParams["time_length"],
    });
    for (const start of starts) prompts.push({ asset, startUnix: parseIsoTimeMs(start) / 1000 });
  }
  prompts.sort((a, b) => a.startUnix - b.startUnix || (a.asset < b.asset ? -1 : 1));
  return { assets, prompts, timeIncrement, nPoints, timeLength };
}

/**
 * The realized 1-minute closes of each asset from `lookbackSeconds` before its first prompt's
 * start to its last start, fetched for all assets at once.
 * @param job - the job whose client asks the service.
 * @param prompts - the prompts, by asset and start.
 * @param lookbackSeconds - how far before each asset's first start to begin.
 * @example const closes = await promptCloses(job, prompts, 86400);
 */
export async function promptCloses(
  job: Job<unknown>,
  prompts: readonly { asset: string; startUnix: number }[],
  lookbackSeconds: number,
): Promise<Map<string, MinuteCloses>> {
  const closesByAsset = new Map<string, MinuteCloses>();
  const assets = [...new Set(prompts.map((prompt) => prompt.asset))];
  await Promise.all(
    assets.map(async (asset) => {
      const starts = prompts.filter((prompt) => prompt.asset === asset).map((p) => p.startUnix);
      const first = Math.min(...starts) - lookbackSeconds;
      closesByAsset.set(
        asset,
        await fetchMinuteCloses(job.client, asset, first, Math.max(...starts)),
      );
    }),
  );
  return closesByAsset;
}

/**
 * Plans a baseline run (see the module comment). Throws `UsageError` for files in the folder that
 * pathlab did not write, unless `force`.
 * @example const plan = await planBaseline(job, options);
 */
export async function planBaseline(
  job: Job<CheckedBaselineOptions>,
  options: BaselineOptions,
): Promise<BaselinePlan> {
  const { competition, out } = job.checked;
  const fromUnix = Math.floor(parseIsoTimeMs(options.from) / 1000);
  const toUnix = Math.floor(parseIsoTimeMs(options.to) / 1000);
  const range = await rangeValidatorPrompts(job, competition, fromUnix, toUnix, options.assets);
  const { assets, timeIncrement, nPoints, timeLength } = range;
  const prompts: BaselinePrompt[] = range.prompts.map(({ asset, startUnix }) => ({
    asset,
    startUnix,
    file: baselineFileName(asset, startUnix, timeLength),
  }));
  options.onEvent?.({ type: "plan", competition, prompts: prompts.length });
  const files = prompts.map((prompt) => prompt.file);
  const replaced = await prepareBaselineFolder(out, files, options.force === true);
  const closesByAsset = await promptCloses(job, prompts, LOOKBACK_SECONDS);
  return {
    assets,
    prompts,
    replaced,
    closesByAsset,
    nPaths: options.simulations ?? 1000,
    modelSeed: options.modelSeed ?? DEFAULT_BASELINE_SEED,
    timeIncrement,
    nPoints,
    timeLength,
  };
}
