/**
 * LP range statistics (stay probability, time inside, impermanent loss) for the 16 widths of the
 * LP-bounds insight, in one pass over the paths, beside naive JS per interval and numpy.
 */

import { impermanentLoss } from "../../src/core/impermanentLoss.ts";
import { createRangeEstimates, rangeStatistics } from "../../src/core/rangeStatistics.ts";
import { defineSuite, MINERS, PATHS_PER_MINER, POINTS, type BenchCase } from "../harness.ts";

const START_PRICE = 68000;
/** Full widths 1 … 16 %: lower = P0·(1 − w/2), upper = P0·(1 + w/2). */
const LOWERS = Float64Array.from({ length: 16 }, (_, i) => START_PRICE * (1 - (i + 1) / 200));
const UPPERS = Float64Array.from({ length: 16 }, (_, i) => START_PRICE * (1 + (i + 1) / 200));

/** The naive JS version: per interval, every path's points with `every` and `filter`. */
function rangeNaive(paths: readonly number[][]): number[][] {
  return Array.from(LOWERS, (lower, index) => {
    const upper = UPPERS[index];
    const inside = (point: number) => point > lower && point < upper;
    let stayed = 0;
    let minutes = 0;
    let loss = 0;
    for (const path of paths) {
      if (path.every(inside)) stayed++;
      minutes += 5 * path.slice(1).filter(inside).length;
      loss += impermanentLoss(START_PRICE, lower, upper, path[path.length - 1]);
    }
    return [stayed / paths.length, minutes / paths.length, loss / paths.length];
  });
}

export const suite = defineSuite({
  name: "range",
  cases: (data) => {
    const nPaths = MINERS * PATHS_PER_MINER;
    const paths = Array.from({ length: nPaths }, (_, path) =>
      Array.from(data.pooled.subarray(path * POINTS, (path + 1) * POINTS)),
    );
    const out = createRangeEstimates(LOWERS.length);
    const cases: BenchCase[] = [
      {
        name: "rangeStatistics (16 intervals: stay, time inside, IL)",
        size: "10,000 × 289",
        pathlab: () =>
          rangeStatistics(data.pooled, nPaths, POINTS, {
            lowers: LOWERS,
            uppers: UPPERS,
            startPrice: START_PRICE,
            stepMinutes: 5,
            out,
          }),
        naive: () => rangeNaive(paths),
        peer: { script: "range", case: "range_16" },
      },
    ];
    return cases;
  },
});
