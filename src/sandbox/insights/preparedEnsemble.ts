/**
 * An ensemble re-based once and shared by every record built from it: the re-based paths (for the
 * reference implementations), the terminal prices, each step's column sorted once, and each
 * window's per-path extremes. The reference functions are plain and slow by design (a percentile
 * re-sorts its input; a touch probability re-scans every path); these intermediates let the records
 * of one 10,000 × 289 ensemble cost a few hundred milliseconds instead of several seconds. Each
 * helper that replaces a reference call is tested bit for bit against that call.
 */

import { rebasePrice, type RebaseOption } from "../../domain/insightConventions.ts";
import { requirePathMatrix } from "../../reference/validate.ts";
import { sortAscending } from "./sortAscending.ts";

/**
 * The paths of one ensemble re-based to a price, with lazily computed shared intermediates.
 * @example
 * const ensemble = new PreparedEnsemble(paths, 67676.62, "additive");
 * ensemble.sortedColumn(288); // terminal prices, ascending
 */
export class PreparedEnsemble {
  /** Re-based prices, path-major: path p, point t at `p * pointCount + t`. */
  readonly values: Float64Array;
  /**
   * Re-based paths, `paths[p][t]`, each a view of {@link values}; point 0 of every path is the
   * re-base price (additive).
   */
  readonly paths: readonly Float64Array[];
  /** Number of paths. */
  readonly pathCount: number;
  /** Points per path. */
  readonly pointCount: number;
  private readonly sortedColumns = new Map<number, Float64Array>();
  private readonly extremes = new Map<number, WindowExtremes>();

  /**
   * Re-bases `rawPaths` to `price` (per path, with `rebasePrice` of the insight conventions).
   * Throws `RangeError` for no paths, paths of different lengths, or a price that is not finite
   * and positive.
   * @example new PreparedEnsemble([[100, 101], [102, 99]], 100, "additive").paths // => [Float64Array [100, 101], Float64Array [100, 97]]
   */
  constructor(rawPaths: readonly ArrayLike<number>[], price: number, rebase: RebaseOption) {
    this.pointCount = requirePathMatrix("PreparedEnsemble", rawPaths, 2);
    if (!(price > 0 && Number.isFinite(price))) {
      throw new RangeError(
        `PreparedEnsemble requires a finite positive re-base price, got ${price}`,
      );
    }
    this.pathCount = rawPaths.length;
    const pointCount = this.pointCount;
    // one buffer and views of it, not 10,000 arrays: the same numbers for a fraction of the garbage
    this.values = new Float64Array(this.pathCount * pointCount);
    const paths: Float64Array[] = [];
    for (let path = 0; path < this.pathCount; path++) {
      const raw = rawPaths[path];
      const rebased = this.values.subarray(path * pointCount, (path + 1) * pointCount);
      for (let point = 0; point < pointCount; point++) {
        rebased[point] = rebasePrice(raw[point], raw[0], price, rebase);
      }
      paths.push(rebased);
    }
    this.paths = paths;
  }

  /**
   * The prices of every path at `step`, in path order (a fresh array).
   * @example ensemble.column(ensemble.pointCount - 1) // terminal prices
   */
  column(step: number): number[] {
    this.requireStep("column", step);
    return this.paths.map((path) => path[step]);
  }

  /**
   * The prices of every path at `step`, ascending (NaN last), computed once per step.
   * @example ensemble.sortedColumn(0)[0] // the lowest start price
   */
  sortedColumn(step: number): Float64Array {
    this.requireStep("sortedColumn", step);
    let sorted = this.sortedColumns.get(step);
    if (sorted === undefined) {
      sorted = new Float64Array(this.pathCount);
      const { values, pointCount } = this;
      for (let path = 0; path < this.pathCount; path++)
        sorted[path] = values[path * pointCount + step];
      sortAscending(sorted);
      this.sortedColumns.set(step, sorted);
    }
    return sorted;
  }

  /**
   * Each path's lowest and highest price over points [0, toStep], computed once per window. A path
   * touches a level from above within the window exactly when its minimum is ≤ the level, from
   * below when its maximum is ≥ it (the touch convention).
   * @example ensemble.windowExtremes(72).minima[0] // path 0's lowest price in the first 6 hours
   */
  windowExtremes(toStep: number): WindowExtremes {
    this.requireStep("windowExtremes", toStep);
    let extremes = this.extremes.get(toStep);
    if (extremes === undefined) {
      const minima: number[] = [];
      const maxima: number[] = [];
      const { values, pointCount } = this;
      for (let offset = 0; offset < values.length; offset += pointCount) {
        let minimum = Infinity;
        let maximum = -Infinity;
        for (let step = 0; step <= toStep; step++) {
          // A NaN point never touches (as touchProbability): it moves neither extreme.
          const price = values[offset + step];
          if (price < minimum) minimum = price;
          if (price > maximum) maximum = price;
        }
        minima.push(minimum);
        maxima.push(maximum);
      }
      extremes = { minima, maxima };
      this.extremes.set(toStep, extremes);
    }
    return extremes;
  }

  private requireStep(operation: string, step: number): void {
    if (!Number.isInteger(step) || step < 0 || step >= this.pointCount) {
      throw new RangeError(
        `PreparedEnsemble.${operation} requires a step in [0, ${this.pointCount - 1}], got ${step}`,
      );
    }
  }
}

/**
 * Per-path extremes over a window, as returned by {@link PreparedEnsemble.windowExtremes}.
 * @example const { minima, maxima } = ensemble.windowExtremes(288);
 */
export interface WindowExtremes {
  /** Lowest price of each path over the window, in path order. */
  readonly minima: readonly number[];
  /** Highest price of each path over the window, in path order. */
  readonly maxima: readonly number[];
}

const preparedByPaths = new WeakMap<object, Map<string, PreparedEnsemble>>();

/**
 * The {@link PreparedEnsemble} of `rawPaths` re-based to `price`, shared between the records built
 * from the same paths array (a weak cache: it lives as long as the caller keeps the paths).
 * @example preparedEnsemble(inputs.paths, inputs.currentPrice, "additive") === preparedEnsemble(inputs.paths, inputs.currentPrice, "additive") // => true
 */
export function preparedEnsemble(
  rawPaths: readonly ArrayLike<number>[],
  price: number,
  rebase: RebaseOption,
): PreparedEnsemble {
  let byKey = preparedByPaths.get(rawPaths);
  if (byKey === undefined) {
    byKey = new Map();
    preparedByPaths.set(rawPaths, byKey);
  }
  const key = `${rebase}:${price}`;
  let prepared = byKey.get(key);
  if (prepared === undefined) {
    prepared = new PreparedEnsemble(rawPaths, price, rebase);
    byKey.set(key, prepared);
  }
  return prepared;
}
