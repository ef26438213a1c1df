/**
 * The work `InsightThreads` hands to a worker thread: whole-ensemble kernels on shared paths,
 * whose results a session adopts (`InsightSession.adopt`).
 */

import { absoluteScaledQuantiles, blockVolatilitiesOf } from "./blockReturnStatistics.ts";
import { blockLogReturnsInto, stepPercentilesOf, withScratchStepMajor } from "./sessionKernels.ts";
import type { SessionPart } from "./sessionParts.ts";

/**
 * One task on a session's path-major paths (`values`, nPaths × nPoints, usually over a
 * SharedArrayBuffer so that the worker reads them in place):
 * - `step-percentiles`: `InsightSession.stepPercentiles` (the prediction percentiles' estimates);
 * - `block-returns`: the block log returns of `blockSteps` steps written into `returns` (shared
 *   with the caller, which adopts it), with `percentiles` also
 *   `InsightSession.blockPercentiles(blockSteps, scale)` (the volatility percentiles' estimates),
 *   and with `volatilities` also `InsightSession.blockVolatilities(blockSteps, blockMinutes)`
 *   (the volatility record's);
 * - `block-percentiles`: `InsightSession.blockPercentiles(blockSteps, scale)` of block log
 *   returns the caller has already computed (`returns`, block-major, shared).
 * @example const task: InsightTask = { kind: "step-percentiles", values, nPaths: 10000, nPoints: 289 };
 */
export type InsightTask =
  | {
      readonly kind: "step-percentiles";
      readonly values: Float64Array;
      readonly nPaths: number;
      readonly nPoints: number;
    }
  | {
      readonly kind: "block-returns";
      readonly values: Float64Array;
      readonly nPaths: number;
      readonly nPoints: number;
      readonly blockSteps: number;
      readonly returns: Float64Array;
      readonly percentiles: boolean;
      readonly scale: number;
      readonly volatilities: boolean;
      readonly blockMinutes: number;
    }
  | {
      readonly kind: "block-percentiles";
      readonly returns: Float64Array;
      readonly nPaths: number;
      readonly blockSteps: number;
      readonly scale: number;
    };

/**
 * What a worker sends back: the parts for the session (the block returns themselves are not
 * sent: they are in the caller's shared `returns`), or the error message of a task that threw.
 * @example const result: InsightTaskResult = { parts: [] };
 */
export type InsightTaskResult = { readonly parts: SessionPart[] } | { readonly error: string };

/**
 * Runs one task with the kernels the session itself runs (so that the parts equal, number for
 * number, what the session would compute). Throws `RangeError` for sizes that do not fit.
 * @example runInsightTask({ kind: "step-percentiles", values, nPaths: 10000, nPoints: 289 })
 */
export function runInsightTask(task: InsightTask): SessionPart[] {
  if (task.kind === "block-percentiles") {
    const { returns, nPaths, blockSteps, scale } = task;
    if (!(Number.isInteger(nPaths) && nPaths >= 1 && returns.length % nPaths === 0)) {
      throw new RangeError(
        `runInsightTask (block-percentiles) requires whole blocks of nPaths ≥ 1 returns, got ${returns.length} returns for ${nPaths} paths`,
      );
    }
    const estimates = absoluteScaledQuantiles(returns, nPaths, scale);
    return [{ kind: "block-percentiles", blockSteps, scale, estimates }];
  }
  const { values, nPaths, nPoints } = task;
  if (!(Number.isInteger(nPaths) && nPaths >= 1 && values.length === nPaths * nPoints)) {
    throw new RangeError(
      `runInsightTask (${task.kind}) requires values of nPaths × nPoints numbers, got ${values.length} for ${nPaths} × ${nPoints}`,
    );
  }
  if (task.kind === "step-percentiles") {
    const estimates = withScratchStepMajor(values, nPaths, nPoints, (stepMajor) =>
      stepPercentilesOf(stepMajor, nPaths, nPoints),
    );
    return [{ kind: "step-percentiles", estimates }];
  }
  const { blockSteps, returns, scale } = task;
  if (!(Number.isInteger(blockSteps) && blockSteps >= 1 && blockSteps <= nPoints - 1)) {
    throw new RangeError(
      `runInsightTask (block-returns) requires an integer blockSteps in [1, ${nPoints - 1}], got ${blockSteps}`,
    );
  }
  blockLogReturnsInto(values, nPaths, nPoints, blockSteps, undefined, returns);
  const parts: SessionPart[] = [];
  if (task.volatilities) {
    const { blockMinutes } = task;
    const volatilities = blockVolatilitiesOf(returns, nPaths, blockMinutes);
    parts.push({ kind: "block-volatilities", blockSteps, blockMinutes, volatilities });
  }
  if (task.percentiles) {
    const estimates = absoluteScaledQuantiles(returns, nPaths, scale);
    parts.push({ kind: "block-percentiles", blockSteps, scale, estimates });
  }
  return parts;
}
