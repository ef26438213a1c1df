/**
 * What an `InsightSession` is asked to compute in one pass over its paths, and the intermediates
 * computed elsewhere (an `InsightThreads` worker) that it adopts.
 */

import type { BlockVolatilities } from "./blockReturnStatistics.ts";
import type { QuantileEstimates } from "./quantileErrors.ts";

/**
 * What `InsightSession.prepare` computes in one pass over the paths.
 * @example const request: PathPassRequest = { extremeSteps: [72, 288], intervals: { lowers, uppers } };
 */
export interface PathPassRequest {
  /** Window ends (points) whose running extremes are wanted. */
  readonly extremeSteps?: readonly number[];
  /** Nested intervals around the current price (the LP bounds) whose counts are wanted. */
  readonly intervals?: { readonly lowers: Float64Array; readonly uppers: Float64Array };
  /** The block size (in steps) whose block log returns are wanted (`InsightSession.blockLogReturns`). */
  readonly blockSteps?: number;
}

/**
 * An intermediate of a session computed elsewhere, for `InsightSession.adopt`: the step
 * percentiles (`InsightSession.stepPercentiles`), the block log returns of a block size
 * (`InsightSession.blockLogReturns`), the block percentiles of a block size and scale
 * (`InsightSession.blockPercentiles`) or the block volatilities of a block layout
 * (`InsightSession.blockVolatilities`).
 * @example const part: SessionPart = { kind: "block-returns", blockSteps: 3, returns };
 */
export type SessionPart =
  | { readonly kind: "step-percentiles"; readonly estimates: QuantileEstimates }
  | { readonly kind: "block-returns"; readonly blockSteps: number; readonly returns: Float64Array }
  | {
      readonly kind: "block-percentiles";
      readonly blockSteps: number;
      readonly scale: number;
      readonly estimates: QuantileEstimates;
    }
  | {
      readonly kind: "block-volatilities";
      readonly blockSteps: number;
      readonly blockMinutes: number;
      readonly volatilities: BlockVolatilities;
    };
