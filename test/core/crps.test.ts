import { describe, expect, it } from "vitest";
import { sortFloat64 } from "../../src/core/sortFloat64.ts";
import { crpsEnsemble, crpsEnsembleSorted } from "../../src/core/crps.ts";
import { crpsParitySorted } from "../../src/core/crpsParity.ts";
import { CrpsPrepared } from "../../src/core/crpsPrepared.ts";
import { crpsEnsembleWeighted } from "../../src/core/crpsWeighted.ts";
import { crpsPairwise, crpsProperscoring } from "../../src/reference/crps.ts";
import { createRandom } from "../../src/reference/random.ts";
import { CRPS_VECTORS } from "../crpsVectors.ts";
import { numpyAvailable } from "./numpy.ts";
import { properscoringCrps, type CrpsCase } from "./properscoring.ts";

/** DOMAIN.md §2 test vectors: members, observation, CRPS. */
const DOMAIN_VECTORS = CRPS_VECTORS.map(
  ([observation, members, expected]) => [members, observation, expected] as const,
);

/** Random ensembles: sizes 1, 2 and larger, with ties (rounded values) and constant members. */
function randomCases(seed: number, count: number, weighted = false): CrpsCase[] {
  const random = createRandom(seed);
  const cases: CrpsCase[] = [];
  for (let index = 0; index < count; index++) {
    const size = [1, 2, 3, 10, 100, 1000][index % 6];
    const kind = index % 4;
    const members = Float64Array.from({ length: size }, () =>
      kind === 0
        ? random.normal() * 50
        : kind === 1
          ? Math.round(random.normal() * 3)
          : kind === 2
            ? 7
            : 90000 + random.normal() * 900,
    );
    const observation =
      index % 5 === 0
        ? members[0]
        : kind === 3
          ? 90000 + random.normal() * 1500
          : random.normal() * 60;
    const weights = weighted
      ? Float64Array.from({ length: size }, () => 0.1 + random.uniform())
      : undefined;
    cases.push({ members, observation, weights });
  }
  return cases;
}

function relativeDifference(actual: number, expected: number): number {
  return expected === 0 ? Math.abs(actual) : Math.abs(actual - expected) / Math.abs(expected);
}

describe("crpsEnsemble", () => {
  it.each(DOMAIN_VECTORS)(
    "crpsEnsemble meets the DOMAIN.md vector %j, y = %d → %d (closed, parity, prepared)",
    (members, observation, expected) => {
      const array = Float64Array.from(members);
      expect(crpsEnsemble(array, observation)).toBeCloseTo(expected, 14);
      expect(crpsEnsemble(array, observation, "parity")).toBeCloseTo(expected, 14);
      expect(new CrpsPrepared(array).crps(observation)).toBeCloseTo(expected, 14);
      expect(
        crpsEnsembleWeighted(array, new Float64Array(members.length).fill(2), observation),
      ).toBeCloseTo(expected, 14);
    },
  );

  it("crpsEnsemble agrees with the pairwise reference (O(M²)) within 1e-12 relative, ties and tiny sizes included", () => {
    for (const item of randomCases(1, 120)) {
      const expected = crpsPairwise(Array.from(item.members), item.observation);
      expect(
        relativeDifference(crpsEnsemble(item.members, item.observation), expected),
      ).toBeLessThan(1e-12);
    }
  });

  it.skipIf(!numpyAvailable)(
    "crpsEnsemble in parity mode equals a Python port of properscoring's loop bit for bit",
    () => {
      const cases = randomCases(2, 240);
      const expected = properscoringCrps(cases);
      const actual = cases.map((item) => crpsEnsemble(item.members, item.observation, "parity"));
      expect(actual).toEqual(Array.from(expected));
    },
  );

  it("crpsEnsemble in parity mode equals the reference port of properscoring's loop bit for bit", () => {
    for (const item of randomCases(3, 120)) {
      expect(crpsEnsemble(item.members, item.observation, "parity")).toBe(
        crpsProperscoring(Array.from(item.members), item.observation),
      );
    }
  });

  it("crpsEnsemble's closed form is within 1e-12 relative of parity mode", () => {
    let worst = 0;
    for (const item of randomCases(4, 300)) {
      const closed = crpsEnsemble(item.members, item.observation);
      const parity = crpsEnsemble(item.members, item.observation, "parity");
      worst = Math.max(worst, relativeDifference(closed, parity));
    }
    expect(worst).toBeLessThan(1e-12);
  });

  it("crpsEnsemble ignores NaN members as properscoring does, and is NaN for a NaN observation or all-NaN members", () => {
    const withNaN = Float64Array.of(1.2, NaN, -0.3, 2.5, 0.7, NaN, 1.9);
    expect(crpsEnsemble(withNaN, 0.9)).toBeCloseTo(0.316, 14);
    expect(crpsEnsemble(withNaN, 0.9, "parity")).toBe(crpsProperscoring(Array.from(withNaN), 0.9));
    expect(crpsEnsemble(Float64Array.of(1, 2), NaN)).toBeNaN();
    expect(crpsEnsemble(Float64Array.of(1, 2), NaN, "parity")).toBeNaN();
    expect(crpsEnsemble(Float64Array.of(NaN, NaN), 1)).toBeNaN();
    expect(crpsEnsemble(Float64Array.of(NaN, NaN), 1, "parity")).toBeNaN();
  });

  it("crpsEnsemble requires at least one member", () => {
    expect(() => crpsEnsemble(new Float64Array(0), 1)).toThrow(RangeError);
    expect(() => crpsEnsemble(new Float64Array(0), 1)).toThrow(
      "crpsEnsemble requires at least one member, got none",
    );
    expect(() => crpsEnsembleSorted(new Float64Array(0), 1)).toThrow(
      "crpsEnsembleSorted requires at least one member",
    );
    expect(() => crpsParitySorted(new Float64Array(0), 1)).toThrow(
      "crpsParitySorted requires at least one member",
    );
    expect(() => new CrpsPrepared(new Float64Array(0))).toThrow(
      "CrpsPrepared requires at least one member",
    );
  });

  it("crpsEnsemble of one member is the absolute error, and infinite members give a non-finite score", () => {
    expect(crpsEnsemble(Float64Array.of(3), 5)).toBe(2);
    expect(crpsEnsemble(Float64Array.of(3), 5, "parity")).toBe(2);
    expect(Number.isFinite(crpsEnsemble(Float64Array.of(1, Infinity), 0))).toBe(false);
    expect(Number.isFinite(crpsEnsemble(Float64Array.of(1, Infinity), 0, "parity"))).toBe(false);
  });
});

describe("CrpsPrepared", () => {
  it("CrpsPrepared gives the closed form within 1e-12 relative for observations inside, on and outside the members", () => {
    for (const item of randomCases(5, 60)) {
      const prepared = new CrpsPrepared(item.members);
      const sorted = item.members.slice().sort();
      const observations = [
        item.observation,
        sorted[0],
        sorted[sorted.length - 1],
        sorted[0] - 100,
        sorted[sorted.length - 1] + 1e4,
        (sorted[0] + sorted[sorted.length - 1]) / 2,
      ];
      const many = prepared.crpsMany(Float64Array.from(observations));
      observations.forEach((observation, index) => {
        const expected = crpsPairwise(Array.from(item.members), observation);
        expect(relativeDifference(prepared.crps(observation), expected)).toBeLessThan(1e-12);
        expect(many[index]).toBe(prepared.crps(observation));
      });
    }
  });

  it("CrpsPrepared ignores NaN members and is NaN for a NaN observation", () => {
    const prepared = new CrpsPrepared(Float64Array.of(NaN, 0, 1));
    expect(prepared.crps(2)).toBeCloseTo(1.25, 14);
    expect(prepared.crps(NaN)).toBeNaN();
    expect(new CrpsPrepared(Float64Array.of(NaN)).crps(1)).toBeNaN();
    expect(() => prepared.crpsMany(Float64Array.of(1, 2), new Float64Array(1))).toThrow(RangeError);
  });
});

describe("crpsEnsembleWeighted", () => {
  it("crpsEnsembleWeighted with all weights 1 equals the unweighted closed form bit for bit", () => {
    for (const item of randomCases(6, 60)) {
      const ones = new Float64Array(item.members.length).fill(1);
      expect(crpsEnsembleWeighted(item.members, ones, item.observation)).toBe(
        crpsEnsemble(item.members, item.observation),
      );
      expect(crpsEnsembleWeighted(item.members, ones, item.observation, "parity")).toBe(
        crpsEnsemble(item.members, item.observation, "parity"),
      );
    }
  });

  it("crpsEnsembleWeighted with equal weights equals the unweighted form within 1e-13 relative", () => {
    for (const item of randomCases(7, 60)) {
      const equal = new Float64Array(item.members.length).fill(0.37);
      const expected = crpsEnsemble(item.members, item.observation);
      expect(
        relativeDifference(crpsEnsembleWeighted(item.members, equal, item.observation), expected),
      ).toBeLessThan(1e-13);
    }
  });

  it("crpsEnsembleWeighted agrees with the weighted pairwise definition within 1e-12 relative", () => {
    for (const item of randomCases(8, 60, true)) {
      const weights = item.weights!;
      const total = weights.reduce((sum, weight) => sum + weight, 0);
      let absolute = 0;
      let pairs = 0;
      for (let i = 0; i < weights.length; i++) {
        absolute += (weights[i] / total) * Math.abs(item.members[i] - item.observation);
        for (let j = 0; j < weights.length; j++) {
          pairs +=
            (((weights[i] / total) * weights[j]) / total) *
            Math.abs(item.members[i] - item.members[j]);
        }
      }
      const expected = absolute - pairs / 2;
      expect(
        relativeDifference(crpsEnsembleWeighted(item.members, weights, item.observation), expected),
      ).toBeLessThan(1e-12);
      expect(
        relativeDifference(
          crpsEnsembleWeighted(item.members, weights, item.observation, "parity"),
          expected,
        ),
      ).toBeLessThan(1e-12);
    }
  });

  it.skipIf(!numpyAvailable)(
    "crpsEnsembleWeighted in parity mode equals the Python port of properscoring's weighted loop bit for bit (no ties)",
    () => {
      const random = createRandom(9);
      const cases: CrpsCase[] = Array.from({ length: 80 }, (_, index) => {
        const size = [1, 2, 5, 50, 500][index % 5];
        return {
          members: Float64Array.from({ length: size }, () => random.normal() * 10),
          observation: random.normal() * 12,
          weights: Float64Array.from({ length: size }, () => random.uniform() * 3),
        };
      });
      const expected = properscoringCrps(cases);
      const actual = cases.map((item) =>
        crpsEnsembleWeighted(item.members, item.weights!, item.observation, "parity"),
      );
      expect(actual).toEqual(Array.from(expected));
    },
  );

  it("crpsEnsembleWeighted gives NaN for a negative or NaN weight or a zero total, and rejects mismatched lengths", () => {
    const members = Float64Array.of(0, 1, 2);
    expect(crpsEnsembleWeighted(members, Float64Array.of(1, -1, 1), 1)).toBeNaN();
    expect(crpsEnsembleWeighted(members, Float64Array.of(1, NaN, 1), 1)).toBeNaN();
    expect(crpsEnsembleWeighted(members, Float64Array.of(1, -1, 1), 1, "parity")).toBeNaN();
    expect(crpsEnsembleWeighted(members, Float64Array.of(0, 0, 0), 1)).toBeNaN();
    expect(() => crpsEnsembleWeighted(members, Float64Array.of(1, 1), 1)).toThrow(
      "crpsEnsembleWeighted requires one weight per member: 3 members, got 2 weights",
    );
    expect(() => crpsEnsembleWeighted(new Float64Array(0), new Float64Array(0), 1)).toThrow(
      RangeError,
    );
  });
});

describe("sortFloat64", () => {
  it("sortFloat64 sorts exactly as Float64Array.prototype.sort: ties, outliers, NaN, infinities, sizes around its thresholds", () => {
    const random = createRandom(10);
    const makers: ((index: number) => number)[] = [
      () => random.normal(),
      () => Math.round(random.normal() * 2),
      (index) => (index === 3 ? 1e200 : random.uniform()),
      () => Math.tan(Math.PI * (random.uniform() - 0.5)),
      (index) => (index % 40 === 0 ? NaN : random.normal()),
      (index) => (index % 30 === 0 ? -Infinity : random.normal()),
      () => 5,
      (index) => index % 7,
      (index) => -index,
      (index) => (index % 2 ? 0 : -0),
      () => 1e6 + random.uniform() * 1e-9,
    ];
    for (const length of [0, 1, 2, 63, 64, 65, 1000, 8192, 8193]) {
      for (const make of makers) {
        const values = Float64Array.from({ length }, (_, index) => make(index));
        const original = values.slice();
        const sorted = sortFloat64(values, new Float64Array(length));
        const expected = values.slice().sort();
        // ±0 compare equal; the typed-array sort puts −0 first, the radix sort keeps input order.
        expect(Array.from(sorted, (x) => (x === 0 ? 0 : x))).toEqual(
          Array.from(expected, (x) => (x === 0 ? 0 : x)),
        );
        expect(values).toEqual(original);
      }
    }
  });

  it("sortFloat64 rejects an out of another length", () => {
    expect(() => sortFloat64(Float64Array.of(1, 2, 3), new Float64Array(2))).toThrow(
      "sortFloat64 requires out of the same length as values (3), got 2",
    );
  });
});
