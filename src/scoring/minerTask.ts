/**
 * One miner's share of scoring a prompt, as plain cloneable data: what `ScoringThreads` sends to
 * a worker thread and what comes back. The same function runs it in the threads and in
 * `scoreMiners` on the calling thread, so both give the same numbers.
 */

import type { CrpsMethod } from "../core/crps.ts";
import { calibrationOfValues } from "./promptCalibration.ts";
import type { CalibrationOptions, PromptCalibration } from "./promptCalibration.ts";
import { promptCrpsOfValues, type PromptCrpsValue } from "./promptCrpsOfValues.ts";
import type { PromptPlan } from "./promptPlan.ts";

/**
 * What a worker needs to score one miner on one prompt.
 * @example const request: MinerTaskRequest = { plan, method: "closed", calibration: undefined, realizedPrices, values, nPaths: 1000, minerUid: 17, asset: "BTC", startTime: 1772063100, timeIncrement: 300 };
 */
export interface MinerTaskRequest {
  readonly plan: PromptPlan;
  readonly method: CrpsMethod;
  /** Calibration options, or `undefined` for no calibration. */
  readonly calibration: CalibrationOptions | undefined;
  /** The realized prices (NaN = missing), for calibration. */
  readonly realizedPrices: Float64Array;
  /** The miner's prices, path-major (`nPaths` × `plan.nPoints`); may view a SharedArrayBuffer. */
  readonly values: Float64Array;
  readonly nPaths: number;
  readonly minerUid: number;
  readonly asset: string;
  readonly startTime: number;
  readonly timeIncrement: number;
}

/**
 * The outcome of a {@link MinerTaskRequest}: the prompt CRPS with its price and volatility parts
 * ({@link PromptCrpsValue}), per-interval and per-block-size sums, the calibration row when asked
 * for, or the message of an error.
 * @example const result: MinerTaskResult = runMinerTask(request);
 */
export interface MinerTaskResult extends PromptCrpsValue {
  /** One sum per plan interval. */
  readonly intervalSums: number[];
  /** One unweighted sum per volatility block size of the plan (none without volatility). */
  readonly volatilitySums: number[];
  readonly calibration: PromptCalibration | undefined;
  /** Set when the task threw: its message (the other fields are then meaningless). */
  readonly error: string | undefined;
}

/**
 * Runs one miner's task: the prompt CRPS ({@link promptCrpsOfValues}, with its volatility part
 * when the plan has one) and, when asked for, its
 * calibration ({@link calibrationOfValues}). Never throws: an error becomes the result's `error`.
 * @example runMinerTask(request).crps // => the miner's prompt CRPS, or −1
 */
export function runMinerTask(request: MinerTaskRequest): MinerTaskResult {
  try {
    const sums = new Float64Array(request.plan.intervals.length);
    const volatilitySums = new Float64Array(request.plan.volatility?.length ?? 0);
    const result = promptCrpsOfValues(request.values, request.nPaths, request.plan, {
      method: request.method,
      intervalSums: sums,
      volatilitySums: request.plan.volatility === undefined ? undefined : volatilitySums,
    });
    const calibration =
      request.calibration === undefined
        ? undefined
        : calibrationOfValues(request.values, request.nPaths, request.plan.nPoints, {
            ...request.calibration,
            realizedPrices: request.realizedPrices,
            identity: request,
          });
    return {
      crps: result.crps,
      invalidReason: result.invalidReason,
      scored: result.scored,
      priceCrps: result.priceCrps,
      volatilityCrps: result.volatilityCrps,
      volatilityScored: result.volatilityScored,
      intervalSums: Array.from(sums),
      volatilitySums: Array.from(volatilitySums),
      calibration,
      error: undefined,
    };
  } catch (error) {
    return {
      crps: NaN,
      invalidReason: undefined,
      scored: false,
      priceCrps: NaN,
      volatilityCrps: null,
      volatilityScored: false,
      intervalSums: [],
      volatilitySums: [],
      calibration: undefined,
      error: error instanceof Error ? error.message : String(error),
    };
  }
}
