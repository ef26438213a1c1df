/**
 * Scoring one prompt for many miners: the path sets checked against the realized path, the
 * prompt planned once, one request per miner, each run on this thread ({@link scoreMiners}) or
 * on worker threads (`ScoringThreads`, which sends the same requests).
 */

import type { PathSet } from "../paths/pathSet.ts";
import type { RealizedPath } from "../domain/records/validation.ts";
import { runMinerTask, type MinerTaskRequest, type MinerTaskResult } from "./minerTask.ts";
import type { CalibrationOptions, PromptCalibration } from "./promptCalibration.ts";
import type { PromptPlan } from "./promptPlan.ts";
import { checkRealizedMatches, realizedPricesOf } from "./realizedPrices.ts";
import { namedResult, planFor, type PromptCrps, type ScorePromptOptions } from "./scorePrompt.ts";
import type { ScoringTarget } from "./scoringTarget.ts";

/**
 * Options of {@link scoreMiners}: those of {@link scorePrompt} (the method, the era settings and
 * the dated-rule overrides) and the calibration.
 * @example const options: ScoreMinersOptions = { method: "parity", calibration: { ties: "mid-rank" }, eraSettings: { volatilityCrpsFromUnix: null } };
 */
export interface ScoreMinersOptions extends ScorePromptOptions {
  /** Also compute each miner's calibration row (`true` for the defaults). */
  readonly calibration?: boolean | CalibrationOptions;
}

/**
 * One miner's result from {@link scoreMiners}: its prompt CRPS (as {@link scorePrompt}: the
 * total, the price and volatility parts and their sums) and, when asked for, its calibration row.
 * @example scoreMiners(pathSets, realized, { competition: "crypto-24h" })[0].crps
 */
export interface MinerPromptScore extends PromptCrps {
  readonly minerUid: number;
  /** The calibration row; `undefined` when not asked for or when the miner's prices are invalid. */
  readonly calibration: PromptCalibration | undefined;
}

/**
 * A call's plan and per-miner requests (without values), checked and ready to run.
 * @example prepareCall("scoreMiners", pathSets, realized, { competition: "crypto-1h" }, {}).requests.length
 */
export interface PreparedCall {
  readonly plan: PromptPlan;
  readonly requests: Omit<MinerTaskRequest, "values">[];
}

/**
 * Checks that every path set (at least one) belongs to the realized path's prompt and has one
 * shape, plans the prompt and builds the per-miner requests.
 * Throws `RangeError` naming `operation` when they do not.
 * @example prepareCall("scoreMiners", pathSets, realized, { competition: "crypto-24h" }, { method: "parity" })
 */
export function prepareCall(
  operation: string,
  pathSets: readonly PathSet[],
  realized: RealizedPath,
  target: ScoringTarget,
  options: ScoreMinersOptions,
): PreparedCall {
  const first = pathSets[0];
  const plan = planFor(operation, first, realized, target, options);
  for (const pathSet of pathSets) {
    checkRealizedMatches(operation, pathSet, realized);
    if (pathSet.nPoints !== first.nPoints || pathSet.nPaths !== first.nPaths) {
      throw new RangeError(
        `${operation} requires path sets of one shape: miner ${first.minerUid} has ${first.nPaths} × ${first.nPoints}, miner ${pathSet.minerUid} has ${pathSet.nPaths} × ${pathSet.nPoints}`,
      );
    }
  }
  const calibration =
    options.calibration === true
      ? {}
      : options.calibration === false
        ? undefined
        : options.calibration;
  const realizedPrices = realizedPricesOf(realized);
  const requests = pathSets.map((pathSet) => ({
    plan,
    method: options.method ?? "closed",
    calibration,
    realizedPrices,
    nPaths: pathSet.nPaths,
    minerUid: pathSet.minerUid,
    asset: pathSet.asset,
    startTime: pathSet.startTime,
    timeIncrement: pathSet.timeIncrement,
  }));
  return { plan, requests };
}

/**
 * Scores one prompt for every path set (all of the same prompt) against its realized path, on
 * this thread, as {@link scorePrompt} does for one, and optionally computes each miner's
 * calibration row ({@link promptCalibration}); results in the order of `pathSets`. The prompt is
 * planned once for all of them. `ScoringThreads` gives the same numbers on worker threads.
 * Throws a `RangeError` when the path sets do not all belong to the realized path's prompt or
 * have different shapes, and an `Error` naming the miner when its scoring throws.
 * @param pathSets - every miner's path set of one prompt, all of one shape.
 * @param realized - the prompt's realized path.
 * @param target - the competition, or the intervals (name → seconds) to score.
 * @param options - the CRPS method and dated rules, as {@link scorePrompt}'s, and whether (and how)
 *   to compute calibration rows; none by default.
 * @example
 * const scores = scoreMiners(pathSets, realized, { competition: "crypto-1h" }, { calibration: true });
 */
export function scoreMiners(
  pathSets: readonly PathSet[],
  realized: RealizedPath,
  target: ScoringTarget,
  options: ScoreMinersOptions = {},
): MinerPromptScore[] {
  if (pathSets.length === 0) return [];
  const prepared = prepareCall("scoreMiners", pathSets, realized, target, options);
  return prepared.requests.map((request, index) => {
    const result = runMinerTask({ ...request, values: pathSets[index].values });
    return minerScore(prepared.plan, request.minerUid, result);
  });
}

/**
 * The named result of one miner's task; throws an `Error` naming the miner when the task failed.
 * @example minerScore(plan, 17, runMinerTask(request)).crps
 */
export function minerScore(
  plan: PromptPlan,
  minerUid: number,
  result: MinerTaskResult,
): MinerPromptScore {
  if (result.error !== undefined) {
    throw new Error(`scoreMiners: miner ${minerUid}: ${result.error}`);
  }
  return {
    minerUid,
    ...namedResult(plan, result, result.intervalSums, result.volatilitySums),
    calibration: result.calibration,
  };
}
