import { describe, expect, it } from "vitest";
import type { PathSet } from "../../src/paths/pathSet.ts";
import { promptCrpsDetails, type PromptCrpsOptions } from "../../src/reference/promptCrps.ts";
import { scorePrompt } from "../../src/scoring/scorePrompt.ts";
import { ScoringThreads } from "../../src/scoring/scoringThreads.ts";
import { promptCrpsRules } from "../../src/scoring/scoringTarget.ts";
import { SCORING_INTERVALS_1H } from "../../src/domain/intervals.ts";
import type { RealizedPath } from "../../src/domain/records/validation.ts";
import { minerPaths, pathSetOf, realizedOf, realizedPrices, START_TIME } from "./prompts.ts";

/** A 1h prompt starting 2026-11-01T00:00Z: scored in the era of the volatility CRPS (by default). */
const VOLATILITY_ERA_START = Date.UTC(2026, 10, 1) / 1000;
/** A 1h prompt scored right after the 1h gap fix of 2026-03-11. */
const AFTER_GAP_FIX_START = Date.UTC(2026, 2, 11) / 1000 - 3600;
const VOLATILITY_RULES = { volatility: true, gapsFirstChangeOnly: true } as const;

/** The path set and realized record of a 1h prompt starting at `startUnix`. */
function promptAt(
  paths: number[][],
  prices: number[],
  startUnix: number,
): { pathSet: PathSet; realized: RealizedPath } {
  return {
    pathSet: { ...pathSetOf(paths, "1h"), startTime: startUnix },
    realized: { ...realizedOf(prices, "1h"), start_time: new Date(startUnix * 1000).toISOString() },
  };
}

/**
 * scorePrompt with the volatility CRPS against src/reference/promptCrps.ts under the same rules:
 * bit for bit in parity mode (total, price part, volatility part and every interval and block
 * sum), within 1e-12 relative in closed mode, and the same −1 decisions and reasons.
 */
function expectAgreement(
  paths: number[][],
  prices: number[],
  intervals: Readonly<Record<string, number>> = SCORING_INTERVALS_1H,
  rules: Required<PromptCrpsOptions> = VOLATILITY_RULES,
): ReturnType<typeof scorePrompt> {
  const reference = promptCrpsDetails(paths, prices, 60, intervals, rules);
  const pathSet = pathSetOf(paths, "1h");
  const realized = realizedOf(prices, "1h");
  const parity = scorePrompt(pathSet, realized, { intervals }, { method: "parity", ...rules });
  const closed = scorePrompt(pathSet, realized, { intervals }, rules);
  expect(parity.crps).toBe(reference.score);
  expect(parity.invalidReason).toBe(reference.invalidReason);
  if (reference.invalidReason?.startsWith("non-finite total") === true) {
    // An infinite member: properscoring's loop (parity) gives Infinity, the closed form NaN.
    expect(closed.invalidReason).toMatch(/^non-finite total CRPS (NaN|-?Infinity)$/);
  } else {
    expect(closed.invalidReason).toBe(reference.invalidReason);
  }
  if (reference.priceScore !== -1) expect(parity.priceCrps).toBe(reference.priceScore);
  if (reference.volatility !== undefined && reference.volatility.score !== -1) {
    expect(parity.volatilityCrps).toBe(reference.volatility.score);
    expect(parity.volatilityBlocks).toEqual(
      Object.fromEntries(reference.volatility.blocks.map((block) => [block.name, block.crpsSum])),
    );
  }
  if (reference.score === -1) {
    expect(closed.crps).toBe(-1);
  } else {
    expect(Math.abs(closed.crps - reference.score)).toBeLessThanOrEqual(1e-12 * reference.score);
    const volatility = reference.volatility?.score ?? 0;
    expect(Math.abs((closed.volatilityCrps ?? 0) - volatility)).toBeLessThanOrEqual(
      1e-12 * Math.max(volatility, 1e-300),
    );
  }
  return closed;
}

/** 61 prices from 100 whose 60 returns alternate +a, −a basis points (+a first). */
function alternating(bps: number): number[] {
  const prices = [100];
  for (let j = 0; j < 60; j++) prices.push(prices[j] * (1 + (j % 2 === 0 ? bps : -bps) / 10000));
  return prices;
}

describe("scorePrompt's volatility CRPS", () => {
  it("scorePrompt adds the volatility CRPS as the reference does, bit for bit in parity mode", () => {
    const result = expectAgreement(minerPaths(201, "1h", 1000), realizedPrices(202, "1h"));
    expect(result.volatilityCrps).toBeGreaterThan(0);
    expect(result.crps).toBe(result.priceCrps + result.volatilityCrps!);
    expect(Object.keys(result.volatilityBlocks)).toEqual(["vol_60min", "vol_15min", "vol_5min"]);
    // Four paths at a time, then 1, 2 or 3 one by one; 1,100 paths: returns still in one chunk.
    for (const nPaths of [1, 2, 3, 6, 203, 1100]) {
      expectAgreement(minerPaths(210 + nPaths, "1h", nPaths), realizedPrices(203, "1h"));
    }
  });

  it("scorePrompt takes the returns again when the first interval does not hold them all", () => {
    // 1,700 paths: chunks of 56 terms, so 1min takes two; the block volatilities also outgrow
    // the scratch (24 blocks of 1,000 paths).
    expectAgreement(minerPaths(221, "1h", 1700), realizedPrices(222, "1h"));
    const paths = minerPaths(223, "1h", 300);
    const prices = realizedPrices(224, "1h");
    // No interval, or another interval first: the volatility kernel gathers the returns itself.
    const alone = expectAgreement(paths, prices, {});
    expect(alone.crps).toBe(alone.volatilityCrps);
    expectAgreement(paths, prices, { "5min": 300, "1min": 60 });
  });

  it("scorePrompt skips the realized volatility blocks with fewer than two observed returns", () => {
    const paths = minerPaths(231, "1h", 500);
    const full = expectAgreement(paths, realizedPrices(232, "1h"));
    // Prices 6–9 missing empty the second 5-minute block; 31–60 missing, half the blocks.
    const gaps = expectAgreement(paths, realizedPrices(232, "1h", [6, 7, 8, 9, 44]));
    const half = expectAgreement(
      paths,
      realizedPrices(
        232,
        "1h",
        Array.from({ length: 30 }, (_, index) => 31 + index),
      ),
    );
    expect(half.volatilityBlocks.vol_5min).toBeLessThan(full.volatilityBlocks.vol_5min);
    expect(gaps.volatilityCrps).not.toBe(full.volatilityCrps);
    // Every other price missing: no return, no block, a volatility CRPS of 0.
    const sparse = expectAgreement(
      paths,
      realizedPrices(
        232,
        "1h",
        Array.from({ length: 30 }, (_, index) => 2 * index + 1),
      ),
    );
    expect([sparse.volatilityCrps, sparse.volatilityBlocks]).toEqual([
      0,
      { vol_60min: 0, vol_15min: 0, vol_5min: 0 },
    ]);
  });

  it("scorePrompt's volatility CRPS matches a case worked by hand", () => {
    // As test/reference/volatilityCrps.test.ts: ±10 and ±20 bps paths against ±10 bps realized,
    // volatility CRPS = 0.4375·(√(6000/59) + √(320/3) + √120); no interval, so it is the total.
    const expected = 0.4375 * (Math.sqrt(6000 / 59) + Math.sqrt(320 / 3) + Math.sqrt(120));
    for (const method of ["closed", "parity"] as const) {
      const result = scorePrompt(
        pathSetOf([alternating(10), alternating(20)], "1h"),
        realizedOf(alternating(10), "1h"),
        { intervals: {} },
        { method, volatility: true },
      );
      expect(Math.abs(result.crps - expected)).toBeLessThan(1e-9 * expected);
      expect(result.priceCrps).toBe(0);
    }
  });

  it("scorePrompt gives −1 as the validator does with the volatility CRPS", () => {
    const paths = minerPaths(241, "1h", 100);
    const prices = realizedPrices(242, "1h");
    const zero = paths.map((path) => [...path]);
    zero[9][30] = 0;
    expect(expectAgreement(zero, prices)).toEqual({
      crps: -1,
      priceCrps: NaN,
      volatilityCrps: NaN,
      intervals: {},
      volatilityBlocks: {},
      invalidReason: "zero price encountered in simulation runs",
    });
    // A non-finite price CRPS (last realized price 0): −1 before the volatility CRPS.
    const zeroLast = [...prices];
    zeroLast[60] = 0;
    const infinite = expectAgreement(paths, zeroLast);
    expect([infinite.crps, infinite.volatilityCrps]).toEqual([-1, NaN]);
    // 121 realized prices, no interval: a realized 60-minute block without a simulated one.
    const longer = expectAgreement(paths, [...prices, ...realizedPrices(243, "1h")], {});
    expect(longer.invalidReason).toBe(
      'volatility block size "vol_60min": 2 realized blocks against 1 simulated blocks per path',
    );
    // A price of 1e-300: returns of ~1e306 bps, whose squares overflow: the blocks around it
    // have an infinite volatility (as numpy's nanstd), and the total is −1.
    const tiny = (path: number[]) => path.map((price, index) => (index === 20 ? 1e-300 : price));
    const two = [alternating(10), tiny(alternating(20))];
    expect(expectAgreement(two, alternating(10), {}).crps).toBe(-1);
    // A return that overflows to Infinity: the blocks around it are NaN (∞ − ∞), left out of
    // their CRPS as properscoring leaves NaN members out; when every path has one, NaN and −1.
    const huge = (path: number[]) =>
      path.map((price, index) => (index === 20 ? 1e-300 : index === 21 ? 1e300 : price));
    const one = expectAgreement([alternating(10), huge(alternating(20))], alternating(10), {});
    expect(one.crps).toBeGreaterThan(0);
    const none = expectAgreement([huge(alternating(10))], alternating(10), {});
    expect([none.crps, none.invalidReason]).toEqual([-1, "non-finite total CRPS NaN"]);
  });
});

describe("scorePrompt's dated rules", () => {
  it("scorePrompt adds the volatility CRPS to crypto-1h prompts of its era only, unless told", () => {
    const paths = minerPaths(251, "1h", 200);
    const prices = realizedPrices(252, "1h");
    const { pathSet, realized } = promptAt(paths, prices, VOLATILITY_ERA_START);
    const crypto1h = scorePrompt(pathSet, realized, { competition: "crypto-1h" });
    const reference = promptCrpsDetails(paths, prices, 60, SCORING_INTERVALS_1H, VOLATILITY_RULES);
    expect(Math.abs(crypto1h.crps - reference.score)).toBeLessThan(1e-12 * reference.score);
    expect(crypto1h.volatilityCrps).toBeGreaterThan(0);
    // Not crypto-1h, or an era setting that turns it off: no volatility part.
    for (const [target, options] of [
      [{ competition: "high" }, {}],
      [{ intervals: SCORING_INTERVALS_1H }, {}],
      [{ competition: "crypto-1h" }, { eraSettings: { volatilityCrpsFromUnix: null } }],
      [{ competition: "crypto-1h" }, { volatility: false }],
    ] as const) {
      const price = scorePrompt(pathSet, realized, target, options);
      expect([price.volatilityCrps, price.crps]).toEqual([null, crypto1h.priceCrps]);
    }
    // Explicit intervals with volatility: true; an era setting that starts it later than the prompt.
    expect(
      scorePrompt(pathSet, realized, { intervals: SCORING_INTERVALS_1H }, { volatility: true }),
    ).toEqual(crypto1h);
    const later = { volatilityCrpsFromUnix: VOLATILITY_ERA_START + 7200 };
    expect(
      scorePrompt(pathSet, realized, { competition: "crypto-1h" }, { eraSettings: later })
        .volatilityCrps,
    ).toBeNull();
    expect(promptCrpsRules({ competition: "crypto-1h" }, VOLATILITY_ERA_START + 3600)).toEqual({
      volatility: true,
      gapsFirstChangeOnly: true,
    });
    // promptCrpsRules's examples.
    expect(promptCrpsRules({ competition: "crypto-1h" }, Date.UTC(2026, 1, 26) / 1000)).toEqual({
      volatility: false,
      gapsFirstChangeOnly: false,
    });
    const explicit = { intervals: { "5min": 300 } };
    const november = Date.UTC(2026, 10, 1) / 1000;
    expect(promptCrpsRules(explicit, november, { volatility: true }).volatility).toBe(true);
    expect(promptCrpsRules(explicit, november).volatility).toBe(false);
  });

  it("scorePrompt scores a 1h prompt before 2026-03-11 with the old gap formula, and after it with the new", () => {
    const paths = minerPaths(261, "1h", 300);
    const prices = realizedPrices(262, "1h", [17]);
    const target = { competition: "crypto-1h" } as const;
    const early = promptAt(paths, prices, START_TIME);
    const late = promptAt(paths, prices, AFTER_GAP_FIX_START);
    // The test prompts start 2026-02-25T23:45Z: `_gaps` intervals as ordinary intervals.
    const before = scorePrompt(early.pathSet, early.realized, target);
    const after = scorePrompt(late.pathSet, late.realized, target);
    expect(before.intervals["0_5min_gaps"]).toBe(before.intervals["5min"]);
    expect(before.intervals["0_15min_gaps"]).toBe(before.intervals["15min"]);
    expect(before.intervals["0_30min_gaps"]).toBe(before.intervals["30min"]);
    expect(after.intervals["0_5min_gaps"]).toBeLessThan(after.intervals["5min"]);
    expect(before.crps).toBeGreaterThan(after.crps);
    expect([before.volatilityCrps, after.volatilityCrps]).toEqual([null, null]);
    // Bit for bit with the reference under each rule, and the override wins over the era.
    for (const [result, gapsFirstChangeOnly] of [
      [before, false],
      [after, true],
    ] as const) {
      const rules = { gapsFirstChangeOnly, volatility: false };
      expect(expectAgreement(paths, prices, SCORING_INTERVALS_1H, rules)).toEqual(result);
    }
    const forced = scorePrompt(early.pathSet, early.realized, target, {
      gapsFirstChangeOnly: true,
    });
    expect(forced).toEqual(after);
  });

  it("the scoring threads apply the same rules, era settings included", async () => {
    const pathSets = [301, 302, 303, 304].map((seed, index) => ({
      ...promptAt(minerPaths(seed, "1h", 200), [], VOLATILITY_ERA_START).pathSet,
      minerUid: index,
    }));
    const realized = promptAt(
      [[1]],
      realizedPrices(305, "1h", [12]),
      VOLATILITY_ERA_START,
    ).realized;
    const threads = new ScoringThreads(1);
    try {
      for (const options of [
        {},
        { method: "parity" },
        { eraSettings: { volatilityCrpsFromUnix: null } },
      ] as const) {
        const scores = await threads.scoreMiners(
          pathSets,
          realized,
          { competition: "crypto-1h" },
          options,
        );
        pathSets.forEach((pathSet, index) => {
          const alone = scorePrompt(pathSet, realized, { competition: "crypto-1h" }, options);
          expect(scores[index]).toEqual({ minerUid: index, ...alone, calibration: undefined });
        });
        expect(scores[0].volatilityCrps === null).toBe("eraSettings" in options);
      }
    } finally {
      await threads.close();
    }
  });
});
