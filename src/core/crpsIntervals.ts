/**
 * Validator-style CRPS of one path set over one scoring interval (the validator's CRPS): the simulated
 * changes on the interval's grid against a realized change series, term by term.
 */

import { sortFloat64 } from "./sortFloat64.ts";
import type { CrpsMethod } from "./crps.ts";
import { crpsEnsembleSorted } from "./crps.ts";
import { crpsParitySorted } from "./crpsParity.ts";

/**
 * How an interval's terms are formed from the grid p[0], p[k], p[2k], … (k steps per interval):
 * `"returns"`, basis-point simple returns (p[j+1] − p[j]) / p[j] · 10,000 of consecutive grid
 * points; `"gaps"`, only the first of those; `"absolute"`, the prices at grid points 1, 2, ….
 * @example const kind: IntervalKind = "returns";
 */
export type IntervalKind = "returns" | "gaps" | "absolute";

/**
 * The number of terms of an interval on a path of `nPoints` points (the validator's
 * `prices[::k]` grid has ⌊(nPoints − 1)/k⌋ + 1 points).
 * @param nPoints - points per path, ≥ 1.
 * @param stepsPerInterval - steps of the path per interval, a positive integer.
 * @param kind - how the terms are formed ({@link IntervalKind}).
 * @example intervalTermCount(289, 6, "returns") // => 48
 */
export function intervalTermCount(
  nPoints: number,
  stepsPerInterval: number,
  kind: IntervalKind,
): number {
  if (!Number.isInteger(nPoints) || nPoints < 1) {
    throw new RangeError(`intervalTermCount requires nPoints ≥ 1, got ${nPoints}`);
  }
  if (!Number.isInteger(stepsPerInterval) || stepsPerInterval < 1) {
    throw new RangeError(
      `intervalTermCount requires stepsPerInterval ≥ 1, got ${stepsPerInterval}`,
    );
  }
  const gridIntervals = Math.floor((nPoints - 1) / stepsPerInterval);
  return kind === "gaps" ? Math.min(1, gridIntervals) : gridIntervals;
}

/**
 * The terms of one path (`prices`, e.g. the realized path) for an interval, as the validator
 * forms them ({@link IntervalKind}); NaN prices give NaN terms.
 * @param prices - one path's prices, oldest first, NaN where missing.
 * @param stepsPerInterval - steps of the path per interval, a positive integer.
 * @param kind - how the terms are formed ({@link IntervalKind}).
 * @param out - where to write, one number per term ({@link intervalTermCount}); a new array by
 *   default.
 * @example intervalChanges(Float64Array.of(100, 101, 99), 1, "returns") // => [100, -198.0198…]
 */
export function intervalChanges(
  prices: Float64Array,
  stepsPerInterval: number,
  kind: IntervalKind,
  out: Float64Array = new Float64Array(intervalTermCount(prices.length, stepsPerInterval, kind)),
): Float64Array {
  const termCount = intervalTermCount(prices.length, stepsPerInterval, kind);
  if (out.length !== termCount) {
    throw new RangeError(`intervalChanges requires out of ${termCount} numbers, got ${out.length}`);
  }
  for (let term = 0; term < termCount; term++) {
    const start = prices[term * stepsPerInterval];
    const end = prices[(term + 1) * stepsPerInterval];
    out[term] = kind === "absolute" ? end : ((end - start) / start) * 10000;
  }
  return out;
}

/**
 * The interval {@link crpsIntervalSum} scores, its realized terms, and how.
 * @example const options: CrpsIntervalOptions = { stepsPerInterval: 6, kind: "returns", realized, method: "parity" };
 */
export interface CrpsIntervalOptions {
  /** Steps of the path per interval, k ≥ 1: the grid is p[0], p[k], p[2k], …. */
  readonly stepsPerInterval: number;
  /** How the terms are formed from the grid. */
  readonly kind: IntervalKind;
  /**
   * The realized terms, one per term ({@link intervalTermCount}), formed as the simulated ones
   * ({@link intervalChanges}); NaN where not observed.
   */
  readonly realized: Float64Array;
  /** `"closed"` (default) or `"parity"` (properscoring's loop, bit for bit). */
  readonly method?: CrpsMethod;
  /**
   * For `"absolute"` intervals: each term becomes CRPS / absoluteReference · 10,000, the
   * validator's normalization by the last realized price. Ignored for other kinds.
   */
  readonly absoluteReference?: number;
}

/**
 * The options of {@link crpsIntervalTerms}: those of {@link crpsIntervalSum} and where to write.
 * @example const options: CrpsIntervalTermsOptions = { stepsPerInterval: 1, kind: "returns", realized, out };
 */
export interface CrpsIntervalTermsOptions extends CrpsIntervalOptions {
  /** Where to write, one number per term; a new array by default. */
  readonly out?: Float64Array;
}

/**
 * CRPS per term of an interval: the path-major path set `values` (`nPaths` × `nPoints`) forms its
 * simulated terms as {@link intervalChanges} does, and term j is scored against `realized[j]`
 * (standard ensemble CRPS, as properscoring). A NaN realized term gives NaN (the validator skips
 * it). Each term's members are gathered and radix-sorted into one reused buffer. O(nPaths) per
 * term for smooth ensembles.
 * Throws `RangeError` when sizes do not match or there are no paths.
 * @param values - the paths, path-major: `nPaths` × `nPoints` prices.
 * @param nPaths - the number of paths, ≥ 1.
 * @param nPoints - points per path.
 * @param options - the interval, its realized terms, the CRPS method and the array to write.
 * @example
 * // two paths of three points, 1-step returns against realized returns
 * crpsIntervalTerms(Float64Array.of(100, 101, 102, 100, 99, 98), 2, 3,
 *   { stepsPerInterval: 1, kind: "returns", realized: Float64Array.of(0, 0) }) // => two CRPS values in basis points
 */
export function crpsIntervalTerms(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  options: CrpsIntervalTermsOptions,
): Float64Array {
  const { stepsPerInterval, kind, realized, out } = options;
  const termCount = intervalTermCount(nPoints, stepsPerInterval, kind);
  if (!Number.isInteger(nPaths) || nPaths < 1 || values.length !== nPaths * nPoints) {
    throw new RangeError(
      `crpsIntervalTerms requires at least one path and values.length = nPaths × nPoints = ${nPaths * nPoints}, got nPaths ${nPaths} and ${values.length} values`,
    );
  }
  if (realized.length !== termCount) {
    throw new RangeError(
      `crpsIntervalTerms requires one realized term per interval term: expected ${termCount}, got ${realized.length}`,
    );
  }
  const result = out ?? new Float64Array(termCount);
  if (result.length !== termCount) {
    throw new RangeError(
      `crpsIntervalTerms requires out of ${termCount} numbers, got ${result.length}`,
    );
  }
  const members = new Float64Array(nPaths);
  const sorted = new Float64Array(nPaths);
  const parity = options.method === "parity";
  const reference = kind === "absolute" ? options.absoluteReference : undefined;
  for (let term = 0; term < termCount; term++) {
    const observation = realized[term];
    if (observation !== observation) {
      result[term] = NaN;
      continue;
    }
    const start = term * stepsPerInterval;
    const end = start + stepsPerInterval;
    if (kind === "absolute") {
      for (let path = 0, row = 0; path < nPaths; path++, row += nPoints) {
        members[path] = values[row + end];
      }
    } else {
      for (let path = 0, row = 0; path < nPaths; path++, row += nPoints) {
        const from = values[row + start];
        members[path] = ((values[row + end] - from) / from) * 10000;
      }
    }
    sortFloat64(members, sorted);
    const crps = parity
      ? crpsParitySorted(sorted, observation)
      : crpsEnsembleSorted(sorted, observation);
    result[term] = reference === undefined ? crps : (crps / reference) * 10000;
  }
  return result;
}

/**
 * The validator's CRPS sum of one interval: {@link crpsIntervalTerms} added in term order,
 * skipping terms whose realized value is NaN (the validator scores observed runs as blocks, which
 * adds the same terms in the same order). 0 when every realized term is NaN.
 * @param values - the paths, path-major: `nPaths` × `nPoints` prices.
 * @param nPaths - the number of paths, ≥ 1.
 * @param nPoints - points per path.
 * @param options - the interval, its realized terms and the CRPS method.
 * @example
 * // a 5-minute interval
 * crpsIntervalSum(values, 1000, 289, { stepsPerInterval: 1, kind: "returns", realized: realizedReturns })
 */
export function crpsIntervalSum(
  values: Float64Array,
  nPaths: number,
  nPoints: number,
  options: CrpsIntervalOptions,
): number {
  const { stepsPerInterval, kind, realized, method, absoluteReference } = options;
  const terms = crpsIntervalTerms(values, nPaths, nPoints, {
    stepsPerInterval,
    kind,
    realized,
    method,
    absoluteReference,
  });
  let sum = 0;
  for (let term = 0; term < terms.length; term++) {
    if (realized[term] === realized[term]) sum += terms[term];
  }
  return sum;
}
