import { describe, expect, it } from "vitest";
import { promptScoreRuleAt, promptScores } from "../../src/reference/promptScores.ts";
import { createRandom } from "../../src/reference/random.ts";
import { numpyAvailable, runPython } from "./python.ts";

describe("promptScores", () => {
  it("promptScores under legacy-p90 caps at p90, fills invalid miners with p90 and subtracts the minimum", () => {
    // valid [10, 20, 30, 40]: p90 → h = 2.7 → 30 + 0.7·10 = 37; capped [10, 20, 37, 30, 37] − 10.
    const result = promptScores([10, 20, -1, 30, 40], "legacy-p90")!;
    expect(result.fillValue).toBeCloseTo(37, 12);
    expect(result.lowestScore).toBe(10);
    result.scores.forEach((score, index) =>
      expect(score).toBeCloseTo([0, 10, 27, 20, 27][index], 12),
    );
    expect(result.worstScore).toBeCloseTo(27, 12);
  });

  it("promptScores under the current rule caps at 10 × median and fills invalid miners with p95 of the uncapped raws", () => {
    // valid [2, 3, 4, 5, 100]: median 4 → cap 40 → 100 becomes 40; uncapped [2, 3, 4, 5]:
    // p95 → h = 2.85 → 4 + 0.85 = 4.85 for the invalid miner; minus the minimum 2.
    const result = promptScores([2, 3, 4, 5, 100, -1], "current")!;
    expect(result.fillValue).toBeCloseTo(4.85, 12);
    result.scores.forEach((score, index) =>
      expect(score).toBeCloseTo([0, 1, 2, 3, 38, 2.85][index], 12),
    );
    // The capped outlier (38) scores worse than the back-fill score of an invalid miner (2.85).
    expect(result.worstScore).toBeCloseTo(2.85, 12);
  });

  it("promptScores treats NaN like −1 and returns null when no miner is valid", () => {
    expect(promptScores([5, NaN, 7], "legacy-p90")!.scores[1]).toBeCloseTo(
      promptScores([5, -1, 7], "legacy-p90")!.scores[1],
      15,
    );
    expect(promptScores([-1, -1], "current")).toBeNull();
    expect(promptScores([], "legacy-p90")).toBeNull();
  });

  it.skipIf(!numpyAvailable)("promptScores equals numpy implementations of both rules", () => {
    const random = createRandom(6);
    const raws = Array.from({ length: 60 }, (_, index) =>
      index % 9 === 0 ? -1 : index % 13 === 0 ? 50_000 : 1000 * Math.exp(random.normal()),
    );
    const expected = runPython(
      [
        "s = np.array(data)",
        "valid = s[s != -1]",
        "p90 = np.percentile(valid, 90)",
        "legacy = np.where(s == -1, p90, np.minimum(s, p90))",
        "cap = 10 * np.median(valid)",
        "uncapped = valid[valid <= cap]",
        "p95 = np.percentile(uncapped if len(uncapped) else valid, 95)",
        "current = np.where(s == -1, p95, np.minimum(s, cap))",
        "print(json.dumps([(legacy - legacy.min()).tolist(), (current - current.min()).tolist()]))",
      ].join("\n"),
      raws,
    ) as number[][];
    promptScores(raws, "legacy-p90")!.scores.forEach((score, index) =>
      expect(score).toBeCloseTo(expected[0][index], 9),
    );
    promptScores(raws, "current")!.scores.forEach((score, index) =>
      expect(score).toBeCloseTo(expected[1][index], 9),
    );
  });
});

describe("promptScoreRuleAt", () => {
  it("promptScoreRuleAt switches from legacy-p90 to current at 2026-07-16T00:00:00Z", () => {
    const switchTime = Date.UTC(2026, 6, 16) / 1000;
    expect(promptScoreRuleAt(switchTime - 1)).toBe("legacy-p90");
    expect(promptScoreRuleAt(switchTime)).toBe("current");
  });
});
