import { describe, expect, it } from "vitest";
import { transpose } from "../../src/core/transpose.ts";
import { Ensemble, ensembleOf } from "../../src/paths/ensemble.ts";
import type { PathSet } from "../../src/paths/pathSet.ts";
import { PathSetError } from "../../src/paths/pathSetError.ts";

function pathSet(minerUid: number, nPaths: number, nPoints: number, start = 100): PathSet {
  const values = new Float64Array(nPaths * nPoints);
  for (let path = 0; path < nPaths; path++) {
    for (let point = 0; point < nPoints; point++) {
      values[path * nPoints + point] = start + path + point * ((minerUid % 7) + 1) * 0.25;
    }
  }
  return {
    asset: "BTC",
    minerUid,
    startTime: 1772063100,
    timeIncrement: 300,
    nPaths,
    nPoints,
    values,
  };
}

describe("ensembleOf", () => {
  it("ensembleOf pools members into one path-major array with their index (miner, offset, count)", () => {
    const a = pathSet(5, 2, 4);
    const b = pathSet(17, 3, 4);
    const ensemble = ensembleOf([a, b]);
    expect(ensemble.nPaths).toBe(5);
    expect(ensemble.nPoints).toBe(4);
    expect(Array.from(ensemble.values)).toEqual([...a.values, ...b.values]);
    expect(ensemble.members).toEqual([
      { minerUid: 5, offset: 0, count: 2 },
      { minerUid: 17, offset: 2, count: 3 },
    ]);
    expect(ensemble.values).not.toBe(a.values);
    expect(Array.from(ensemble.memberValues(1))).toEqual(Array.from(b.values));
    expect(ensemble.memberValues(1).buffer).toBe(ensemble.values.buffer);
    expect(ensemble.rebasedTo).toBeUndefined();
  });

  it("ensembleOf re-bases additively by default: p − p₀ + current price, per path", () => {
    const a = pathSet(5, 2, 3, 50);
    const ensemble = ensembleOf([a, pathSet(17, 1, 3, 900)], { rebaseTo: 1000 });
    const expected: number[] = [];
    for (const member of [a, pathSet(17, 1, 3, 900)]) {
      for (let path = 0; path < member.nPaths; path++) {
        const row = member.values.subarray(path * 3, path * 3 + 3);
        for (const price of row) expected.push(price - row[0] + 1000);
      }
    }
    expect(Array.from(ensemble.values)).toEqual(expected);
    expect([ensemble.rebasedTo, ensemble.rebase]).toEqual([1000, "additive"]);
  });

  it("ensembleOf re-bases multiplicatively on request: p · current price / p₀", () => {
    const a = pathSet(5, 2, 3, 50);
    const ensemble = ensembleOf([a], { rebaseTo: 1000, rebase: "multiplicative" });
    const expected = Array.from(
      a.values,
      (price, index) => (price * 1000) / a.values[index - (index % 3)],
    );
    expect(Array.from(ensemble.values)).toEqual(expected);
    for (let path = 0; path < 2; path++) expect(ensemble.values[path * 3]).toBe(1000);
  });

  it("ensembleOf's step-major copy is built lazily, once, as the transpose of the pooled paths", () => {
    const ensemble = ensembleOf([pathSet(5, 20, 7), pathSet(17, 30, 7)]);
    const stepMajor = ensemble.stepMajor;
    expect(ensemble.stepMajor).toBe(stepMajor);
    expect(Array.from(stepMajor)).toEqual(Array.from(transpose(ensemble.values, 50, 7)));
    expect(stepMajor[3 * 50 + 25]).toBe(ensemble.values[25 * 7 + 3]);
  });

  it("ensembleOf names the miner and the field when a member does not match the first", () => {
    const first = pathSet(5, 2, 3);
    const cases: [Partial<PathSet>, string][] = [
      [
        { startTime: 1772063400 },
        "miner 17: start time: expected 1772063100 (as miner 5), got 1772063400",
      ],
      [{ timeIncrement: 60 }, "miner 17: time increment: expected 300 (as miner 5), got 60"],
      [{ asset: "ETH" }, 'miner 17: asset: expected BTC (as miner 5), got "ETH"'],
      [
        { nPoints: 4, values: new Float64Array(8) },
        "miner 17: number of points: expected 3 (as miner 5), got 4",
      ],
      [
        { values: new Float64Array(5) },
        "miner 17: values: expected nPaths × nPoints = 6 numbers, got 5",
      ],
    ];
    for (const [change, message] of cases) {
      const other = { ...pathSet(17, 2, 3), ...change };
      expect(() => ensembleOf([first, other])).toThrow(PathSetError);
      expect(() => ensembleOf([first, other])).toThrow(message);
    }
  });

  it("ensembleOf rejects no path sets and a re-basing price that is not finite and positive", () => {
    expect(() => ensembleOf([])).toThrow("ensembleOf requires at least one path set, got none");
    for (const price of [0, -1, NaN, Infinity]) {
      expect(() => ensembleOf([pathSet(5, 1, 2)], { rebaseTo: price })).toThrow(
        `ensembleOf requires rebaseTo to be a finite positive price, got ${price}`,
      );
    }
  });

  it("an Ensemble checks that its members tile its paths", () => {
    const shape = pathSet(5, 2, 3);
    expect(
      () =>
        new Ensemble(
          shape,
          new Float64Array(6),
          [{ minerUid: 5, offset: 1, count: 2 }],
          undefined,
          "additive",
        ),
    ).toThrow(RangeError);
    expect(
      () =>
        new Ensemble(
          shape,
          new Float64Array(6),
          [{ minerUid: 5, offset: 0, count: 3 }],
          undefined,
          "additive",
        ),
    ).toThrow("Ensemble requires values of (paths of all members) × nPoints = 9 numbers, got 6");
  });
});
