/**
 * The units step of the baseline job: for each prompt, the volatility realized over the 24 h
 * before its start, the model's paths from the realized price at the start, and its file, written
 * while the next prompt is simulated.
 */

import { join } from "node:path";
import { baselineSeed, simulateBaselinePaths } from "../../paths/baselinePaths.ts";
import { roundPrice } from "../../domain/priceFormat.ts";
import { isoSeconds } from "../../domain/time.ts";
import type { Job } from "../harness/runJob.ts";
import type { MinuteCloses } from "../sync/fetchMinuteCloses.ts";
import { baselineFileText, writeFileAtomically } from "./file.ts";
import type { BaselineOptions, CheckedBaselineOptions } from "./options.ts";
import { LOOKBACK_SECONDS, type BaselinePlan, type BaselinePrompt } from "./plan.ts";
import type { BaselineFileWritten, BaselineSkippedPrompt } from "./summary.ts";
import {
  annualizedVolatilityPct,
  MINIMUM_MINUTE_RETURNS,
  minuteVolatility,
  stepVolatility,
} from "./volatility.ts";

/** The validator scores a prompt this long after its end. */
const SCORING_DELAY_SECONDS = 90;

/**
 * The files a baseline run wrote, the prompts it skipped and why, and how many of its prompts the
 * validator has not scored yet at the service's clock.
 * @example const { files, skipped } = await writeBaselineFiles(job, plan, options);
 */
export interface BaselineFiles {
  readonly files: BaselineFileWritten[];
  readonly skipped: BaselineSkippedPrompt[];
  readonly notScoredYet: number;
}

/**
 * Writes the plan's files (see the module comment), one at a time in the plan's order; a prompt
 * without a realized price at its start, or with too few 1-minute returns before it, is skipped
 * with the reason. Stops between files when the job's signal aborts (the file being written is
 * left whole).
 * @example const written = await writeBaselineFiles(job, plan, options);
 */
export async function writeBaselineFiles(
  job: Job<CheckedBaselineOptions>,
  plan: BaselinePlan,
  options: BaselineOptions,
): Promise<BaselineFiles> {
  const files: BaselineFileWritten[] = [];
  const skipped: BaselineSkippedPrompt[] = [];
  const window = new Float64Array(LOOKBACK_SECONDS / 60 + 1);
  const values = new Float64Array(plan.nPaths * plan.nPoints);
  let writing: Promise<void> = Promise.resolve();
  const clockUnix = job.clockUnix ?? Date.now() / 1000;
  let notScoredYet = 0;
  for (const prompt of plan.prompts) {
    if (options.signal?.aborted === true) {
      await writing.catch(() => undefined);
      throw options.signal.reason;
    }
    const closes = plan.closesByAsset.get(prompt.asset) as MinuteCloses;
    const simulated = simulatePrompt(job.checked, plan, prompt, closes, window, values);
    if ("reason" in simulated) {
      skipped.push(simulated);
      continue;
    }
    if (prompt.startUnix + plan.timeLength + SCORING_DELAY_SECONDS > clockUnix) notScoredYet++;
    // One file is written while the next is simulated.
    await writing;
    files.push(simulated.written);
    const done = files.length;
    const { written, text } = simulated;
    writing = writeFileAtomically(written.file, text).then(() =>
      options.onEvent?.({ type: "file", done, of: plan.prompts.length, ...written }),
    );
  }
  await writing;
  return { files, skipped, notScoredYet };
}

/**
 * One prompt's file: its volatility estimated from `closes` into `window`, its paths simulated
 * into `values`, and its text; or why it has none.
 */
function simulatePrompt(
  checked: CheckedBaselineOptions,
  plan: BaselinePlan,
  prompt: BaselinePrompt,
  closes: MinuteCloses,
  window: Float64Array,
  values: Float64Array,
): { written: BaselineFileWritten; text: string } | BaselineSkippedPrompt {
  const startTime = isoSeconds(prompt.startUnix);
  const firstMinute = Math.floor(prompt.startUnix / 60) * 60 - LOOKBACK_SECONDS;
  for (let index = 0; index < window.length; ++index) {
    window[index] = closes.minuteClose(firstMinute + index * 60);
  }
  const estimate = minuteVolatility(window);
  const startPrice = roundPrice(closes.priceAt(prompt.startUnix));
  if (!(startPrice > 0)) {
    return { asset: prompt.asset, startTime, reason: "no realized price at or before the start" };
  }
  if (estimate.returns < MINIMUM_MINUTE_RETURNS) {
    const reason = `only ${estimate.returns} realized 1-minute returns in the 24 h before the start (at least ${MINIMUM_MINUTE_RETURNS} needed)`;
    return { asset: prompt.asset, startTime, reason };
  }
  const { model } = checked;
  const { nPaths, nPoints, modelSeed, timeIncrement, timeLength } = plan;
  const sigma = stepVolatility(estimate.minuteVolatility, timeIncrement);
  const seed = baselineSeed(modelSeed, prompt.asset, prompt.startUnix);
  simulateBaselinePaths(
    { model, startPrice, stepVolatility: sigma, nPaths, nPoints, seed },
    values,
  );
  const head = {
    model,
    modelSeed,
    stepVolatility: sigma,
    asset: prompt.asset,
    timeIncrement,
    timeLength,
    startTimeUnix: prompt.startUnix,
  };
  return {
    written: {
      file: join(checked.out, prompt.file),
      asset: prompt.asset,
      startTime,
      startPrice,
      stepVolatility: sigma,
      annualizedVolatilityPct: annualizedVolatilityPct(estimate.minuteVolatility),
    },
    text: baselineFileText(head, values, nPaths, nPoints),
  };
}
