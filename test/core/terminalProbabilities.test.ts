import { describe, expect, it } from "vitest";
import { terminalPrices } from "../../src/core/terminalPrices.ts";
import {
  terminalBetweenSorted,
  terminalProbabilitiesSorted,
} from "../../src/core/terminalProbabilities.ts";
import { createRandom } from "../../src/reference/random.ts";
import { probabilityStandardError } from "../../src/reference/stderr.ts";
import {
  probabilityAbove,
  probabilityBelow,
  probabilityBetween,
} from "../../src/reference/terminal.ts";
import { normalCdf } from "../reference/closedForms.ts";
import { ENSEMBLE_SIZES, randomEnsemble } from "./ensembles.ts";

const LEVELS = Float64Array.of(100, 97.5, 103, 101.25, 99, 50, 150, 100.5, -Infinity, Infinity);

function sortedTerminal(values: Float64Array, nPaths: number, nPoints: number): Float64Array {
  return terminalPrices(values, nPaths, nPoints).sort();
}

describe("terminalPrices", () => {
  it("terminalPrices takes the last point of every path", () => {
    expect(Array.from(terminalPrices(Float64Array.of(100, 96, 99, 100, 101, 102), 2, 3))).toEqual([
      99, 102,
    ]);
    expect(() => terminalPrices(new Float64Array(5), 2, 3)).toThrow(
      "terminalPrices requires values.length = nPaths × nPoints = 2 × 3 = 6, got 5",
    );
  });
});

describe("terminalProbabilitiesSorted and terminalBetweenSorted", () => {
  it("terminalProbabilitiesSorted equals the reference counts, P(S_T > k) and P(S_T < k) strict", () => {
    ENSEMBLE_SIZES.forEach(([nPaths, nPoints], index) => {
      const ensemble = randomEnsemble(200 + index, nPaths, nPoints);
      const terminal = ensemble.rows.map((row) => row[nPoints - 1]);
      const result = terminalProbabilitiesSorted(
        sortedTerminal(ensemble.values, nPaths, nPoints),
        LEVELS,
      );
      LEVELS.forEach((level, at) => {
        const above = probabilityAbove(terminal, level);
        const below = probabilityBelow(terminal, level);
        expect(result.above.values[at]).toBe(above);
        expect(result.below.values[at]).toBe(below);
        expect(result.above.standardErrors[at]).toBe(probabilityStandardError(above, nPaths));
        expect(result.below.standardErrors[at]).toBe(probabilityStandardError(below, nPaths));
      });
    });
  });

  it("terminalBetweenSorted equals the reference count of lower ≤ S_T ≤ upper (inclusive)", () => {
    const lowers = Float64Array.of(100, 97.5, 90, 100.25, 0, 150);
    const uppers = Float64Array.of(100, 103, 99.5, 100.75, 1000, 160);
    ENSEMBLE_SIZES.forEach(([nPaths, nPoints], index) => {
      const ensemble = randomEnsemble(300 + index, nPaths, nPoints);
      const terminal = ensemble.rows.map((row) => row[nPoints - 1]);
      const sorted = sortedTerminal(ensemble.values, nPaths, nPoints);
      const result = terminalBetweenSorted(sorted, lowers, uppers);
      lowers.forEach((lower, at) => {
        const expected = probabilityBetween(terminal, lower, uppers[at]);
        expect(result.values[at]).toBe(expected);
        expect(result.standardErrors[at]).toBe(probabilityStandardError(expected, nPaths));
      });
    });
  });

  it("terminalProbabilitiesSorted matches the lognormal CDF on GBM terminal prices within 3 standard errors", () => {
    // ln S_T ~ N(ln S0 − σ²T/2, σ²T) for a driftless GBM.
    const startPrice = 2000;
    const volatilityRoot = 0.04;
    const count = 50_000;
    const random = createRandom(9);
    const terminal = new Float64Array(count);
    for (let index = 0; index < count; index++) {
      terminal[index] =
        startPrice *
        Math.exp(-0.5 * volatilityRoot * volatilityRoot + volatilityRoot * random.normal());
    }
    terminal.sort();
    const levels = Float64Array.of(1850, 1950, 2000, 2050, 2150);
    const result = terminalProbabilitiesSorted(terminal, levels);
    const lowers = Float64Array.of(1900, 1990);
    const uppers = Float64Array.of(2100, 2010);
    const between = terminalBetweenSorted(terminal, lowers, uppers);
    const cdf = (level: number) =>
      normalCdf(
        (Math.log(level / startPrice) + 0.5 * volatilityRoot * volatilityRoot) / volatilityRoot,
      );
    levels.forEach((level, at) => {
      expect(Math.abs(result.below.values[at] - cdf(level))).toBeLessThan(
        3 * result.below.standardErrors[at],
      );
      expect(Math.abs(result.above.values[at] - (1 - cdf(level)))).toBeLessThan(
        3 * result.above.standardErrors[at],
      );
    });
    lowers.forEach((lower, at) => {
      const expected = cdf(uppers[at]) - cdf(lower);
      expect(Math.abs(between.values[at] - expected)).toBeLessThan(3 * between.standardErrors[at]);
    });
  });

  it("terminal probabilities are NaN for an empty or non-finite sample, a NaN level and lower > upper", () => {
    for (const bad of [
      new Float64Array(0),
      Float64Array.of(1, 2, NaN),
      Float64Array.of(1, 2, Infinity),
      Float64Array.of(-Infinity, 1, 2),
    ]) {
      const result = terminalProbabilitiesSorted(bad, Float64Array.of(1.5));
      expect(result.above.values[0]).toBeNaN();
      expect(result.below.values[0]).toBeNaN();
      expect(result.below.standardErrors[0]).toBeNaN();
      expect(
        terminalBetweenSorted(bad, Float64Array.of(0), Float64Array.of(3)).values[0],
      ).toBeNaN();
    }
    const sorted = Float64Array.of(1, 2, 3, 4);
    expect(
      Array.from(terminalProbabilitiesSorted(sorted, Float64Array.of(NaN, 2)).above.values),
    ).toEqual([NaN, 0.5]);
    expect(
      Array.from(
        terminalBetweenSorted(sorted, Float64Array.of(3, NaN, 2), Float64Array.of(2, 3, 3)).values,
      ),
    ).toEqual([NaN, NaN, 0.5]);
  });

  it("terminal probabilities reject unsorted input and mismatched lengths", () => {
    expect(() => terminalProbabilitiesSorted(Float64Array.of(1, 3, 2), Float64Array.of(2))).toThrow(
      "terminalProbabilitiesSorted requires sorted sorted ascending, got sorted[1] = 3 > sorted[2] = 2",
    );
    expect(() =>
      terminalBetweenSorted(Float64Array.of(1, 2), Float64Array.of(1, 2), Float64Array.of(3)),
    ).toThrow("terminalBetweenSorted requires uppers of length 2, got 1");
  });
});
