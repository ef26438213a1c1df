/** The options of `runBaseline` (`pathlab baseline`), their defaults and their checks. */

import { BASELINE_MODELS, type BaselineModel } from "../../paths/baselinePaths.ts";
import { COMPETITION_ASSETS, COMPETITIONS, type Competition } from "../../domain/assets.ts";
import { parseIsoTimeMs } from "../../domain/time.ts";
import type { BaselineEvent } from "./summary.ts";
import { promptRangeTooLong } from "../harness/defaults.ts";
import { checkServiceRequest, type ServiceChoice } from "../../service/resolveService.ts";
import { UsageError } from "../../service/usageError.ts";

/**
 * The seed of the baseline's random numbers when none is given.
 * @example DEFAULT_BASELINE_SEED // => 1
 */
export const DEFAULT_BASELINE_SEED = 1;

/**
 * Options of `runBaseline`.
 * @example const options: BaselineOptions = { from: "2026-11-21T09:00:00Z", to: "2026-11-21T10:00:00Z", competition: "crypto-1h", model: "gbm", out: "./baseline" };
 */
export interface BaselineOptions extends ServiceChoice {
  /** Prompts starting from this time (ISO 8601), inclusive. */
  readonly from: string;
  /** Prompts starting up to this time (ISO 8601), inclusive. */
  readonly to: string;
  /** The competition whose prompts get a file, e.g. `crypto-1h`. */
  readonly competition: Competition;
  /** Only these assets (default every asset of the competition). */
  readonly assets?: readonly string[];
  /** The model that draws the paths: one of {@link BASELINE_MODELS}. */
  readonly model: BaselineModel;
  /** The folder to write (created when missing). */
  readonly out: string;
  /** Seed of the paths' random numbers (default {@link DEFAULT_BASELINE_SEED}). */
  readonly modelSeed?: number;
  /** Paths per file (default 1,000, the number the validator accepts). */
  readonly simulations?: number;
  /** Overwrite files of the folder that `pathlab baseline` did not write. */
  readonly force?: boolean;
  /** Receives progress events. */
  readonly onEvent?: (event: BaselineEvent) => void;
  /** Stops the job between files (the file being written is left whole or absent). */
  readonly signal?: AbortSignal;
}

/**
 * The three options a baseline run needs checked.
 * @example const { competition, model, out } = checkBaselineOptions(options);
 */
export interface CheckedBaselineOptions {
  readonly competition: Competition;
  readonly model: BaselineModel;
  readonly out: string;
}

/**
 * Checks the options of {@link runBaseline} before any request, and returns the three it needs
 * checked. Throws a {@link UsageError} naming the option, what was expected and what was got.
 * @example checkBaselineOptions({ from: "2026-11-21T10:00:00Z", to: "2026-11-21T09:00:00Z", competition: "crypto-1h", model: "gbm", out: "out" }) // throws: --to before --from
 */
export function checkBaselineOptions(options: BaselineOptions): CheckedBaselineOptions {
  const usage = (option: string, expected: string, got: unknown) =>
    new UsageError(`baseline: ${option}: expected ${expected}, got ${JSON.stringify(got)}`);
  for (const [option, text] of [
    ["--from", options.from],
    ["--to", options.to],
  ] as const) {
    if (Number.isNaN(parseIsoTimeMs(text))) {
      throw usage(option, "an ISO 8601 time such as 2026-02-25T23:47:00Z", text);
    }
  }
  if (parseIsoTimeMs(options.to) < parseIsoTimeMs(options.from)) {
    throw usage("--to", `a time at or after --from (${options.from})`, options.to);
  }
  const tooLong = promptRangeTooLong(
    "baseline",
    parseIsoTimeMs(options.from) / 1000,
    parseIsoTimeMs(options.to) / 1000,
  );
  if (tooLong !== undefined) throw new UsageError(tooLong);
  if (!(COMPETITIONS as readonly string[]).includes(options.competition)) {
    throw usage("--competition", `one of ${COMPETITIONS.join(", ")}`, options.competition);
  }
  const known = COMPETITION_ASSETS[options.competition] as readonly string[];
  const unknown = options.assets?.find((asset) => !known.includes(asset));
  if (unknown !== undefined) {
    throw usage("--assets", `assets of ${options.competition} (${known.join(", ")})`, unknown);
  }
  if (!(BASELINE_MODELS as readonly string[]).includes(options.model)) {
    throw usage("--model", `one of ${BASELINE_MODELS.join(", ")}`, options.model);
  }
  if (
    options.simulations !== undefined &&
    !(Number.isInteger(options.simulations) && options.simulations >= 1)
  ) {
    throw usage("--simulations", "a whole number ≥ 1", options.simulations);
  }
  if (options.modelSeed !== undefined && !Number.isInteger(options.modelSeed)) {
    throw usage("--model-seed", "a whole number", options.modelSeed);
  }
  if (options.out === "") throw usage("--out", "a folder", options.out);
  checkServiceRequest("baseline", options);
  return { competition: options.competition, model: options.model, out: options.out };
}
