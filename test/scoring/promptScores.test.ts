import { describe, expect, it } from "vitest";
import { promptScores as referencePromptScores } from "../../src/reference/promptScores.ts";
import { createRandom } from "../../src/reference/random.ts";
import {
  CURRENT_PROMPT_SCORE_RULE_START_UNIX,
  promptScoreRuleAt,
  promptScores,
  type PromptScoreRule,
} from "../../src/scoring/promptScores.ts";
import { numpyAvailable, runPython, toJsonNumbers } from "../reference/python.ts";

/** Raw prompt CRPS of `count` miners: lognormal around 1,000, with invalid miners and outliers. */
function randomRaws(seed: number, count: number): number[] {
  const random = createRandom(seed);
  return Array.from({ length: count }, () => {
    const draw = random.uniform();
    if (draw < 0.08) return -1;
    if (draw < 0.1) return NaN;
    if (draw < 0.13) return 1000 * Math.exp(3 + 2 * random.uniform()); // beyond 10 × median
    return 1000 * Math.exp(0.4 * random.normal());
  });
}

const SIZES = [1, 2, 3, 7, 10, 41, 250];

/**
 * The validator's legacy `compute_prompt_scores` (np.percentile, np.minimum, np.where, np.min) and
 * the p95 and current rules written the same way (median as the 50th percentile, numpy linear).
 */
const NUMPY_PROMPT_SCORES = `
def legacy(raw):
    valid = raw[raw != -1]
    p90 = np.percentile(valid, 90)
    capped = np.minimum(raw, p90)
    capped = np.where(raw == -1, p90, capped)
    return (capped - np.min(capped)).tolist(), float(p90)

def p95(raw):
    valid = raw[raw != -1]
    fill = np.percentile(valid, 95)
    filled = np.where(raw == -1, fill, raw)
    return (filled - np.min(filled)).tolist(), float(fill)

def current(raw):
    valid = raw[raw != -1]
    cap = 10 * np.percentile(valid, 50)
    uncapped = valid[valid <= cap]
    p95 = np.percentile(uncapped if uncapped.size > 0 else valid, 95)
    filled = np.where(raw == -1, p95, np.minimum(raw, cap))
    return (filled - np.min(filled)).tolist(), float(p95)

out = []
for case in data:
    raw = np.array(case["raw"], dtype=float)
    raw[np.isnan(raw)] = -1  # NaN counts as invalid, as the validator's −1
    out.append({"legacy-p90": legacy, "p95": p95, "current": current}[case["rule"]](raw))
print(json.dumps(out))
`;

describe("promptScores", () => {
  it("promptScores applies the legacy p90 rule as worked by hand", () => {
    // valid 10, 20, 30: p90 = 20 + 0.8·10 = 28; capped 10, 20, 28 (invalid 28); minus 10.
    expect(promptScores([10, 20, -1, 30], { rule: "legacy-p90" })).toEqual({
      scores: [0, 10, 18, 18],
      fillValue: 28,
      lowestScore: 10,
      worstScore: 18,
    });
  });

  it("promptScores applies the current median/p95 rule as worked by hand", () => {
    // valid 10, 20, 30, 1000: median 25, cap 250; 1000 is capped to 250; p95 of the uncapped
    // 10, 20, 30 = 20 + 0.9·10 = 29 for the invalid miner; minus 10.
    const result = promptScores([10, 20, -1, 30, 1000], { rule: "current" })!;
    expect(result.scores).toEqual([0, 10, 19, 20, 240]);
    expect(result.fillValue).toBe(29);
    expect(result.worstScore).toBe(19);
  });

  it("promptScores applies the p95 rule (no cap) as worked by hand", () => {
    // valid 10, 20, 30, 1000: p95 = 30 + 0.85·970 = 854.5 for the invalid miner; nothing capped.
    const result = promptScores([10, 20, -1, 30, 1000], { rule: "p95" })!;
    expect(result.fillValue).toBeCloseTo(854.5, 10);
    expect(result.scores.map((score) => Number(score.toFixed(9)))).toEqual([0, 10, 844.5, 20, 990]);
    expect(result.worstScore).toBeCloseTo(844.5, 10);
  });

  it("promptScores returns null when no miner is valid, and treats NaN as invalid", () => {
    expect(promptScores([-1, NaN, -1], { rule: "current" })).toBeNull();
    expect(promptScores([], { rule: "legacy-p90" })).toBeNull();
    expect(promptScores([5, NaN], { rule: "legacy-p90" })?.scores).toEqual([0, 0]);
  });

  for (const rule of ["legacy-p90", "current"] as const) {
    it(`promptScores agrees with the reference prompt scores on random prompts (${rule})`, () => {
      SIZES.forEach((size, index) => {
        const raws = randomRaws(1000 + index, size);
        const reference = referencePromptScores(raws, rule);
        const actual = promptScores(raws, { rule });
        if (reference === null) {
          expect(actual).toBeNull();
          return;
        }
        const scale = Math.max(1, reference.fillValue);
        expect(Math.abs(actual!.fillValue - reference.fillValue)).toBeLessThanOrEqual(
          1e-12 * scale,
        );
        expect(actual!.lowestScore).toBe(reference.lowestScore);
        actual!.scores.forEach((score, miner) => {
          expect(Math.abs(score - reference.scores[miner])).toBeLessThanOrEqual(1e-12 * scale);
        });
      });
    });
  }

  it.skipIf(!numpyAvailable)(
    "promptScores equals numpy's percentile arithmetic bit for bit under the three rules",
    () => {
      const cases = SIZES.flatMap((size, index) =>
        (["legacy-p90", "p95", "current"] as PromptScoreRule[]).map((rule) => ({
          rule,
          raw: randomRaws(2000 + index, size),
        })),
      ).filter((item) => item.raw.some((raw) => raw !== -1 && !Number.isNaN(raw)));
      const expected = runPython(
        NUMPY_PROMPT_SCORES,
        cases.map((item) => ({ rule: item.rule, raw: toJsonNumbers(item.raw) })),
      ) as [number[], number][];
      cases.forEach((item, index) => {
        const actual = promptScores(item.raw, { rule: item.rule })!;
        expect(actual.scores).toEqual(expected[index][0]);
        expect(actual.fillValue).toBe(expected[index][1]);
      });
    },
  );

  it("promptScoreRuleAt follows the era table: p90, then p95 at 2026-07-16T00:00:00Z, capped from the setting", () => {
    expect(CURRENT_PROMPT_SCORE_RULE_START_UNIX).toBe(1784160000);
    const capFrom = Date.UTC(2026, 7, 1) / 1000;
    expect(promptScoreRuleAt(1784160000, { outlierCapFromUnix: capFrom })).toBe("p95");
    expect(promptScoreRuleAt(capFrom - 1, { outlierCapFromUnix: capFrom })).toBe("p95");
    expect(promptScoreRuleAt(capFrom, { outlierCapFromUnix: capFrom })).toBe("current");
    expect(promptScoreRuleAt(capFrom, { outlierCapFromUnix: null })).toBe("p95");
    expect(promptScoreRuleAt(1784159999, { outlierCapFromUnix: 0 })).toBe("legacy-p90");
    expect(promptScoreRuleAt(new Date("2026-07-15T23:59:59Z"))).toBe("legacy-p90");
    expect(promptScoreRuleAt(new Date("2026-07-16T00:00:00Z"))).toBe("current");
    expect(promptScoreRuleAt(1784159999)).toBe("legacy-p90");
    expect(promptScoreRuleAt(1784160000)).toBe("current");
    expect(() => promptScoreRuleAt(1784160000000)).toThrow(
      "promptScoreRuleAt requires scoredTime in Unix seconds, got 1784160000000 (milliseconds? divide by 1000)",
    );
    expect(() => promptScoreRuleAt(new Date("nope"))).toThrow(
      "promptScoreRuleAt requires scoredTime to be a valid Date or Unix seconds, got Invalid Date",
    );
    expect(() => promptScores([1], { rule: "p99" as never })).toThrow(
      'promptScores requires rule "legacy-p90", "p95" or "current", got "p99"',
    );
  });
});
