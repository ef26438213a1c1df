/**
 * Terminal-price kernels: probabilities above/below levels (LP probabilities) and option prices
 * for a strike grid, each from the terminal prices sorted once, beside naive JS and numpy.
 */

import { optionPricesSorted } from "../../src/core/optionPrices.ts";
import { terminalPrices } from "../../src/core/terminalPrices.ts";
import { terminalProbabilitiesSorted } from "../../src/core/terminalProbabilities.ts";
import { defineSuite, MINERS, PATHS_PER_MINER, POINTS, type BenchCase } from "../harness.ts";

/** 11 levels across the terminal range, as the LP-probabilities insight uses. */
const LEVELS = Float64Array.from({ length: 11 }, (_, i) => 62000 + 1200 * i);
/** A BTC strike grid: 41 strikes, step 500, around 68,000. */
const STRIKES = Float64Array.from({ length: 41 }, (_, i) => 58000 + 500 * i);

function probabilitiesNaive(terminal: readonly number[]): number[][] {
  return Array.from(LEVELS, (level) => [
    terminal.filter((price) => price > level).length / terminal.length,
    terminal.filter((price) => price < level).length / terminal.length,
  ]);
}

function optionsNaive(terminal: readonly number[]): number[][] {
  return Array.from(STRIKES, (strike) => [
    terminal.reduce((sum, price) => sum + Math.max(price - strike, 0), 0) / terminal.length,
    terminal.reduce((sum, price) => sum + Math.max(strike - price, 0), 0) / terminal.length,
  ]);
}

export const suite = defineSuite({
  name: "terminal",
  cases: (data) => {
    const nPaths = MINERS * PATHS_PER_MINER;
    const terminal = new Float64Array(nPaths);
    const sorted = (): Float64Array => terminalPrices(data.pooled, nPaths, POINTS, terminal).sort();
    const pathRows = Array.from({ length: nPaths }, (_, path) =>
      Array.from(data.pooled.subarray(path * POINTS, (path + 1) * POINTS)),
    );
    const size = "10,000 × 289";
    const cases: BenchCase[] = [
      {
        name: "terminalProbabilitiesSorted (11 levels, with extract + sort)",
        size,
        pathlab: () => terminalProbabilitiesSorted(sorted(), LEVELS),
        naive: () => probabilitiesNaive(pathRows.map((path) => path[POINTS - 1])),
        peer: { script: "terminal", case: "probabilities" },
      },
      {
        name: "optionPricesSorted (41 strikes, with extract + sort)",
        size,
        pathlab: () => optionPricesSorted(sorted(), STRIKES),
        naive: () => optionsNaive(pathRows.map((path) => path[POINTS - 1])),
        peer: { script: "terminal", case: "options" },
      },
    ];
    return cases;
  },
});
