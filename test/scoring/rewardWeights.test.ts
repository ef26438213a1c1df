import { describe, expect, it } from "vitest";
import { createRandom } from "../../src/reference/random.ts";
import { combineRewardWeights, softmaxRewardWeights } from "../../src/reference/rewardWeights.ts";
import { combinedRewardWeights, rewardWeights } from "../../src/scoring/rewardWeights.ts";
import type { CompetitionName } from "../../src/domain/competitions.ts";
import { numpyAvailable, runPython } from "../reference/python.ts";

/** Smoothed scores of `count` miners (uids from `firstUid`), one of them +Infinity. */
function randomSmoothed(seed: number, count: number, firstUid: number): Map<number, number> {
  const random = createRandom(seed);
  const scores = new Map<number, number>();
  for (let index = 0; index < count; index++) {
    scores.set(firstUid + index, index === 3 ? Infinity : 20 + 15 * Math.abs(random.normal()));
  }
  return scores;
}

// β and shares as printed in DOMAIN.md §3 (not read from the tables under test).
const CURRENT_ERA: [CompetitionName, number, number][] = [
  ["crypto-1h", -0.3, 1 / 3],
  ["crypto-24h", -0.15, 1 / 3],
  ["com-equ-24h", -0.15, 1 / 3],
];
const EARLIER_ERA: [CompetitionName, number, number][] = [
  ["low", -0.1, 0.5],
  ["high", -0.2, 0.5],
];

describe("rewardWeights", () => {
  it("rewardWeights is share × softmax(β·L), as worked by hand", () => {
    const weights = rewardWeights(
      new Map([
        [1, 0],
        [2, 10],
      ]),
      { beta: -0.1, share: 1 },
    );
    expect(weights.get(1)).toBeCloseTo(1 / (1 + Math.exp(-1)), 15);
    expect(weights.get(2)).toBeCloseTo(Math.exp(-1) / (1 + Math.exp(-1)), 15);
    expect(rewardWeights(new Map(), { beta: -0.1, share: 1 }).size).toBe(0);
    expect(() => rewardWeights(new Map(), { beta: NaN, share: 1 })).toThrow(
      "rewardWeights requires a finite beta, got NaN",
    );
  });

  for (const [era, competitions] of [
    ["the current three-competition era", CURRENT_ERA],
    ["the earlier two-competition era", EARLIER_ERA],
  ] as const) {
    it(`combinedRewardWeights equals the reference bit for bit and adds up to 1 in ${era}`, () => {
      const smoothed = new Map(
        competitions.map(([name], index) => [name, randomSmoothed(index + 1, 250, index * 40)]),
      );
      const combined = combinedRewardWeights(smoothed);
      const expectedPerCompetition = competitions.map(([name, beta, share]) =>
        softmaxRewardWeights(smoothed.get(name)!, beta, share),
      );
      competitions.forEach(([name], index) => {
        expect([...combined.perCompetition.get(name)!]).toEqual([...expectedPerCompetition[index]]);
        expect([
          ...rewardWeights(smoothed.get(name)!, {
            beta: competitions[index][1],
            share: competitions[index][2],
          }),
        ]).toEqual([...expectedPerCompetition[index]]);
      });
      expect([...combined.total]).toEqual([...combineRewardWeights(expectedPerCompetition)]);
      // Miners with L = +Infinity get no weight; the rest add up to the sum of the shares.
      expect(combined.perCompetition.get(competitions[0][0])!.has(3)).toBe(false);
      const total = [...combined.total.values()].reduce((sum, weight) => sum + weight, 0);
      expect(total).toBeCloseTo(1, 12);
      // Overlapping uids collect weight from several competitions.
      const overlap = 45;
      const parts = competitions.map(
        ([name]) => combined.perCompetition.get(name)!.get(overlap) ?? 0,
      );
      expect(parts.filter((part) => part > 0).length).toBeGreaterThan(1);
      expect(combined.total.get(overlap)).toBe(parts.reduce((sum, part) => sum + part, 0));
    });
  }

  it("combinedRewardWeights rejects competitions of both eras together", () => {
    expect(() =>
      combinedRewardWeights(
        new Map([
          ["crypto-1h", new Map([[1, 1]])],
          ["low", new Map([[1, 1]])],
        ]),
      ),
    ).toThrow(
      "combinedRewardWeights requires the competitions of one era, got crypto-1h (from 2026-06-23) with low (before)",
    );
  });

  it.skipIf(!numpyAvailable)(
    "rewardWeights agrees with the validator's numpy compute_softmax to 1e-14 relative",
    () => {
      const smoothed = randomSmoothed(9, 250, 0);
      smoothed.delete(3);
      const expected = runPython(
        `
scores = np.array(data, dtype=float)
scaled = -0.15 * scores
scaled -= np.max(scaled)
weights = np.exp(scaled) / np.sum(np.exp(scaled))
print(json.dumps((weights / 3).tolist()))
`,
        [...smoothed.values()],
      ) as number[];
      const actual = [...rewardWeights(smoothed, { beta: -0.15, share: 1 / 3 }).values()];
      actual.forEach((weight, index) => {
        expect(Math.abs(weight - expected[index])).toBeLessThanOrEqual(1e-14 * expected[index]);
      });
    },
  );
});
