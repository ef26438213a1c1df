/** What `runBaseline` reports: its progress events, its summary, and the σ per asset in it. */

import type { BaselineModel } from "../../paths/baselinePaths.ts";
import type { Competition } from "../../domain/assets.ts";
import type { ServiceInfo } from "../../service/serviceInfo.ts";

// The models, for the command line (which does not import the paths layer itself).
export { BASELINE_MODELS, type BaselineModel } from "../../paths/baselinePaths.ts";

/**
 * One baseline file written: the prompt, the start price and the volatility its paths were
 * simulated with.
 * @example const written: BaselineFileWritten = { file: "out/BTC-20261121T090000Z-1h.json", asset: "BTC", startTime: "2026-11-21T09:00:00Z", startPrice: 91234.5, stepVolatility: 0.0006, annualizedVolatilityPct: 43.5 };
 */
export interface BaselineFileWritten {
  /** The path of the file (the output folder joined with its name). */
  readonly file: string;
  readonly asset: string;
  /** The prompt's start, ISO 8601. */
  readonly startTime: string;
  /** Point 0 of every path: the realized price at the start, rounded as miners round. */
  readonly startPrice: number;
  /** σ of one step's log return (the prompt's time increment). */
  readonly stepVolatility: number;
  /** The same σ annualized, in percent (1-minute σ × √525600 × 100). */
  readonly annualizedVolatilityPct: number;
}

/**
 * A prompt of the range without a file, and why.
 * @example const skipped: BaselineSkippedPrompt = { asset: "XAU", startTime: "2026-11-21T09:00:00Z", reason: "no realized price at or before the start" };
 */
export interface BaselineSkippedPrompt {
  readonly asset: string;
  readonly startTime: string;
  readonly reason: string;
}

/**
 * The volatility used for one asset over the range's prompts (annualized percent).
 * @example const used: BaselineAssetVolatility = { asset: "BTC", prompts: 12, stepVolatilityMean: 0.0006, annualizedPctMin: 41.2, annualizedPctMean: 43.5, annualizedPctMax: 45.9 };
 */
export interface BaselineAssetVolatility {
  readonly asset: string;
  /** Files written for the asset. */
  readonly prompts: number;
  /** Mean over its prompts of σ per step (the prompt's time increment). */
  readonly stepVolatilityMean: number;
  readonly annualizedPctMin: number;
  readonly annualizedPctMean: number;
  readonly annualizedPctMax: number;
}

/**
 * Progress of `runBaseline`: the plan once the prompts are known, then each file as it is written.
 * @example const event: BaselineEvent = { type: "plan", competition: "crypto-1h", prompts: 60 };
 */
export type BaselineEvent =
  | { readonly type: "plan"; readonly competition: Competition; readonly prompts: number }
  | ({ readonly type: "file"; readonly done: number; readonly of: number } & BaselineFileWritten);

/**
 * The summary of a `pathlab baseline` run. `exitCode` is 0 when every prompt of the range got a
 * file and 1 when some had none (see `skipped`) or the range had no prompt.
 * @example const summary: BaselineSummary = await runBaseline(options); summary.files.length
 */
export interface BaselineSummary {
  readonly command: "baseline";
  readonly competition: Competition;
  readonly model: BaselineModel;
  readonly modelSeed: number;
  readonly simulations: number;
  readonly from: string;
  readonly to: string;
  /** The output folder, as given. */
  readonly out: string;
  readonly service: ServiceInfo;
  /** Prompts of the range at the service (files written + skipped). */
  readonly prompts: number;
  readonly files: readonly BaselineFileWritten[];
  /** Files that replaced earlier baseline files (or other files, with `--force`). */
  readonly replaced: number;
  /**
   * Files answering prompts the validator has not scored yet at the service's clock (it scores a
   * prompt 90 s after its end): `pathlab score` places them only once it has.
   */
  readonly notScoredYet: number;
  readonly skipped: readonly BaselineSkippedPrompt[];
  readonly volatility: readonly BaselineAssetVolatility[];
  readonly durationMs: number;
  readonly exitCode: 0 | 1;
}

/**
 * The volatility used per asset over the files of a run, in the order the assets first appear.
 * @example summarizeVolatility(summary.files)[0].annualizedPctMean
 */
export function summarizeVolatility(
  files: readonly BaselineFileWritten[],
): BaselineAssetVolatility[] {
  const byAsset = new Map<string, BaselineFileWritten[]>();
  for (const file of files) {
    const list = byAsset.get(file.asset);
    if (list === undefined) byAsset.set(file.asset, [file]);
    else list.push(file);
  }
  const mean = (numbers: readonly number[]) =>
    numbers.reduce((sum, value) => sum + value, 0) / numbers.length;
  return [...byAsset].map(([asset, list]) => {
    const annualized = list.map((file) => file.annualizedVolatilityPct);
    return {
      asset,
      prompts: list.length,
      stepVolatilityMean: mean(list.map((file) => file.stepVolatility)),
      annualizedPctMin: Math.min(...annualized),
      annualizedPctMean: mean(annualized),
      annualizedPctMax: Math.max(...annualized),
    };
  });
}
