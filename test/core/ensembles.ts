/**
 * Test ensembles for the core kernels: small random path sets with ties and constant paths (for
 * comparisons with `src/reference/`), GBM path sets (for closed forms), and the conversions
 * between the reference's `paths[p][t]` and the core's path-major Float64Array.
 */

import { simulateGbmPaths, type GbmParameters } from "../../src/reference/gbm.ts";
import { createRandom } from "../../src/reference/random.ts";

/** One path set in both layouts. */
export interface TestEnsemble {
  readonly rows: number[][];
  readonly values: Float64Array;
  readonly nPaths: number;
  readonly nPoints: number;
}

/** Path-major Float64Array of `rows` (all rows of equal length). */
export function toPathMajor(rows: readonly (readonly number[])[]): Float64Array {
  const nPoints = rows.length === 0 ? 0 : rows[0].length;
  const values = new Float64Array(rows.length * nPoints);
  rows.forEach((row, path) => values.set(row, path * nPoints));
  return values;
}

/** A {@link TestEnsemble} from rows. */
export function ensembleOf(rows: number[][]): TestEnsemble {
  return { rows, values: toPathMajor(rows), nPaths: rows.length, nPoints: rows[0]?.length ?? 1 };
}

/**
 * Random multiplicative walks from 100, rounded to a 0.5 tick so that points tie with each other
 * and with levels on the tick; every fourth path is constant at 100.
 */
export function randomEnsemble(seed: number, nPaths: number, nPoints: number): TestEnsemble {
  const random = createRandom(seed);
  const rows: number[][] = [];
  for (let path = 0; path < nPaths; path++) {
    const row = [100];
    for (let step = 1; step < nPoints; step++) {
      const next = path % 4 === 3 ? 100 : row[step - 1] * Math.exp(0.02 * random.normal());
      row.push(Math.round(next * 2) / 2);
    }
    rows.push(row);
  }
  return ensembleOf(rows);
}

/** The sizes the comparisons with the reference sweep: tiny ones first. */
export const ENSEMBLE_SIZES: readonly (readonly [number, number])[] = [
  [1, 2],
  [2, 2],
  [1, 7],
  [5, 3],
  [13, 17],
  [64, 49],
  [301, 25],
];

/** GBM paths (exact on the grid, `src/reference/gbm.ts`) as a path-major ensemble. */
export function gbmEnsemble(seed: number, parameters: GbmParameters): TestEnsemble {
  return ensembleOf(simulateGbmPaths(createRandom(seed), parameters));
}

/** |actual − expected| ≤ tolerance·|expected| (NaN only matches NaN). */
export function expectRelativelyClose(actual: number, expected: number, tolerance: number): void {
  if (Number.isNaN(expected) && Number.isNaN(actual)) return;
  const error = Math.abs(actual - expected);
  if (!(error <= tolerance * Math.abs(expected))) {
    throw new Error(
      `expected ${actual} to be within ${tolerance} relative of ${expected} (error ${error})`,
    );
  }
}
