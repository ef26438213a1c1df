/**
 * Statistics across paths of block-major block log returns (block b, path p at `b·nPaths + p`):
 * the annualized volatility of each block with its Monte-Carlo standard error, and the
 * percentiles of each block's scaled absolute return. What an `InsightSession` keeps and an
 * `InsightThreads` worker computes for it.
 */

import { PERCENTILE_PROBABILITIES, annualizeVolatility } from "../domain/insightConventions.ts";
import { columnQuantilesWithErrors, type QuantileEstimates } from "./quantileErrors.ts";

/**
 * Per block: the annualized volatility and its standard error.
 * @example const { values, standardErrors } = blockVolatilities(session, "24h");
 */
export interface BlockVolatilities {
  /** Annualized percent; NaN where a path's block return is not finite. */
  readonly values: Float64Array;
  readonly standardErrors: Float64Array;
}

/**
 * `blockVolatilities` (blockVolatility.ts) of block-major `returns` (block b, path p at
 * `b·nPaths + p`, the block log returns of `InsightSession.blockLogReturns`) of blocks
 * `blockMinutes` long: per block, the sample std (ddof 1) across paths, annualized, with its
 * delta-method standard error (see `blockVolatilities` for the method); what the session keeps
 * (`InsightSession.blockVolatilities`) and an `InsightThreads` worker computes for the previous
 * prompt.
 * Throws `RangeError` unless `returns` holds whole blocks of nPaths ≥ 1 returns.
 * @example blockVolatilitiesOf(session.blockLogReturns(3), 10000, 15).values.length // => 96
 */
export function blockVolatilitiesOf(
  returns: Float64Array,
  nPaths: number,
  blockMinutes: number,
): BlockVolatilities {
  if (!(Number.isInteger(nPaths) && nPaths >= 1 && returns.length % nPaths === 0)) {
    throw new RangeError(
      `blockVolatilitiesOf requires whole blocks of nPaths ≥ 1 returns, got ${returns.length} returns for ${nPaths} paths`,
    );
  }
  const nBlocks = returns.length / nPaths;
  const { sums, secondMoments, fourthMoments } = blockMoments(returns, nPaths, nBlocks);
  const values = new Float64Array(nBlocks);
  const standardErrors = new Float64Array(nBlocks);
  for (let block = 0; block < nBlocks; ++block) {
    const sum = sums[block];
    const secondMoment = secondMoments[block];
    const fourthMoment = fourthMoments[block];
    const variance = secondMoment / (nPaths - 1);
    const deviation = Math.sqrt(variance);
    const varianceOfVariance =
      (fourthMoment / nPaths - (variance * variance * (nPaths - 3)) / (nPaths - 1)) / nPaths;
    const finite = sum - sum === 0 && nPaths > 1;
    values[block] = finite ? annualizeVolatility(deviation, blockMinutes) : NaN;
    standardErrors[block] = finite
      ? annualizeVolatility(
          deviation > 0 ? Math.sqrt(Math.max(varianceOfVariance, 0)) / (2 * deviation) : 0,
          blockMinutes,
        )
      : NaN;
  }
  return { values, standardErrors };
}

/**
 * Per block of the block-major `returns`: the sum over paths, and the sums of the squared and
 * fourth-power deviations from the block's mean, each accumulated in path order (two passes).
 * Four blocks are summed side by side, so that four chains of additions overlap instead of one
 * waiting on each addition (measured ~1.5× faster); each block's sums are the same numbers as
 * summed alone.
 */
function blockMoments(
  returns: Float64Array,
  nPaths: number,
  nBlocks: number,
): { sums: Float64Array; secondMoments: Float64Array; fourthMoments: Float64Array } {
  const sums = new Float64Array(nBlocks);
  const secondMoments = new Float64Array(nBlocks);
  const fourthMoments = new Float64Array(nBlocks);
  let block = 0;
  for (; block + 3 < nBlocks; block += 4) {
    const first = block * nPaths;
    const second = first + nPaths;
    const third = second + nPaths;
    const fourth = third + nPaths;
    let sum0 = 0;
    let sum1 = 0;
    let sum2 = 0;
    let sum3 = 0;
    for (let path = 0; path < nPaths; ++path) {
      sum0 += returns[first + path];
      sum1 += returns[second + path];
      sum2 += returns[third + path];
      sum3 += returns[fourth + path];
    }
    const mean0 = sum0 / nPaths;
    const mean1 = sum1 / nPaths;
    const mean2 = sum2 / nPaths;
    const mean3 = sum3 / nPaths;
    let square0 = 0;
    let square1 = 0;
    let square2 = 0;
    let square3 = 0;
    let fourthPower0 = 0;
    let fourthPower1 = 0;
    let fourthPower2 = 0;
    let fourthPower3 = 0;
    for (let path = 0; path < nPaths; ++path) {
      const deviation0 = returns[first + path] - mean0;
      const deviation1 = returns[second + path] - mean1;
      const deviation2 = returns[third + path] - mean2;
      const deviation3 = returns[fourth + path] - mean3;
      const squared0 = deviation0 * deviation0;
      const squared1 = deviation1 * deviation1;
      const squared2 = deviation2 * deviation2;
      const squared3 = deviation3 * deviation3;
      square0 += squared0;
      square1 += squared1;
      square2 += squared2;
      square3 += squared3;
      fourthPower0 += squared0 * squared0;
      fourthPower1 += squared1 * squared1;
      fourthPower2 += squared2 * squared2;
      fourthPower3 += squared3 * squared3;
    }
    sums.set([sum0, sum1, sum2, sum3], block);
    secondMoments.set([square0, square1, square2, square3], block);
    fourthMoments.set([fourthPower0, fourthPower1, fourthPower2, fourthPower3], block);
  }
  for (; block < nBlocks; ++block) {
    const start = block * nPaths;
    let sum = 0;
    for (let path = 0; path < nPaths; ++path) sum += returns[start + path];
    const mean = sum / nPaths;
    let square = 0;
    let fourthPower = 0;
    for (let path = 0; path < nPaths; ++path) {
      const deviation = returns[start + path] - mean;
      const squared = deviation * deviation;
      square += squared;
      fourthPower += squared * squared;
    }
    sums[block] = sum;
    secondMoments[block] = square;
    fourthMoments[block] = fourthPower;
  }
  return { sums, secondMoments, fourthMoments };
}

/**
 * The nine R-7 percentiles across paths of |r| × `scale` for each block of the block-major
 * `returns` (block b, path p at `b·nPaths + p`), with order-statistic standard errors
 * (`columnQuantilesWithErrors`, the scaled columns made a few blocks at a time, not as a whole
 * matrix).
 * @example absoluteScaledQuantiles(session.blockLogReturns(3), session.nPaths, annualizeVolatility(1, 15))
 */
export function absoluteScaledQuantiles(
  returns: Float64Array,
  nPaths: number,
  scale: number,
): QuantileEstimates {
  return columnQuantilesWithErrors(
    nPaths,
    returns.length / nPaths,
    PERCENTILE_PROBABILITIES,
    (firstBlock, count, out) => absoluteScaled(returns, firstBlock * nPaths, scale, out),
  );
}

/** out[i] = |values[from + i]| × scale for every i of `out` (a plain kernel, not a closure). */
function absoluteScaled(
  values: Float64Array,
  from: number,
  scale: number,
  out: Float64Array,
): void {
  const length = out.length;
  for (let index = 0; index < length; ++index) out[index] = Math.abs(values[from + index]) * scale;
}
