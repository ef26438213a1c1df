import { describe, expect, it } from "vitest";
import { CURRENT_COMPETITIONS, TWO_COMPETITIONS } from "../../src/domain/competitions.ts";
import { competitionsAt, validatorEraAt } from "../../src/domain/eras.ts";
import { combineRewardWeights, softmaxRewardWeights } from "../../src/reference/rewardWeights.ts";

describe("softmaxRewardWeights", () => {
  it("softmaxRewardWeights is softmax(β·L) × share: two miners 10 apart with β = −0.1", () => {
    const weights = softmaxRewardWeights(
      new Map([
        [1, 0],
        [2, 10],
      ]),
      -0.1,
      1,
    );
    expect(weights.get(1)).toBeCloseTo(1 / (1 + Math.exp(-1)), 15);
    expect(weights.get(2)).toBeCloseTo(Math.exp(-1) / (1 + Math.exp(-1)), 15);
  });

  it("softmaxRewardWeights adds up to the competition's share and favours lower smoothed scores", () => {
    const smoothed = new Map([
      [4, 120.5],
      [9, 80.25],
      [2, 300],
      [7, 95],
    ]);
    const weights = softmaxRewardWeights(smoothed, -0.15, 1 / 3);
    const total = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
    expect(total).toBeCloseTo(1 / 3, 15);
    expect(weights.get(9)!).toBeGreaterThan(weights.get(7)!);
    expect(weights.get(7)!).toBeGreaterThan(weights.get(4)!);
    // Exact ratio: w9 / w2 = exp(−0.15·(80.25 − 300)).
    expect(weights.get(9)! / weights.get(2)!).toBeCloseTo(Math.exp(0.15 * (300 - 80.25)), 9);
  });

  it("softmaxRewardWeights leaves out miners whose weight is 0 (smoothed score +Infinity)", () => {
    const weights = softmaxRewardWeights(
      new Map([
        [1, 5],
        [2, Infinity],
      ]),
      -0.3,
      1 / 3,
    );
    expect([...weights.keys()]).toEqual([1]);
    expect(weights.get(1)).toBeCloseTo(1 / 3, 15);
  });
});

describe("combineRewardWeights", () => {
  it("combineRewardWeights adds a miner's weights across competitions", () => {
    const total = combineRewardWeights([
      new Map([
        [1, 0.2],
        [2, 0.1],
      ]),
      new Map([[1, 0.05]]),
      new Map([[3, 1 / 3]]),
    ]);
    expect(total.get(1)).toBeCloseTo(0.25, 15);
    expect(total.get(2)).toBe(0.1);
    expect(total.get(3)).toBe(1 / 3);
  });
});

describe("competitionsAt", () => {
  it("competitionsAt switches from the two-competition era to three competitions at 2026-06-23T00:00:00Z", () => {
    const switchTime = Date.UTC(2026, 5, 23) / 1000;
    expect(competitionsAt(switchTime - 1)).toBe(TWO_COMPETITIONS);
    expect(competitionsAt(switchTime).map(({ name }) => name)).toEqual(
      CURRENT_COMPETITIONS.map(({ name }) => name),
    );
    expect(
      TWO_COMPETITIONS.map(({ name, softmaxBeta, windowDays, rewardShare }) => [
        name,
        softmaxBeta,
        windowDays,
        rewardShare,
      ]),
    ).toEqual([
      ["low", -0.1, 10, 0.5],
      ["high", -0.2, 3, 0.5],
    ]);
    expect(
      CURRENT_COMPETITIONS.map(({ name, softmaxBeta, windowDays }) => [
        name,
        softmaxBeta,
        windowDays,
      ]),
    ).toEqual([
      ["crypto-1h", -0.3, 5],
      ["crypto-24h", -0.15, 10],
      ["com-equ-24h", -0.15, 10],
    ]);
  });

  it("com-equ-24h has SPYX and not SP500 until 2026-07-23T00:00:00Z, then SP500 and not SPYX, as the era table", () => {
    const sp500Time = Date.UTC(2026, 6, 23) / 1000;
    const equities = (timeUnix: number) =>
      competitionsAt(timeUnix).find(({ name }) => name === "com-equ-24h")?.assets ?? [];
    expect([
      equities(sp500Time - 1).includes("SPYX"),
      equities(sp500Time - 1).includes("SP500"),
    ]).toEqual([true, false]);
    expect([equities(sp500Time).includes("SPYX"), equities(sp500Time).includes("SP500")]).toEqual([
      false,
      true,
    ]);
    for (const timeUnix of [sp500Time - 86_400, sp500Time, Date.UTC(2026, 11, 1) / 1000]) {
      expect(competitionsAt(timeUnix)).toBe(validatorEraAt(timeUnix).competitions);
    }
    expect(() => competitionsAt(Date.UTC(2026, 11, 1))).toThrow(RangeError);
  });

  it("the competitions' reward shares add up to 1 in each era", () => {
    for (const competitions of [TWO_COMPETITIONS, CURRENT_COMPETITIONS]) {
      const total = competitions.reduce((sum, competition) => sum + competition.rewardShare, 0);
      expect(total).toBeCloseTo(1, 15);
    }
  });
});
