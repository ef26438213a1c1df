/** What every record builder needs from the inputs: the prepared ensemble and the time grid. */

import { DEFAULT_REBASE } from "../../domain/insightConventions.ts";
import type { SandboxInsightInputs } from "./inputs.ts";
import { preparedEnsemble, type PreparedEnsemble } from "./preparedEnsemble.ts";
import { isoTimeOfUnix } from "./timeText.ts";

/**
 * The inputs of one request with the ensemble re-based to the current price.
 * @example const { ensemble, forecastStartTime } = insightContextOf(inputs);
 */
export interface InsightContext {
  readonly inputs: SandboxInsightInputs;
  /** `inputs.paths` re-based to `inputs.currentPrice` (additive unless the options say otherwise). */
  readonly ensemble: PreparedEnsemble;
  /** `forecast_start_time` as written in the records. */
  readonly forecastStartTime: string;
  /** Minutes between path points. */
  readonly stepMinutes: number;
}

/**
 * Checks the inputs every builder relies on and prepares (or reuses) the re-based ensemble.
 * Throws `RangeError` naming the operation and the field for a current price that is not finite
 * and positive, a time increment that is not positive, or paths that are empty, ragged or shorter
 * than two points.
 * @example insightContextOf(inputs).ensemble.pointCount // => 289
 */
export function insightContextOf(inputs: SandboxInsightInputs): InsightContext {
  const { operationPath, currentPrice, timeIncrement, forecastStartUnix } = inputs;
  if (!(currentPrice > 0 && Number.isFinite(currentPrice))) {
    throw new RangeError(
      `${operationPath}: inputs.currentPrice must be a finite positive price, got ${currentPrice}`,
    );
  }
  if (!(timeIncrement > 0 && Number.isFinite(timeIncrement))) {
    throw new RangeError(
      `${operationPath}: inputs.timeIncrement must be a positive number of seconds, got ${timeIncrement}`,
    );
  }
  const rebase = inputs.options?.rebase ?? DEFAULT_REBASE;
  let ensemble: PreparedEnsemble;
  try {
    ensemble = preparedEnsemble(inputs.paths, currentPrice, rebase);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new RangeError(`${operationPath}: inputs.paths: ${message}`, { cause: error });
  }
  return {
    inputs,
    ensemble,
    forecastStartTime: isoTimeOfUnix(forecastStartUnix),
    stepMinutes: timeIncrement / 60,
  };
}
