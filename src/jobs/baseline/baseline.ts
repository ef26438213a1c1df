/**
 * The baseline job (`pathlab baseline`): a first candidate and a bar to beat. For every prompt of a
 * competition in a time range (the service's validator prompts), it simulates 1,000 paths of a
 * textbook model from the realized price at the start, with the volatility realized over the 24 h
 * before, and writes them as a candidate file that `pathlab validate` and `pathlab score
 * --candidate` read.
 */

import { join } from "node:path";
import { createClient } from "../../client/create-client.ts";
import type { PathlabClient } from "../../client/pathlab-client.ts";
import { baselineSeed, simulateBaselinePaths } from "../../paths/baselinePaths.ts";
import {
  COMPETITION_ASSETS,
  COMPETITION_HORIZONS,
  VALIDATION_ASSETS,
} from "../../domain/assets.ts";
import { HORIZON_LAYOUTS } from "../../domain/insightConventions.ts";
import type { PromptsParams } from "../../domain/params.ts";
import { roundPrice } from "../../domain/priceFormat.ts";
import { parseIsoTimeMs } from "../../domain/time.ts";
import { withoutSecrets } from "../../store/withoutSecrets.ts";
import {
  baselineFileName,
  baselineFileText,
  prepareBaselineFolder,
  writeFileAtomically,
} from "./file.ts";
import { checkBaselineOptions, DEFAULT_BASELINE_SEED, type BaselineOptions } from "./options.ts";
import {
  summarizeVolatility,
  type BaselineFileWritten,
  type BaselineSkippedPrompt,
  type BaselineSummary,
} from "./summary.ts";
import {
  annualizedVolatilityPct,
  MINIMUM_MINUTE_RETURNS,
  minuteVolatility,
  stepVolatility,
} from "./volatility.ts";
import { fetchMinuteCloses, type MinuteCloses } from "../sync/fetchMinuteCloses.ts";
import { JobInterruptedError } from "../harness/interruptedError.ts";
import { resolveService, secretsOf } from "../../service/resolveService.ts";

/** Seconds of realized prices before a prompt's start that its volatility is estimated from. */
const LOOKBACK_SECONDS = 86400;
/** The validator scores a prompt this long after its end (DOMAIN.md §3). */
const SCORING_DELAY_SECONDS = 90;

interface Prompt {
  readonly asset: string;
  readonly startUnix: number;
  readonly file: string;
}

/**
 * Runs `pathlab baseline`: asks the service (by default the embedded sandbox) for the validator's
 * prompts of `competition` in [from, to], for every asset; fetches the realized 1-minute closes
 * from 24 h before the first start to the last; and for each prompt writes
 * `<out>/<ASSET>-<start>-<horizon>.json` with `paths` paths of the model (see
 * `simulateBaselinePaths`): point 0 = the realized price at the start (the last close at or
 * before it), σ per step = the sample deviation of the 1-minute log returns over the 24 h before
 * the start × √(increment / 60); prices rounded with `roundPrice`. The paths of a prompt depend
 * only on `modelSeed`, the asset and the start. Throws `UsageError` for options that
 * cannot work, and for files in `out` it did not write unless `force`; `JobInterruptedError` when
 * `signal` aborts.
 * @example
 * const summary = await runBaseline({ from: "2026-11-21T09:00:00Z", to: "2026-11-21T10:00:00Z", competition: "crypto-1h", model: "gbm", out: "./baseline" });
 * summary.files.length // => the number of prompts of the range
 */
export async function runBaseline(options: BaselineOptions): Promise<BaselineSummary> {
  const started = performance.now();
  const { competition, model, out } = checkBaselineOptions(options);
  const fromUnix = Math.floor(parseIsoTimeMs(options.from) / 1000);
  const toUnix = Math.floor(parseIsoTimeMs(options.to) / 1000);
  const nPaths = options.simulations ?? 1000;
  const modelSeed = options.modelSeed ?? DEFAULT_BASELINE_SEED;
  const { timeIncrement, nPoints, horizonMinutes } =
    HORIZON_LAYOUTS[COMPETITION_HORIZONS[competition]];
  const timeLength = horizonMinutes * 60;
  const secrets = secretsOf(options.apiKey);
  const resolved = await resolveService(options, secrets);
  let client: PathlabClient | undefined;
  try {
    client = createClient({
      maxRetries: 4,
      concurrency: 8,
      baseUrl: resolved.service.baseUrl,
      apiKey: resolved.apiKey,
      ...(options.signal !== undefined && { signal: options.signal }),
    });
    const shape = { time_increment: timeIncrement, time_length: timeLength } as Pick<
      PromptsParams,
      "time_increment" | "time_length"
    >;
    const assets = (COMPETITION_ASSETS[competition] as readonly string[]).filter(
      (asset) =>
        (VALIDATION_ASSETS as readonly string[]).includes(asset) &&
        (options.assets === undefined || options.assets.includes(asset)),
    );
    const prompts: Prompt[] = [];
    for (const asset of assets) {
      const { start_times: starts } = await client.request("/validation/prompts", {
        from: isoOf(fromUnix),
        to: isoOf(toUnix),
        asset: asset as PromptsParams["asset"],
        ...shape,
      });
      for (const start of starts) {
        const startUnix = parseIsoTimeMs(start) / 1000;
        prompts.push({ asset, startUnix, file: baselineFileName(asset, startUnix, timeLength) });
      }
    }
    prompts.sort((a, b) => a.startUnix - b.startUnix || (a.asset < b.asset ? -1 : 1));
    options.onEvent?.({ type: "plan", competition, prompts: prompts.length });
    const replaced = await prepareBaselineFolder(
      out,
      prompts.map((prompt) => prompt.file),
      options.force === true,
    );
    const closesByAsset = new Map<string, MinuteCloses>();
    await Promise.all(
      assets.map(async (asset) => {
        const starts = prompts.filter((prompt) => prompt.asset === asset).map((p) => p.startUnix);
        if (starts.length === 0) return;
        const first = Math.min(...starts) - LOOKBACK_SECONDS;
        closesByAsset.set(
          asset,
          await fetchMinuteCloses(client!, asset, first, Math.max(...starts)),
        );
      }),
    );
    const files: BaselineFileWritten[] = [];
    const skipped: BaselineSkippedPrompt[] = [];
    const window = new Float64Array(LOOKBACK_SECONDS / 60 + 1);
    const values = new Float64Array(nPaths * nPoints);
    let writing: Promise<void> = Promise.resolve();
    const clockUnix = resolved.clockUnix ?? Date.now() / 1000;
    let notScoredYet = 0;
    for (const prompt of prompts) {
      if (options.signal?.aborted === true) {
        await writing.catch(() => undefined);
        throw options.signal.reason;
      }
      const closes = closesByAsset.get(prompt.asset) as MinuteCloses;
      const startTime = isoOf(prompt.startUnix);
      const firstMinute = Math.floor(prompt.startUnix / 60) * 60 - LOOKBACK_SECONDS;
      for (let index = 0; index < window.length; ++index) {
        window[index] = closes.minuteClose(firstMinute + index * 60);
      }
      const estimate = minuteVolatility(window);
      const startPrice = roundPrice(closes.priceAt(prompt.startUnix));
      const reason = !(startPrice > 0)
        ? "no realized price at or before the start"
        : estimate.returns < MINIMUM_MINUTE_RETURNS
          ? `only ${estimate.returns} realized 1-minute returns in the 24 h before the start (at least ${MINIMUM_MINUTE_RETURNS} needed)`
          : undefined;
      if (reason !== undefined) {
        skipped.push({ asset: prompt.asset, startTime, reason });
        continue;
      }
      const sigma = stepVolatility(estimate.minuteVolatility, timeIncrement);
      simulateBaselinePaths(
        {
          model,
          startPrice,
          stepVolatility: sigma,
          nPaths,
          nPoints,
          seed: baselineSeed(modelSeed, prompt.asset, prompt.startUnix),
        },
        values,
      );
      const text = baselineFileText(
        {
          model,
          modelSeed,
          stepVolatility: sigma,
          asset: prompt.asset,
          timeIncrement,
          timeLength,
          startTimeUnix: prompt.startUnix,
        },
        values,
        nPaths,
        nPoints,
      );
      const written: BaselineFileWritten = {
        file: join(out, prompt.file),
        asset: prompt.asset,
        startTime,
        startPrice,
        stepVolatility: sigma,
        annualizedVolatilityPct: annualizedVolatilityPct(estimate.minuteVolatility),
      };
      if (prompt.startUnix + timeLength + SCORING_DELAY_SECONDS > clockUnix) notScoredYet++;
      // One file is written while the next is simulated.
      await writing;
      files.push(written);
      const done = files.length;
      writing = writeFileAtomically(written.file, text).then(() =>
        options.onEvent?.({ type: "file", done, of: prompts.length, ...written }),
      );
    }
    await writing;
    return withoutSecrets(
      {
        command: "baseline",
        competition,
        model,
        modelSeed,
        simulations: nPaths,
        from: options.from,
        to: options.to,
        out,
        service: resolved.service,
        prompts: prompts.length,
        files,
        replaced,
        notScoredYet,
        skipped,
        volatility: summarizeVolatility(files).sort(
          (a, b) => assets.indexOf(a.asset) - assets.indexOf(b.asset),
        ),
        durationMs: Math.round(performance.now() - started),
        exitCode: prompts.length > 0 && skipped.length === 0 ? 0 : 1,
      },
      secrets,
    ) as BaselineSummary;
  } catch (error) {
    if (options.signal?.aborted !== true) throw error;
    throw new JobInterruptedError(
      `baseline: interrupted; the files written until then are whole (in ${out})`,
      { cause: error },
    );
  } finally {
    await client?.close();
    await resolved.sandbox?.close();
  }
}

function isoOf(unix: number): string {
  return new Date(unix * 1000).toISOString().replace(".000Z", "Z");
}
