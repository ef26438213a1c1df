import { describe, expect, it } from "vitest";
import { createRandom } from "../../../src/reference/random.ts";
import {
  PreparedEnsemble,
  preparedEnsemble,
} from "../../../src/sandbox/insights/preparedEnsemble.ts";

function randomPaths(seed: number, pathCount: number, pointCount: number): number[][] {
  const random = createRandom(seed);
  return Array.from({ length: pathCount }, () => {
    const path = [100 + random.normal()];
    for (let step = 1; step < pointCount; step++) path.push(path[step - 1] + random.normal());
    return path;
  });
}

describe("PreparedEnsemble", () => {
  it("re-bases additively so that every path starts exactly at the price", () => {
    const raw = randomPaths(1, 50, 20);
    const ensemble = new PreparedEnsemble(raw, 123.456, "additive");
    for (let path = 0; path < raw.length; path++) {
      expect(ensemble.paths[path][0]).toBe(123.456);
      expect(ensemble.paths[path][7]).toBe(raw[path][7] - raw[path][0] + 123.456);
    }
  });

  it("re-bases multiplicatively as p·c / p0", () => {
    const raw = randomPaths(2, 10, 5);
    const ensemble = new PreparedEnsemble(raw, 50, "multiplicative");
    expect(ensemble.paths[3][4]).toBe((raw[3][4] * 50) / raw[3][0]);
  });

  it("sortedColumn is the column ascending and windowExtremes the per-path extremes", () => {
    const raw = randomPaths(3, 40, 30);
    const ensemble = new PreparedEnsemble(raw, 100, "additive");
    const column = ensemble.paths.map((path) => path[12]);
    expect(Array.from(ensemble.sortedColumn(12))).toEqual([...column].sort((a, b) => a - b));
    const { minima, maxima } = ensemble.windowExtremes(9);
    ensemble.paths.forEach((path, index) => {
      expect(minima[index]).toBe(Math.min(...path.slice(0, 10)));
      expect(maxima[index]).toBe(Math.max(...path.slice(0, 10)));
    });
    expect(ensemble.windowExtremes(9)).toBe(ensemble.windowExtremes(9));
  });

  it("preparedEnsemble shares one preparation per paths array, price and re-base", () => {
    const raw = randomPaths(4, 5, 5);
    expect(preparedEnsemble(raw, 10, "additive")).toBe(preparedEnsemble(raw, 10, "additive"));
    expect(preparedEnsemble(raw, 10, "additive")).not.toBe(preparedEnsemble(raw, 11, "additive"));
    expect(preparedEnsemble(raw, 10, "additive")).not.toBe(
      preparedEnsemble(raw, 10, "multiplicative"),
    );
  });

  it("rejects ragged paths, a bad price and a step outside the paths, naming what was wrong", () => {
    expect(() => new PreparedEnsemble([[1, 2], [1]], 1, "additive")).toThrow(
      "PreparedEnsemble requires paths of equal length: paths[0] has 2 points, paths[1] has 1",
    );
    expect(() => new PreparedEnsemble([[1, 2]], -1, "additive")).toThrow(
      "PreparedEnsemble requires a finite positive re-base price, got -1",
    );
    expect(() => new PreparedEnsemble([[1, 2]], 1, "additive").sortedColumn(2)).toThrow(
      "PreparedEnsemble.sortedColumn requires a step in [0, 1], got 2",
    );
  });
});
