/**
 * Touch probabilities (liquidation): the one-pass discrete kernel beside the issue's
 * sort-the-extremes variant, the Brownian-bridge correction, a naive JS scan per level and
 * numpy's running extremes (`np.maximum.accumulate`).
 */

import { touchBridgeProbabilities } from "../../src/core/touchBridgeProbabilities.ts";
import { createTouchEstimates, touchProbabilities } from "../../src/core/touchProbabilities.ts";
import { pooledLogReturnVariance } from "../../src/core/volatility.ts";
import { defineSuite, MINERS, PATHS_PER_MINER, POINTS, type BenchCase } from "../harness.ts";

const START_PRICE = 68000;
/** Liquidation windows of 6, 12, 18, 24 hours on a 5-minute grid. */
const WINDOW_END_STEPS = Int32Array.of(72, 144, 216, 288);
/** Long liquidation levels P0·(1 − x), x = 1 … 10 %. */
const LONG_LEVELS = Float64Array.from({ length: 10 }, (_, i) => START_PRICE * (1 - (i + 1) / 100));
/** Long and short levels P0·(1 ∓ x): what the liquidation insight asks for. */
const ALL_LEVELS = Float64Array.from(
  { length: 20 },
  (_, i) => START_PRICE * (i < 10 ? 1 - (i + 1) / 100 : 1 + (i - 9) / 100),
);

/** The method: running extremes per path, then per window sort them and binary-search. */
function touchBySortedExtremes(
  values: Float64Array,
  nPaths: number,
  levels: Float64Array,
): Float64Array {
  const nWindows = WINDOW_END_STEPS.length;
  const maxima = new Float64Array(nWindows * nPaths);
  const minima = new Float64Array(nWindows * nPaths);
  for (let path = 0; path < nPaths; path++) {
    const base = path * POINTS;
    let maximum = values[base];
    let minimum = maximum;
    let index = base + 1;
    for (let window = 0; window < nWindows; window++) {
      for (const end = base + WINDOW_END_STEPS[window]; index <= end; index++) {
        const point = values[index];
        if (point > maximum) maximum = point;
        if (point < minimum) minimum = point;
      }
      maxima[window * nPaths + path] = maximum;
      minima[window * nPaths + path] = minimum;
    }
  }
  const out = new Float64Array(2 * nWindows * levels.length);
  for (let window = 0; window < nWindows; window++) {
    const sortedMaxima = maxima.subarray(window * nPaths, (window + 1) * nPaths).sort();
    const sortedMinima = minima.subarray(window * nPaths, (window + 1) * nPaths).sort();
    for (let level = 0; level < levels.length; level++) {
      out[2 * (window * levels.length + level)] =
        (nPaths - lowerBound(sortedMaxima, levels[level])) / nPaths;
      out[2 * (window * levels.length + level) + 1] =
        upperBound(sortedMinima, levels[level]) / nPaths;
    }
  }
  return out;
}

function lowerBound(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function upperBound(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The naive JS version: per window, level and direction, scan every path until it touches. */
function touchNaive(paths: readonly number[][], levels: Float64Array): number[] {
  const result: number[] = [];
  for (const end of WINDOW_END_STEPS) {
    for (const level of levels) {
      for (const direction of ["up", "down"]) {
        const touched = paths.filter((path) => {
          for (let step = 0; step <= end; step++) {
            if (direction === "up" ? path[step] >= level : path[step] <= level) return true;
          }
          return false;
        }).length;
        result.push(touched / paths.length);
      }
    }
  }
  return result;
}

export const suite = defineSuite({
  name: "touch",
  cases: (data) => {
    const nPaths = MINERS * PATHS_PER_MINER;
    const paths = Array.from({ length: nPaths }, (_, path) =>
      Array.from(data.pooled.subarray(path * POINTS, (path + 1) * POINTS)),
    );
    const out10 = createTouchEstimates(LONG_LEVELS.length, WINDOW_END_STEPS.length);
    const out20 = createTouchEstimates(ALL_LEVELS.length, WINDOW_END_STEPS.length);
    const variance = pooledLogReturnVariance(data.pooled, nPaths, POINTS);
    const size = "10,000 × 289";
    const cases: BenchCase[] = [
      {
        name: "touchProbabilities (10 levels × 2 directions × 4 windows)",
        size,
        pathlab: () =>
          touchProbabilities(data.pooled, nPaths, POINTS, {
            levels: LONG_LEVELS,
            windowEndSteps: WINDOW_END_STEPS,
            fromStep: 0,
            out: out10,
          }),
        naive: () => touchNaive(paths, LONG_LEVELS),
        peer: { script: "touch", case: "touch_10" },
        targetMs: 10,
      },
      {
        name: "  variant: sort the extremes per window (the issue's sketch)",
        size,
        pathlab: () => touchBySortedExtremes(data.pooled, nPaths, LONG_LEVELS),
        note: "not used",
      },
      {
        name: "touchProbabilities (20 levels: liquidation long + short)",
        size,
        pathlab: () =>
          touchProbabilities(data.pooled, nPaths, POINTS, {
            levels: ALL_LEVELS,
            windowEndSteps: WINDOW_END_STEPS,
            fromStep: 0,
            out: out20,
          }),
        peer: { script: "touch", case: "touch_20" },
      },
      {
        name: "touchBridgeProbabilities (10 levels × 2 directions × 4 windows)",
        size,
        pathlab: () =>
          touchBridgeProbabilities(data.pooled, nPaths, POINTS, {
            levels: LONG_LEVELS,
            windowEndSteps: WINDOW_END_STEPS,
            stepLogVariance: variance,
            fromStep: 0,
            out: out10,
          }),
        peer: { script: "touch", case: "bridge_10" },
      },
      {
        name: "pooledLogReturnVariance (σ²Δ for the bridge)",
        size,
        pathlab: () => pooledLogReturnVariance(data.pooled, nPaths, POINTS),
        peer: { script: "touch", case: "pooled_variance" },
      },
    ];
    return cases;
  },
});
