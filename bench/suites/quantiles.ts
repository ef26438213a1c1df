/**
 * stepQuantiles (histogram selection) beside a typed-array sort per step, a Floyd–Rivest
 * multi-select per step, a naive JS version and numpy's `np.percentile(axis=0)`.
 */

import {
  PERCENTILE_PROBABILITIES,
  quantilesSorted,
  stepQuantiles,
} from "../../src/core/quantiles.ts";
import { transpose } from "../../src/core/transpose.ts";
import { defineSuite, MINERS, PATHS_PER_MINER, POINTS, type BenchCase } from "../harness.ts";

const PROBABILITIES = PERCENTILE_PROBABILITIES;

/** Per step: copy into one Float64Array, typed-array sort, R-7 (numpy's interpolation). */
function quantilesByTypedSort(
  stepMajor: Float64Array,
  nPaths: number,
  nPoints: number,
): Float64Array {
  const out = new Float64Array(nPoints * PROBABILITIES.length);
  const scratch = new Float64Array(nPaths);
  for (let step = 0; step < nPoints; step++) {
    scratch.set(stepMajor.subarray(step * nPaths, (step + 1) * nPaths));
    scratch.sort();
    quantilesSorted(
      scratch,
      PROBABILITIES,
      out.subarray(step * PROBABILITIES.length, (step + 1) * PROBABILITIES.length),
    );
  }
  return out;
}

/**
 * Per step: Floyd–Rivest multi-select. The lower ranks ⌊(n − 1)p⌋ (ascending) are selected
 * middle-out, each within the range its neighbours left, then each upper neighbour is the minimum
 * of the segment up to the next selected rank.
 */
function quantilesByFloydRivest(
  stepMajor: Float64Array,
  nPaths: number,
  nPoints: number,
): Float64Array {
  const out = new Float64Array(nPoints * PROBABILITIES.length);
  const scratch = new Float64Array(nPaths);
  const lowers = PROBABILITIES.map((p) => Math.min(Math.floor((nPaths - 1) * p), nPaths - 1));
  const selectAll = (from: number, to: number, left: number, right: number): void => {
    if (from > to) return;
    const middle = (from + to) >> 1;
    floydRivest(scratch, lowers[middle], left, right);
    selectAll(from, middle - 1, left, lowers[middle] - 1);
    selectAll(middle + 1, to, lowers[middle] + 1, right);
  };
  for (let step = 0; step < nPoints; step++) {
    scratch.set(stepMajor.subarray(step * nPaths, (step + 1) * nPaths));
    selectAll(0, lowers.length - 1, 0, nPaths - 1);
    for (let index = 0; index < lowers.length; index++) {
      const lower = lowers[index];
      const end = index + 1 < lowers.length ? lowers[index + 1] : nPaths - 1;
      let upper = scratch[Math.min(lower + 1, nPaths - 1)];
      for (let other = lower + 2; other <= end; other++)
        if (scratch[other] < upper) upper = scratch[other];
      const weight = (nPaths - 1) * PROBABILITIES[index] - lower;
      const difference = upper - scratch[lower];
      out[step * PROBABILITIES.length + index] =
        lower >= nPaths - 1
          ? scratch[nPaths - 1]
          : weight >= 0.5
            ? upper - difference * (1 - weight)
            : scratch[lower] + difference * weight;
    }
  }
  return out;
}

/** Floyd & Rivest (1975) SELECT, as in d3-array's quickselect. */
function floydRivest(values: Float64Array, k: number, left: number, right: number): void {
  while (right > left) {
    if (right - left > 600) {
      const n = right - left + 1;
      const m = k - left + 1;
      const z = Math.log(n);
      const s = 0.5 * Math.exp((2 * z) / 3);
      const sd = 0.5 * Math.sqrt((z * s * (n - s)) / n) * (m - n / 2 < 0 ? -1 : 1);
      floydRivest(
        values,
        k,
        Math.max(left, Math.floor(k - (m * s) / n + sd)),
        Math.min(right, Math.floor(k + ((n - m) * s) / n + sd)),
      );
    }
    const pivot = values[k];
    let i = left;
    let j = right;
    swap(values, left, k);
    if (values[right] > pivot) swap(values, left, right);
    while (i < j) {
      swap(values, i, j);
      i++;
      j--;
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
    }
    if (values[left] === pivot) swap(values, left, j);
    else {
      j++;
      swap(values, j, right);
    }
    if (j <= k) left = j + 1;
    if (k <= j) right = j - 1;
  }
}

function swap(values: Float64Array, i: number, j: number): void {
  const held = values[i];
  values[i] = values[j];
  values[j] = held;
}

/** The naive JS version: arrays of numbers, sort with a comparator, R-7. */
function quantilesNaive(stepMajor: Float64Array, nPaths: number, nPoints: number): number[][] {
  const result: number[][] = [];
  for (let step = 0; step < nPoints; step++) {
    const column = Array.from(stepMajor.subarray(step * nPaths, (step + 1) * nPaths)).sort(
      (a, b) => a - b,
    );
    result.push(
      PROBABILITIES.map((p) => {
        const h = (nPaths - 1) * p;
        const lower = Math.floor(h);
        return lower >= nPaths - 1
          ? column[nPaths - 1]
          : column[lower] + (h - lower) * (column[lower + 1] - column[lower]);
      }),
    );
  }
  return result;
}

export const suite = defineSuite({
  name: "quantiles",
  cases: (data) => {
    const nPaths = MINERS * PATHS_PER_MINER;
    const single = new Float64Array(PATHS_PER_MINER * POINTS);
    // miner 0 step-major
    for (let path = 0; path < PATHS_PER_MINER; path++) {
      for (let point = 0; point < POINTS; point++)
        single[point * PATHS_PER_MINER + path] = data.miner0[path * POINTS + point];
    }
    const out = new Float64Array(POINTS * PROBABILITIES.length);
    const cases: BenchCase[] = [];
    for (const [size, stepMajor, paths, peerCase, target] of [
      ["10,000 × 289", data.stepMajor, nPaths, "percentile_10k", 15],
      ["1,000 × 289", single, PATHS_PER_MINER, "percentile_1k", undefined],
    ] as const) {
      cases.push(
        {
          name: "stepQuantiles (9 percentiles, every step)",
          size,
          pathlab: () =>
            stepQuantiles(stepMajor, paths, POINTS, { probabilities: PROBABILITIES, out }),
          naive: () => quantilesNaive(stepMajor, paths, POINTS),
          peer: { script: "quantiles", case: peerCase },
          targetMs: target,
        },
        {
          name: "  variant: typed-array sort per step",
          size,
          pathlab: () => quantilesByTypedSort(stepMajor, paths, POINTS),
          note: "not used",
        },
        {
          name: "  variant: Floyd–Rivest multi-select per step",
          size,
          pathlab: () => quantilesByFloydRivest(stepMajor, paths, POINTS),
          note: "not used",
        },
      );
    }
    // What a job does with a fresh ensemble: its values step-major, then the quantiles. Each
    // call transposes a new copy, so that no call finds the step-major array of another.
    const stepMajorOut = new Float64Array(nPaths * POINTS);
    cases.push({
      name: "fresh ensemble: transpose + stepQuantiles",
      size: "10,000 × 289",
      pathlab: () =>
        stepQuantiles(transpose(data.pooled, nPaths, POINTS, stepMajorOut), nPaths, POINTS, {
          probabilities: PROBABILITIES,
          out,
        }),
      peer: { script: "quantiles", case: "percentile_10k" },
      note: "numpy = np.quantile(axis=0) of the path-major array",
    });
    return cases;
  },
});
