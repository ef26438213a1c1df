/**
 * The whole-ensemble kernels behind an `InsightSession`'s intermediates, which an `InsightThreads`
 * worker runs on the same paths: the step-major transposition into a per-thread scratch, the
 * percentiles of every step and the block log returns.
 */

import { logReturn } from "../core/volatility.ts";
import { transpose } from "../core/transpose.ts";
import { PERCENTILE_PROBABILITIES } from "../domain/insightConventions.ts";
import { stepQuantilesWithErrors, type QuantileEstimates } from "./quantileErrors.ts";

/** The scratch of {@link withScratchStepMajor}: grown to the largest ensemble seen (per thread). */
let scratchStepMajor = new Float64Array(0);
let scratchInUse = false;

/**
 * `compute(stepMajor)` on the path-major `values` transposed into the scratch buffer shared by
 * all sessions of this thread (`InsightSession.withStepMajor`); a nested call gets a fresh
 * buffer. `compute` must not keep the array.
 * @example withScratchStepMajor(values, 10000, 289, (stepMajor) => stepPercentilesOf(stepMajor, 10000, 289))
 */
export function withScratchStepMajor<Result>(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  compute: (stepMajor: Float64Array) => Result,
): Result {
  const size = nPaths * nPoints;
  if (scratchInUse) return compute(transpose(values, nPaths, nPoints));
  if (scratchStepMajor.length < size) scratchStepMajor = new Float64Array(size);
  scratchInUse = true;
  try {
    return compute(transpose(values, nPaths, nPoints, scratchStepMajor.subarray(0, size)));
  } finally {
    scratchInUse = false;
  }
}

/**
 * The nine percentiles of every step of a step-major matrix with their standard errors
 * (`InsightSession.stepPercentiles`: `stepQuantilesWithErrors` at `PERCENTILE_PROBABILITIES`).
 * @example stepPercentilesOf(session.stepMajor, session.nPaths, session.nPoints)
 */
export function stepPercentilesOf(
  stepMajor: Float64Array,
  nPaths: number,
  nPoints: number,
): QuantileEstimates {
  return stepQuantilesWithErrors(stepMajor, nPaths, nPoints, PERCENTILE_PROBABILITIES);
}

/**
 * The block log returns of a path-major matrix (`InsightSession.blockLogReturns`: entry
 * `b·nPaths + p` is ln(p[(b+1)·k] / p[b·k]) of path p, `logReturn` of core), written into `out`
 * (⌊(nPoints − 1)/k⌋ × nPaths numbers; allocated when omitted); from the step-major copy when
 * given (its columns are contiguous), else from `values`. The same numbers either way, on any
 * thread.
 * @example blockLogReturnsInto(values, 10000, 289, 3, undefined, new Float64Array(96 * 10000))
 */
export function blockLogReturnsInto(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  blockSteps: number,
  stepMajor?: Float64Array,
  out: Float64Array = new Float64Array(Math.floor((nPoints - 1) / blockSteps) * nPaths),
): Float64Array {
  const nBlocks = Math.floor((nPoints - 1) / blockSteps);
  if (out.length !== nBlocks * nPaths) {
    throw new RangeError(
      `blockLogReturnsInto requires out of ⌊(nPoints − 1)/blockSteps⌋ × nPaths = ${nBlocks * nPaths} numbers, got ${out.length}`,
    );
  }
  if (stepMajor !== undefined) {
    // Columns are contiguous: block b is column (b+1)·k over column b·k.
    for (let block = 0; block < nBlocks; ++block) {
      const from = block * blockSteps * nPaths;
      const to = from + blockSteps * nPaths;
      const row = block * nPaths;
      for (let path = 0; path < nPaths; ++path) {
        out[row + path] = logReturn(stepMajor[to + path], stepMajor[from + path]);
      }
    }
    return out;
  }
  const bounds = Int32Array.from({ length: nBlocks + 1 }, (_, block) => block * blockSteps);
  return logReturnsBetweenInto(values, nPaths, nPoints, bounds, out);
}

/**
 * The log returns of a path-major matrix between consecutive path points `bounds`, block-major:
 * entry `b·nPaths + p` is ln(p[bounds[b + 1]] / p[bounds[b]]) of path p (`logReturn` of core),
 * written into `out` ((bounds.length − 1) × nPaths numbers; allocated when omitted). Filled path
 * by path, so that each path's prices are read in order.
 * @example logReturnsBetweenInto(values, 10000, 289, Int32Array.of(0, 1, 4, 7)) // 3 blocks
 */
export function logReturnsBetweenInto(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  bounds: Int32Array,
  out: Float64Array = new Float64Array((bounds.length - 1) * nPaths),
): Float64Array {
  const nBlocks = bounds.length - 1;
  for (let path = 0; path < nPaths; ++path) {
    const base = path * nPoints;
    for (let block = 0; block < nBlocks; ++block) {
      out[block * nPaths + path] = logReturn(
        values[base + bounds[block + 1]],
        values[base + bounds[block]],
      );
    }
  }
  return out;
}
