import { describe, expect, it } from "vitest";
import {
  crpsPairwise,
  crpsProperscoring,
  crpsProperscoringSorted,
} from "../../src/reference/crps.ts";
import { createRandom } from "../../src/reference/random.ts";
import { CRPS_VECTORS } from "../crpsVectors.ts";
import { numpyAvailable, runPython } from "./python.ts";

describe.each([
  ["crpsPairwise", crpsPairwise],
  ["crpsProperscoring", crpsProperscoring],
] as const)("%s", (name, crps) => {
  it(`${name} reproduces the DOMAIN.md test vectors`, () => {
    for (const [observation, members, expected] of CRPS_VECTORS) {
      expect(crps(members, observation)).toBeCloseTo(expected, 14);
    }
  });

  it(`${name} of a single member is the absolute error`, () => {
    expect(crps([3.5], 1)).toBe(2.5);
    expect(crps([3.5], 6)).toBe(2.5);
  });

  it(`${name} rejects an empty ensemble`, () => {
    expect(() => crps([], 1)).toThrow(`${name} requires at least one value in members`);
  });
});

describe("crpsProperscoringSorted", () => {
  it("gives crpsProperscoring's bits on members sorted ascending with NaN last", () => {
    const members = [1.2, NaN, -0.3, 2.5, 0.7, NaN, 1.9, -0, 0];
    const sorted = Float64Array.from(members).sort();
    for (const observation of [-1, -0.3, 0, 0.9, 1.9, 3, NaN]) {
      const expected = crpsProperscoring(members, observation);
      expect(Object.is(crpsProperscoringSorted(sorted, observation), expected)).toBe(true);
    }
    expect(crpsProperscoringSorted(Float64Array.of(NaN, NaN), 0.9)).toBeNaN();
    expect(() => crpsProperscoringSorted(new Float64Array(0), 1)).toThrow(
      /crpsProperscoringSorted requires at least one value in sorted/,
    );
  });
});

describe("crpsProperscoring", () => {
  it("crpsProperscoring agrees with the pairwise definition on random ensembles", () => {
    const random = createRandom(5);
    for (let trial = 0; trial < 50; trial++) {
      const memberCount = 1 + Math.floor(random.uniform() * 200);
      const members = Array.from({ length: memberCount }, () => 40 * random.normal());
      // Ties and an observation outside the ensemble exercise every branch of the loop.
      if (trial % 5 === 0) members.push(members[0], members[0]);
      const observation = trial % 7 === 0 ? 500 : 30 * random.normal();
      const expected = crpsPairwise(members, observation);
      expect(Math.abs(crpsProperscoring(members, observation) - expected)).toBeLessThan(
        1e-12 * Math.max(1, Math.abs(expected)),
      );
    }
  });

  it("crpsProperscoring ignores NaN members and returns NaN for a NaN observation, as properscoring", () => {
    expect(crpsProperscoring([1.2, NaN, -0.3, 2.5, 0.7, NaN, 1.9], 0.9)).toBeCloseTo(0.316, 14);
    expect(crpsProperscoring([NaN, NaN], 0.9)).toBeNaN();
    expect(crpsProperscoring([1, 2], NaN)).toBeNaN();
  });

  it.skipIf(!numpyAvailable)(
    "crpsProperscoring equals numpy's mean|x−y| − ½·mean|x−x'| on a 1000-member ensemble",
    () => {
      const random = createRandom(99);
      const members = Array.from({ length: 1000 }, () => 5 * random.normal() + 1);
      const observations = [-20, -1.5, 0.3, 1, 4.2, 40];
      const expected = runPython(
        [
          "x = np.array(data['x'])",
          "out = [float(np.mean(np.abs(x - y)) - 0.5 * np.mean(np.abs(x[:, None] - x[None, :]))) for y in data['y']]",
          "print(json.dumps(out))",
        ].join("\n"),
        { x: members, y: observations },
      ) as number[];
      observations.forEach((observation, index) => {
        expect(crpsProperscoring(members, observation)).toBeCloseTo(expected[index], 11);
      });
    },
  );
});
