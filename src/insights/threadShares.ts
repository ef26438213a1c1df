/**
 * How {@link InsightThreads} shares a set's preparation between the calling thread and a worker
 * thread: the tasks for the worker (`planTasks`), the calling thread's own share (`runLocal`,
 * which may hand half of the current block percentiles over too), and the parts adopted at the
 * end (`finish`).
 */

import { recomputedPathsReading } from "../domain/insightKindLists.ts";
import { allocateValues } from "../paths/pathSet.ts";
import {
  VOLATILITY_LAYOUTS,
  annualizeVolatility,
  volatilityBlockSteps,
} from "../domain/insightConventions.ts";
import { absoluteScaledQuantiles } from "./blockReturnStatistics.ts";
import {
  blockPercentileLayout,
  blockVolatilityPercentiles,
  pointsAreWholeBlocks,
  volatilityPoints,
} from "./blockVolatility.ts";
import type { InsightContext } from "./context.ts";
import type { InsightTask, InsightTaskResult } from "./insightTasks.ts";
import { prepareRecords } from "./prepareRecords.ts";
import type { QuantileEstimates } from "./quantileErrors.ts";
import type { RecomputablePath } from "./recompute.ts";
import { InsightSession } from "./session.ts";
import type { SessionPart } from "./sessionParts.ts";

/**
 * One task of a set and how its parts reach the sessions.
 * @example const planned: PlannedTask = { task, adopt: (parts) => parts.forEach((part) => session.adopt(part)) };
 */
export interface PlannedTask {
  readonly task: InsightTask;
  readonly adopt: (parts: readonly SessionPart[]) => void;
}

/**
 * The most tasks one set hands to the worker threads: the step percentiles, the previous
 * prompt's block returns, half of the current block percentiles.
 * @example TASKS_PER_SET // => 3
 */
export const TASKS_PER_SET = 3;

/** The paths whose records read the volatility block returns. */
const VOLATILITY_PATHS: readonly RecomputablePath[] = recomputedPathsReading("previous-prompt");

/**
 * The worker tasks of a set: the step percentiles, and the previous prompt's block returns.
 * @example const planned = planTasks(session, context, RECOMPUTABLE_PATHS);
 */
export function planTasks(
  session: InsightSession,
  context: InsightContext,
  paths: readonly RecomputablePath[],
): PlannedTask[] {
  const planned: PlannedTask[] = [];
  const { nPaths, nPoints } = session;
  if (paths.includes("/insights/prediction-percentiles")) {
    planned.push({
      task: { kind: "step-percentiles", values: shared(session.ensemble.values), nPaths, nPoints },
      adopt: (parts) => parts.forEach((part) => session.adopt(part)),
    });
  }
  const previous = context.previous;
  const volatility = paths.some((path) => VOLATILITY_PATHS.includes(path));
  if (
    volatility &&
    previous !== undefined &&
    previous.ensemble instanceof InsightSession &&
    previous.ensemble.currentPrice === previous.currentPrice &&
    previous.ensemble.rebase === session.rebase
  ) {
    const past = previous.ensemble;
    let blockSteps: number;
    try {
      blockSteps = volatilityBlockSteps(context.horizon, past.ensemble.timeIncrement);
    } catch {
      return planned; // the volatility records report it
    }
    const nBlocks = Math.floor((past.nPoints - 1) / blockSteps);
    if (nBlocks < 1) return planned;
    const { blockMinutes } = VOLATILITY_LAYOUTS[context.horizon];
    const returns = allocateValues(nBlocks * past.nPaths, true);
    planned.push({
      task: {
        kind: "block-returns",
        values: shared(past.ensemble.values),
        nPaths: past.nPaths,
        nPoints: past.nPoints,
        blockSteps,
        returns,
        percentiles: paths.includes("/insights/volatility-percentiles"),
        scale: annualizeVolatility(1, blockMinutes),
        // The whole blocks from the start are the volatility record's points only when point 0
        // is empty (volatilityPoints); otherwise the record computes its own points.
        volatilities:
          paths.includes("/insights/volatility") &&
          pointsAreWholeBlocks(past.ensemble, context.horizon),
        blockMinutes,
      },
      adopt: (parts) => {
        past.adopt({ kind: "block-returns", blockSteps, returns });
        parts.forEach((part) => past.adopt(part));
      },
    });
  }
  return planned;
}

/**
 * The calling thread's share: `prepareRecords`, then the current prompt's volatility points and
 * block percentiles (the percentiles handed to a worker through `offload` when the pass wrote
 * the block returns into shared memory), then `meanwhile`; what it throws, as an error for
 * {@link finish}.
 * @example const local = runLocal(session, context, paths, meanwhile, offload);
 */
export function runLocal(
  session: InsightSession,
  context: InsightContext,
  paths: readonly RecomputablePath[],
  meanwhile: (() => void) | undefined,
  offload: (item: PlannedTask) => void,
): Error | undefined {
  try {
    prepareOnThisThread(session, context, paths, offload);
    meanwhile?.();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * `prepareRecords`, then the current prompt's volatility points and block percentiles (half of
 * these handed to a worker through `offload`, when given and the block returns are shared).
 * @example prepareOnThisThread(session, context, RECOMPUTABLE_PATHS);
 */
export function prepareOnThisThread(
  session: InsightSession,
  context: InsightContext,
  paths: readonly RecomputablePath[],
  offload?: (item: PlannedTask) => void,
): void {
  prepareRecords(session, context, paths);
  const percentiles = paths.includes("/insights/volatility-percentiles");
  const split =
    percentiles && offload !== undefined && offloadBlockPercentiles(session, context, offload);
  if (paths.includes("/insights/volatility")) volatilityPoints(session, context.horizon);
  if (percentiles && !split) blockVolatilityPercentiles(session, context.horizon);
}

/**
 * When the pass has written the current prompt's block returns into shared memory (paths in a
 * SharedArrayBuffer): hands the block percentiles of the first half of the blocks to a worker
 * (`offload`), computes the second half here, and returns true; the session adopts both halves
 * as one part when the worker's half arrives (the same numbers as all blocks at once: each block
 * is selected on its own). Half, because the worker's own tasks already take about as long as
 * this thread's pass (bench/README.md). Returns false, doing nothing, for other block returns.
 */
function offloadBlockPercentiles(
  session: InsightSession,
  context: InsightContext,
  offload: (item: PlannedTask) => void,
): boolean {
  const { blockSteps, scale } = blockPercentileLayout(session, context.horizon);
  const returns = session.blockLogReturns(blockSteps);
  if (!(returns.buffer instanceof SharedArrayBuffer)) return false;
  const nPaths = session.nPaths;
  const split = Math.ceil(returns.length / nPaths / 2) * nPaths;
  offload({
    task: {
      kind: "block-percentiles",
      returns: returns.subarray(0, split),
      nPaths,
      blockSteps,
      scale,
    },
    adopt: (parts) => {
      for (const part of parts) {
        if (part.kind !== "block-percentiles") continue;
        const estimates = joinEstimates(part.estimates, secondHalf);
        session.adopt({ kind: "block-percentiles", blockSteps, scale, estimates });
      }
    },
  });
  // Adopted only after this call has returned, so `secondHalf` is set by then.
  const secondHalf = absoluteScaledQuantiles(returns.subarray(split), nPaths, scale);
  return true;
}

/** The estimates of consecutive blocks `first` then `second`, as one. */
function joinEstimates(first: QuantileEstimates, second: QuantileEstimates): QuantileEstimates {
  const join = (a: Float64Array, b: Float64Array) => {
    const joined = new Float64Array(a.length + b.length);
    joined.set(a);
    joined.set(b, a.length);
    return joined;
  };
  return {
    values: join(first.values, second.values),
    standardErrors: join(first.standardErrors, second.standardErrors),
  };
}

/**
 * Adopts the workers' parts and rethrows the first failure: the calling thread's own (its
 * context did not fit), else a worker's (not a task's error: that part is just not adopted).
 * @example finish(sent, await Promise.all(results), local);
 */
export function finish(
  planned: readonly PlannedTask[],
  results: readonly (InsightTaskResult | Error)[],
  local: Error | undefined,
): void {
  if (local !== undefined) throw local;
  results.forEach((result, index) => {
    if (result instanceof Error) throw result;
    if ("parts" in result) planned[index].adopt(result.parts);
  });
}

/** `values` itself when it lives in a SharedArrayBuffer, else a copy in a new one. */
function shared(values: Float64Array): Float64Array {
  if (values.buffer instanceof SharedArrayBuffer) return values;
  const copy = allocateValues(values.length, true);
  copy.set(values);
  return copy;
}
